/**
 * An example at the typeVersion an answer describes. A description covers several typeVersions and
 * its example was written at one of them (the one real workflows use most, or the one n8n's editor
 * adds); shown beside another, the node is set to that one, and each filter it holds to the filter
 * version n8n writes for it, so that no version number in an answer disagrees with another. The build
 * keeps only examples that stay valid at every typeVersion of their description
 * (scripts/catalog/usage/applyUsage.ts). Pure.
 */
import { own, setOwn } from '../lib/ownKeys';
import { isPlainObject } from '../workflows/values';
import type { NodeSpec, Parameter } from './nodeSpec';
import { filterVersionAt } from './parameterShape';

type Example = NodeSpec['examples'][number];

/** The example as it is written for `typeVersion` (unchanged without one, or for another node's type). */
export function exampleAtVersion(example: Example, spec: NodeSpec, typeVersion: number | undefined): Example {
  if (typeVersion === undefined || !isPlainObject(example.output) || example.output.type !== spec.subtype) return example;
  const parameters = withFilterVersions(example.parameters, spec.parameters, typeVersion) as Record<string, unknown>;
  return { ...example, parameters, output: { ...example.output, typeVersion, parameters } };
}

/** `values` with each filter's `options.version` the one n8n writes at `typeVersion`, in collections and fixed-collection entries too. */
function withFilterVersions(values: unknown, parameters: Parameter[], typeVersion: number): unknown {
  if (!isPlainObject(values)) return values;
  const out = { ...values };
  for (const p of parameters) {
    const value = own(out, p.name);
    if (!isPlainObject(value)) continue;
    if (p.type === 'filter') {
      const options = isPlainObject(value.options) ? value.options : {};
      setOwn(out, p.name, { ...value, options: { ...options, version: filterVersionAt(p, typeVersion) } });
    } else if (p.type === 'collection') {
      setOwn(out, p.name, withFilterVersions(value, p.options ?? [], typeVersion));
    } else if (p.type === 'fixed_collection') {
      const groups = { ...value };
      for (const group of p.options ?? []) {
        const entries = own(groups, group.name);
        const written = (entry: unknown) => withFilterVersions(entry, group.options ?? [], typeVersion);
        if (entries !== undefined) setOwn(groups, group.name, Array.isArray(entries) ? entries.map(written) : written(entries));
      }
      setOwn(out, p.name, groups);
    }
  }
  return out;
}
