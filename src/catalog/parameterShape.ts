/**
 * The shape of a structured parameter as an agent writes it (get_node_details): a filled template of
 * its value, which levels are lists, each sub-field's type, choices and default, the modes a resource
 * locator takes; and once per answer the tables these shapes point to (filter operators, assignment
 * types, mapping modes), from n8n's own packages (n8nStructuredTypes.ts). Pure.
 */
import { N8N_STRUCTURED_TYPES } from './n8nStructuredTypes';
import type { Parameter } from './nodeSpec';
import type { StructuredTypes } from './structuredTypes';

const STRUCTURED = new Set<Parameter['type']>(['filter', 'assignment_collection', 'resource_mapper', 'resource_locator', 'fixed_collection', 'collection']);

export const isStructured = (p: Parameter): boolean => STRUCTURED.has(p.type);

/** The shape of a structured parameter, or undefined for a plain one. */
export function parameterShape(p: Parameter): unknown {
  switch (p.type) {
    case 'filter':
      return filterShape(p);
    case 'assignment_collection':
      return {
        value: { assignments: [{ id: '<unique id>', name: '<field name; a dotted path sets a nested field>', value: '={{ $json.source }}', type: 'string' }] },
        types: 'structured_types.assignment_types',
      };
    case 'resource_mapper':
      return {
        value: {
          mappingMode: 'defineBelow',
          value: { '<field id>': '={{ $json.source }}' },
          matchingColumns: [],
          schema: [{ id: '<field id>', displayName: '<field id>', required: false, defaultMatch: false, display: true, type: 'string' }],
        },
        mapping_modes: 'structured_types.mapping_modes ("autoMapInputData": n8n maps input fields by name and nothing else is written)',
        fields: `loaded from the service at edit time${p.mapper_mode ? ` (${p.mapper_mode})` : ''}: list them in "schema" and give required ones a value`,
      };
    case 'resource_locator':
      return locatorShape(p);
    case 'fixed_collection':
      return fixedCollectionShape(p);
    case 'collection':
      return fieldsShape(p.options ?? []);
    default:
      return undefined;
  }
}

function filterShape(p: Parameter) {
  const versions = p.filter_versions ?? [];
  const newest = versions.at(-1)?.[1] ?? 1;
  return {
    value: {
      combinator: 'and',
      conditions: [{ id: '<unique id>', leftValue: '={{ $json.field }}', rightValue: 'value', operator: { type: 'string', operation: 'equals' } }],
      options: { caseSensitive: true, leftValue: '', typeValidation: 'strict', version: newest },
    },
    operators:
      'structured_types.filter: "operator.type" and its "operation"; operations under "alone" take no rightValue and need "singleValue": true ' +
      'in their operator, e.g. {"type": "boolean", "operation": "true", "singleValue": true}',
    ...(versions.length > 1
      ? { options_version_by_type_version: Object.fromEntries(versions.map(([typeVersion, version]) => [String(typeVersion), version])) }
      : {}),
  };
}

function locatorShape(p: Parameter) {
  const modes = p.locator_modes ?? (p.modes ?? []).map((name) => ({ name }));
  // "list" needs n8n's editor to pick from the service: a value written by hand is an id, a URL or a name.
  const written = modes.find((m) => m.name !== 'list') ?? modes[0];
  return {
    value: { __rl: true, mode: written?.name ?? 'id', value: written && 'placeholder' in written && written.placeholder ? written.placeholder : '<value>' },
    modes: modes.map((m) => ({ name: m.name, ...('pattern' in m && m.pattern ? { pattern: m.pattern } : {}) })),
  };
}

/** Each group by name: a list of entries where n8n's description says multipleValues, one entry otherwise. */
function fixedCollectionShape(p: Parameter) {
  return Object.fromEntries(
    (p.options ?? []).map((group) => [group.name, p.multiple_values ? [fieldsShape(group.options ?? [])] : fieldsShape(group.options ?? [])]),
  );
}

/** Each field by name: its shape when structured, else a line of its type, choices, default and condition. */
function fieldsShape(fields: Parameter[]): Record<string, unknown> {
  const entries: [string, unknown][] = [];
  const seen = new Set<string>();
  for (const f of fields) {
    if (f.type === 'notice' || f.type === 'hidden' || seen.has(f.name)) continue;
    seen.add(f.name);
    entries.push([f.name, isStructured(f) ? parameterShape(f) : fieldLine(f)]);
  }
  return Object.fromEntries(entries);
}

/** `required enum "text" | "html" = "text" (when returnValue=attribute)`: one line an agent can write a value from. */
/** Characters of a field's description its line keeps. */
const FIELD_DESCRIPTION = 70;

const clipped = (text: string, max: number) => (text.length > max ? `${text.slice(0, max - 1).trimEnd()}…` : text);

export function fieldLine(f: Parameter): string {
  const parts: string[] = [];
  if (f.required) parts.push('required');
  if ((f.type === 'enum' || f.type === 'multi_enum') && f.enum_values?.length) {
    const choices = f.enum_values.map((v) => JSON.stringify(v)).join(' | ');
    parts.push(f.type === 'multi_enum' ? `list of ${choices}` : choices);
    if (f.dynamic_options) parts.push('(more loaded at run time)');
  } else if (f.dynamic_options) {
    parts.push(`${f.type === 'multi_enum' ? 'list of ' : ''}choice loaded from the service at run time`);
  } else {
    parts.push(f.multiple_values ? `list of ${f.type}` : f.type);
  }
  if (f.default_value !== undefined && f.default_value !== '' && typeof f.default_value !== 'object') parts.push(`= ${JSON.stringify(f.default_value)}`);
  const show = f.display_options?.show;
  const when = show ? Object.entries(show).filter(([name]) => !name.startsWith('@')) : [];
  if (when.length) parts.push(`(when ${when.map(([name, values]) => `${name}=${values.map((v) => String(v)).join('|')}`).join(', ')})`);
  // n8n's hint to its own builder often names what a run-time list holds (Switch's fallbackOutput);
  // else the start of its description says what the field does.
  const about =
    f.hint ?? (f.description && f.description !== f.display_name && f.description !== f.name ? clipped(f.description, FIELD_DESCRIPTION) : undefined);
  if (about) parts.push(`— ${about}`);
  return parts.join(' ');
}

/** The tables the shapes of `parameters` point to, each once; empty when none does. */
export function structuredTables(parameters: Parameter[], types: StructuredTypes = N8N_STRUCTURED_TYPES): Record<string, unknown> {
  const used = new Set<Parameter['type']>();
  const visit = (ps: Parameter[]) => {
    for (const p of ps) {
      used.add(p.type);
      if (p.options) visit(p.options);
    }
  };
  visit(parameters);
  const tables: Record<string, unknown> = {};
  if (used.has('filter')) {
    tables.filter = {
      operators: Object.fromEntries(
        types.filter.operators.map(({ type, operations }) => [
          type,
          { compare: operations.filter((o) => o.right_value).map((o) => o.operation), alone: operations.filter((o) => !o.right_value).map((o) => o.operation) },
        ]),
      ),
      combinators: types.filter.combinators,
      options: types.filter.options,
    };
  }
  if (used.has('assignment_collection')) tables.assignment_types = types.assignment_types;
  if (used.has('resource_mapper')) tables.mapping_modes = types.mapping_modes;
  return tables;
}
