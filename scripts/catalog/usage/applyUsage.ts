/**
 * Gives n8n's descriptions what real workflows say of them (parameter-usage.json): the common
 * parameters essentials carry (src/catalog/essentials.ts) and examples in the shape real workflows
 * use, per operation where the node has them. get_node_details shows an example at the typeVersion it
 * describes (src/catalog/exampleVersion.ts): each example says at which typeVersions of its
 * description validate_node takes it so, and one it takes at none is not served (the build reports
 * it). The constructed example (example.ts) stays where real ones leave a typeVersion without one.
 */
import { readFileSync } from 'node:fs';
import { commonParameters, type NodeUsage } from '../../../src/catalog/essentials.ts';
import { exampleAtVersion } from '../../../src/catalog/exampleVersion.ts';
import type { NodeSpec } from '../../../src/catalog/nodeSpec.ts';
import { own } from '../../../src/lib/ownKeys.ts';
import { catalogOf } from '../../../src/workflows/nodeCatalog.ts';
import { validateNode } from '../../../src/workflows/validateNode.ts';
import { PARAMETER_USAGE_FILE, type ParameterUsageFile } from './countParameters.ts';
import type { ParameterUsage } from './parameters.ts';

type Example = NodeSpec['examples'][number];

export const readParameterUsage = (): ParameterUsage => (JSON.parse(readFileSync(PARAMETER_USAGE_FILE, 'utf8')) as ParameterUsageFile).nodes;

export interface AppliedUsage {
  specs: NodeSpec[];
  /** Real examples validate_node refused, as `type vVERSION[ operation]: message`. */
  refused: string[];
}

export function applyUsage(specs: NodeSpec[], usage: ParameterUsage): AppliedUsage {
  const catalog = catalogOf(specs);
  const refused: string[] = [];
  const applied = specs.map((spec) => {
    if (spec.source !== 'n8n' || !spec.type_versions) return spec;
    const nodeUsage = own<NodeUsage>(usage, spec.subtype);
    const common = nodeUsage && commonParameters(nodeUsage, spec.type_versions);
    const real = realExamples(spec, nodeUsage ?? {}).flatMap((example) => {
      const valid = validAt(example, spec, catalog);
      if (valid.versions.length === 0) refused.push(`${example.name}: ${valid.errors}`);
      return valid.versions.length > 0 ? [withVersions(example, valid.versions, spec)] : [];
    });
    const covered = new Set(real.flatMap((e) => e.type_versions ?? spec.type_versions!));
    const constructed = spec.examples.flatMap((example) => {
      const { versions } = validAt(example, spec, catalog);
      return spec.type_versions!.some((v) => !covered.has(v) && versions.includes(v)) ? [withVersions(example, versions, spec)] : [];
    });
    const examples = [...real, ...constructed];
    if (!common && examples.length === spec.examples.length && examples.every((e, i) => e === spec.examples[i])) return spec;
    return { ...spec, ...(common ? { common_parameters: common } : {}), examples };
  });
  return { specs: applied, refused };
}

type Catalog = ReturnType<typeof catalogOf>;

/** The typeVersions of its description at which validate_node takes an example once set to them, and what it says at the first it refuses. */
function validAt(example: Example, spec: NodeSpec, catalog: Catalog): { versions: number[]; errors: string } {
  const versions: number[] = [];
  let errors = '';
  for (const version of spec.type_versions!) {
    const result = validateNode(exampleAtVersion(example, spec, version).output, catalog);
    if (result.valid) versions.push(version);
    else errors ||= `v${version}: ${result.errors.map((e) => e.message).join('; ')}`;
  }
  return { versions, errors };
}

/** The example, saying at which typeVersions it holds where that is not every one of its description. */
const withVersions = (example: Example, versions: number[], spec: NodeSpec): Example =>
  versions.length === spec.type_versions!.length ? example : { ...example, type_versions: versions };

/** `resource:operation` (or `operation`) as the parameters that set it, for a node that has them. */
function operationValues(spec: NodeSpec, operation: string): Record<string, string> {
  const parts = operation.split(':');
  const names = spec.parameters.some((p) => p.name === 'resource') && parts.length === 2 ? ['resource', 'operation'] : ['operation'];
  return Object.fromEntries(names.map((name, i) => [name, parts[i]!]));
}

/**
 * The configurations real workflows write for the version of this description they use most: one,
 * or one per operation (the most used first). Each is the node as a workflow's "nodes" array holds it,
 * credentials and webhookId as in the constructed example.
 */
export function realExamples(spec: NodeSpec, usage: NodeUsage): Example[] {
  const covered = spec.type_versions!.filter((v) => own(usage, String(v)));
  if (covered.length === 0) return [];
  const version = covered.sort((a, b) => own(usage, String(b))!.workflows - own(usage, String(a))!.workflows || b - a)[0]!;
  const counts = own(usage, String(version))!;
  const constructed = (spec.examples[0]?.output ?? {}) as Record<string, unknown>;
  const configurations = counts.operations
    ? Object.entries(counts.operations)
        .sort((a, b) => b[1].workflows - a[1].workflows || (a[0] < b[0] ? -1 : 1))
        .map(([operation, c]) => ({ operation, workflows: c.workflows, parameters: c.example }))
    : [{ operation: undefined, workflows: counts.workflows, parameters: counts.example }];
  return configurations.flatMap(({ operation, workflows, parameters: written }) => {
    if (!written) return [];
    // Workflows leave out a resource/operation that is the default; the example says which it is.
    const parameters = operation ? { ...operationValues(spec, operation), ...written } : written;
    const node: Record<string, unknown> = { ...constructed, type: spec.subtype, typeVersion: version, name: spec.display_name, parameters };
    const what = operation ? `: ${operation.replace(':', ' / ')}` : '';
    // No version in the words: the example is shown at the typeVersion an answer describes.
    const example: Example = {
      name: `${spec.display_name}${what}, as real workflows write it`,
      description:
        `What most of the ${workflows} public workflows using ${spec.display_name}${what ? ` to ${operation}` : ''} set, ` +
        'their data replaced by placeholders (<…>, user@example.com, https://example.com): replace those' +
        (node.webhookId ? ', give each webhook node its own webhookId (a UUID)' : '') +
        (node.credentials ? ', and point credentials at one of yours' : '') +
        '.',
      parameters,
      output: node,
    };
    if (operation) example.operation = operation;
    return [example];
  });
}
