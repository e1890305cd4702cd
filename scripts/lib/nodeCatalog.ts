/**
 * The built catalog (.catalog/entries.json, from `npm run catalog:build`) as the validator's view, in
 * Node: for the benchmarks and evaluations that run the validator outside the Worker.
 */
import { readFileSync } from 'node:fs';
import type { NodeSpec } from '../../src/catalog/nodeSpec.ts';
import { catalogOf, type NodeCatalog } from '../../src/workflows/nodeCatalog.ts';

export function loadNodeCatalog(entriesFile = '.catalog/entries.json'): NodeCatalog {
  return catalogOf(loadSpecs(entriesFile));
}

/** Every description in the built catalog, once each (older ones are stored under each of their versions). */
export function loadSpecs(entriesFile = '.catalog/entries.json'): NodeSpec[] {
  const entries = JSON.parse(readFileSync(entriesFile, 'utf8')) as { key: string; value: string }[];
  const specs = new Map<string, NodeSpec>();
  for (const { key, value } of entries) {
    if (!/^catalog:[^:]+:spec:/.test(key)) continue;
    const spec = JSON.parse(value) as NodeSpec;
    specs.set(`${spec.subtype}@${(spec.type_versions ?? [spec.version]).join(',')}`, spec);
  }
  return [...specs.values()];
}
