/**
 * Gives n8n's descriptions what real workflows say of them (parameter-usage.json): the common
 * parameters essentials carry (src/catalog/essentials.ts) and examples in the shape real workflows
 * use, per operation where the node has them. An example validate_node refuses is not served (the
 * build reports it); a description without a real example keeps the constructed one (example.ts).
 */
import { readFileSync } from 'node:fs';
import { commonParameters, type NodeUsage } from '../../../src/catalog/essentials.ts';
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
    const nodeUsage = own<NodeUsage>(usage, spec.subtype);
    if (spec.source !== 'n8n' || !nodeUsage || !spec.type_versions) return spec;
    const common = commonParameters(nodeUsage, spec.type_versions);
    const real = realExamples(spec, nodeUsage).filter((example) => {
      const result = validateNode(example.output, catalog);
      if (!result.valid) refused.push(`${example.name}: ${result.errors.map((e) => e.message).join('; ')}`);
      return result.valid;
    });
    return { ...spec, ...(common ? { common_parameters: common } : {}), examples: real.length > 0 ? real : spec.examples };
  });
  return { specs: applied, refused };
}

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
    const example: Example = {
      name: `${spec.display_name} v${version}${what}, as real workflows write it`,
      description:
        `What most of the ${workflows} public workflows using ${spec.display_name} v${version}${what ? ` to ${operation}` : ''} set, ` +
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
