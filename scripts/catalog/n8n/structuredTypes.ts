/**
 * Reads what n8n's structured parameter values may hold out of n8n's own packages: the filter's
 * operator types, their operations and which take a right value (n8n-workflow's filter-parameter.js,
 * the code that runs a condition), its combinators and options (n8n-workflow's schemas.js), and the
 * assignment value types (the types n8n-workflow's validateFieldType knows, and those the Set node
 * handles itself), and the resource mapper's mapping modes (those n8n-workflow's validation and the
 * nodes' defaults name). Written to src/catalog/n8nStructuredTypes.ts, bundled with the Worker.
 */
import type { StructuredTypes } from '../../../src/catalog/structuredTypes.ts';
import { fetchNodeDescriptions, packedFiles } from './fetch.ts';
import type { N8nProperty } from './mapNode.ts';
import { N8N_PACKAGES } from './packages.ts';

const N8N_NODES_BASE = N8N_PACKAGES.find((p) => p.name === 'n8n-nodes-base' && !p.legacy)!;
/** The n8n-workflow that n8n-nodes-base (packages.ts) depends on. */
export const N8N_WORKFLOW = { name: 'n8n-workflow', version: '2.41.0' } as const;

export const STRUCTURED_TYPES_FILE = 'src/catalog/n8nStructuredTypes.ts';

export function readStructuredTypes(): StructuredTypes {
  const [filterCode, schemas, nodeHelpers] = packedFiles(N8N_WORKFLOW, [
    'dist/esm/node-parameters/filter-parameter.js',
    'dist/esm/schemas.js',
    'dist/esm/node-helpers.js',
  ]);
  const [setHelpers] = packedFiles(N8N_NODES_BASE, ['dist/nodes/Set/v2/helpers/utils.js']);
  const mapperDefaults = fetchNodeDescriptions(N8N_NODES_BASE).flatMap((node) => mapperModes(node.properties ?? []));
  return structuredTypes({ filterCode: filterCode!, schemas: schemas!, nodeHelpers: nodeHelpers!, setHelpers: setHelpers!, mapperDefaults });
}

/** The `mappingMode` of every resource mapper's default, at any depth. */
function mapperModes(properties: N8nProperty[]): string[] {
  return properties.flatMap((p) => {
    const own =
      p.type === 'resourceMapper' && typeof (p.default as { mappingMode?: unknown } | undefined)?.mappingMode === 'string'
        ? [(p.default as { mappingMode: string }).mappingMode]
        : [];
    const children = (p.options ?? []).flatMap((o) => ('values' in o && o.values ? mapperModes(o.values) : 'type' in o ? mapperModes([o as N8nProperty]) : []));
    return [...own, ...children];
  });
}

export interface StructuredTypeSources {
  filterCode: string;
  schemas: string;
  nodeHelpers: string;
  setHelpers: string;
  mapperDefaults: string[];
}

export function structuredTypes({ filterCode, schemas, nodeHelpers, setHelpers, mapperDefaults }: StructuredTypeSources): StructuredTypes {
  const types = enumOf(schemas, 'FilterOperatorTypeSchema');
  const exists = operations(functionBody(filterCode, 'evaluateExistsOperation'));
  const byType = typeBlocks(functionBody(filterCode, 'executeFilterConditionWithRegexTest'));
  const operators = types.map((type) => ({ type, operations: [...exists, ...operations(byType.get(type) ?? '')] }));
  for (const type of byType.keys())
    if (!types.includes(type)) throw new Error(`filter-parameter.js runs operator type "${type}" that schemas.js does not list`);
  return {
    filter: {
      operators,
      combinators: enumOf(schemas, 'FilterTypeCombinatorSchema'),
      options: objectFields(schemas, 'FilterOptionsValueSchema'),
    },
    mapping_modes: [...new Set([...mapperDefaults, ...[...nodeHelpers.matchAll(/mappingMode === '(\w+)'/g)].map((m) => m[1]!)])],
    assignment_types: [...new Set([...enumOf(schemas, 'FieldTypeSchema'), ...[...setHelpers.matchAll(/assignment\.type === '(\w+)'/g)].map((m) => m[1]!)])],
  };
}

/** `export const NAME = z.enum([...])`: its values. */
function enumOf(code: string, name: string): string[] {
  const body = new RegExp(`export const ${name} = z\\.enum\\(\\[([^\\]]*)\\]`).exec(code)?.[1];
  if (body === undefined) throw new Error(`schemas.js has no enum ${name}`);
  return [...body.matchAll(/'([^']+)'/g)].map((m) => m[1]!);
}

/** The fields of `export const NAME = z.object({...})`: a type name, or the values an enum or union of literals allows. */
function objectFields(code: string, name: string): Record<string, string | (string | number)[]> {
  const start = code.indexOf(`export const ${name} = z.object({`);
  if (start < 0) throw new Error(`schemas.js has no object ${name}`);
  const body = block(code, code.indexOf('{', start));
  const fields: Record<string, string | (string | number)[]> = {};
  for (const m of body.matchAll(/(\w+): (z\.\w+\((?:\[[^\]]*\])?\))/g)) {
    const [, field, schema] = m as unknown as [string, string, string];
    const choices = [...schema.matchAll(/'([^']+)'|z\.literal\((\d+)\)/g)].map((c) => (c[1] !== undefined ? c[1] : Number(c[2])));
    fields[field] = choices.length ? choices : /^z\.(\w+)/.exec(schema)![1]!;
  }
  return fields;
}

/** The `{…}` block that opens at `open`, braces included. */
function block(code: string, open: number): string {
  for (let i = open, depth = 0; i < code.length; i++) {
    if (code[i] === '{') depth++;
    else if (code[i] === '}' && --depth === 0) return code.slice(open, i + 1);
  }
  throw new Error('unbalanced braces');
}

function functionBody(code: string, name: string): string {
  const at = code.indexOf(`function ${name}(`);
  if (at < 0) throw new Error(`filter-parameter.js has no function ${name}`);
  return block(code, code.indexOf('{', code.indexOf(')', at)));
}

/** `switch (operator.type)`'s cases: each operator type's code. */
function typeBlocks(body: string): Map<string, string> {
  const open = body.indexOf('{', body.indexOf('switch (operator.type)'));
  const cases = block(body, open);
  const blocks = new Map<string, string>();
  for (let i = 1, depth = 0; i < cases.length; i++) {
    if (cases[i] === '{' || cases[i] === '}') depth += cases[i] === '{' ? 1 : -1;
    const label = depth === 0 ? /^case '(\w+)': /.exec(cases.slice(i)) : null;
    if (label) blocks.set(label[1]!, block(cases, cases.indexOf('{', i)));
  }
  if (blocks.size === 0) throw new Error('filter-parameter.js: no operator types found');
  return blocks;
}

/**
 * The operations a piece of the runner's code handles (`case 'equals':`, `operation === 'empty'`),
 * each with whether its code, up to its return, reads the right value.
 */
function operations(code: string): { operation: string; right_value: boolean }[] {
  const found = new Map<string, boolean>();
  for (const m of code.matchAll(/case '(\w+)':|operation === '(\w+)'/g)) {
    const operation = (m[1] ?? m[2])!;
    const rest = code.slice(m.index + m[0].length);
    const ret = /\breturn\b[^;]*;/.exec(rest);
    const statement = ret ? rest.slice(0, ret.index + ret[0].length) : rest;
    if (!found.has(operation)) found.set(operation, /\bright\w*/.test(statement));
  }
  return [...found].map(([operation, right_value]) => ({ operation, right_value }));
}

export function structuredTypesModule(types: StructuredTypes): string {
  return `// Generated by \`npm run catalog:import-n8n\` from ${N8N_WORKFLOW.name}@${N8N_WORKFLOW.version} and ${N8N_NODES_BASE.name}@${N8N_NODES_BASE.version}: do not edit.
// What n8n's structured parameter values may hold, read out of n8n's own code (scripts/catalog/n8n/structuredTypes.ts).
import type { StructuredTypes } from './structuredTypes';

export const N8N_STRUCTURED_TYPES: StructuredTypes = ${JSON.stringify(types, null, 2)};
`;
}
