/**
 * The shape of a structured parameter as an agent writes it (get_node_details): a filled template of
 * its value, which levels are lists, each sub-field's type, choices and default, the modes a resource
 * locator takes; and once per answer the tables these shapes point to (filter operators, assignment
 * types, mapping modes), from n8n's own packages (n8nStructuredTypes.ts). Pure.
 */
import { mustBeSet } from '../workflows/values';
import { conditionInWords } from './conditionWords';
import { N8N_STRUCTURED_TYPES } from './n8nStructuredTypes';
import type { Parameter } from './nodeSpec';
import type { StructuredTypes } from './structuredTypes';

const STRUCTURED = new Set<Parameter['type']>(['filter', 'assignment_collection', 'resource_mapper', 'resource_locator', 'fixed_collection', 'collection']);

export const isStructured = (p: Parameter): boolean => STRUCTURED.has(p.type);

/**
 * What a shape is written for: the typeVersion described (a filter's version depends on it), which
 * nested fields apply (those of other typeVersions, or of values not asked for, do not), and the
 * condition keys the answer has said already (left out of each field's condition).
 */
export interface ShapeContext {
  typeVersion?: number;
  applies?: (field: Parameter) => boolean;
  said?: (key: string) => boolean;
}

/** The shape of a structured parameter, or undefined for a plain one. */
export function parameterShape(p: Parameter, ctx: ShapeContext = {}): unknown {
  switch (p.type) {
    case 'filter':
      return filterShape(p, ctx.typeVersion);
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
      return fixedCollectionShape(p, ctx);
    case 'collection':
      return fieldsShape(p.options ?? [], ctx);
    default:
      return undefined;
  }
}

/** The filter version (the value's `options.version`) n8n writes for a typeVersion: the newest one n8n knows for it, else the newest. */
export function filterVersionAt(p: Parameter, typeVersion: number | undefined): number {
  const versions = p.filter_versions ?? [];
  return versions.find(([v]) => v === typeVersion)?.[1] ?? versions.at(-1)?.[1] ?? 1;
}

function filterShape(p: Parameter, typeVersion: number | undefined) {
  return {
    value: {
      combinator: 'and',
      conditions: [{ id: '<unique id>', leftValue: '={{ $json.field }}', rightValue: 'value', operator: { type: 'string', operation: 'equals' } }],
      options: { caseSensitive: true, leftValue: '', typeValidation: 'strict', version: filterVersionAt(p, typeVersion) },
    },
    operators:
      'structured_types.filter: "operator.type" and its "operation"; operations under "alone" take no rightValue and need "singleValue": true ' +
      'in their operator, e.g. {"type": "boolean", "operation": "true", "singleValue": true}',
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
function fixedCollectionShape(p: Parameter, ctx: ShapeContext) {
  return Object.fromEntries(
    (p.options ?? []).map((group) => [group.name, p.multiple_values ? [fieldsShape(group.options ?? [], ctx)] : fieldsShape(group.options ?? [], ctx)]),
  );
}

/** Each field that applies, by name: its shape when structured, else its line (parameterLine). */
function fieldsShape(fields: Parameter[], ctx: ShapeContext): Record<string, unknown> {
  const entries: [string, unknown][] = [];
  const seen = new Set<string>();
  for (const f of fields) {
    if (f.type === 'notice' || f.type === 'hidden' || seen.has(f.name) || ctx.applies?.(f) === false) continue;
    seen.add(f.name);
    entries.push([f.name, isStructured(f) ? parameterShape(f, ctx) : parameterLine(f, ctx)]);
  }
  return Object.fromEntries(entries);
}

/** Characters of a description a line keeps. */
const LINE_DESCRIPTION = 70;

const clipped = (text: string, max: number) => (text.length > max ? `${text.slice(0, max - 1).trimEnd()}…` : text);

/** Letters and digits, lower case: whether a text says more than a name. */
const bare = (text: string) => text.toLowerCase().replace(/[^a-z0-9]/g, '');

/**
 * What a parameter is for: n8n's hint to its own builder where it gives one (it often names what a
 * loaded list holds: Switch's fallbackOutput), whole unless `max` is given, else the start of its
 * description (`max` characters, LINE_DESCRIPTION by default), else its label; none where these say
 * no more than its name.
 */
export function meaningOf(p: Parameter, max?: number): string | undefined {
  if (p.hint) return max === undefined ? p.hint : clipped(p.hint, max);
  const text = [p.description, p.display_name ?? ''].map((t) => t.replace(/\s+/g, ' ').trim()).find((t) => t !== '' && bare(t) !== bare(p.name));
  return text === undefined ? undefined : clipped(text, max ?? LINE_DESCRIPTION);
}

/** A scalar default as a line writes it; templates (objects, long texts) are left to the full detail. */
const LONG_DEFAULT = 100;
export function lineDefault(p: Parameter): string | undefined {
  const d = p.default_value;
  if (d === undefined || d === null || d === '' || typeof d === 'object') return undefined;
  if (typeof d === 'string' && d.length > LONG_DEFAULT) return undefined;
  return JSON.stringify(d);
}

/** What the value is: its type, or its choices (`"a" | "b"`), n8n's editor loading more where it does. */
function valueKind(f: Parameter): string {
  const list = f.multiple_values || f.type === 'multi_enum' ? 'list of ' : '';
  if ((f.type === 'enum' || f.type === 'multi_enum') && f.enum_values?.length) {
    const choices = f.enum_values.map((v) => JSON.stringify(v)).join(' | ');
    return `${list}${choices}${f.dynamic_options ? " | others n8n's editor loads" : ''}`;
  }
  if (f.dynamic_options) return `${list}a choice n8n's editor loads when the node is opened`;
  return f.multiple_values ? `list of ${f.type}` : f.type;
}

/**
 * `required "text" | "html" = "text" (when returnValue is attribute) — what it does`: one line an
 * agent can write a value from. `required` only where a workflow must set it (mustBeSet). `brief`:
 * a line of a list of parameters to ask for, not to write from: when it applies left out, n8n's hint
 * cut like a description.
 */
export function parameterLine(f: Parameter, ctx: ShapeContext = {}, { brief = false } = {}): string {
  const parts: string[] = [];
  if (mustBeSet(f)) parts.push('required');
  parts.push(valueKind(f));
  const fallback = lineDefault(f);
  if (fallback !== undefined) parts.push(`= ${fallback}`);
  const when = !brief && conditionInWords(f.display_options, (key) => key === '@version' || ctx.said?.(key) === true);
  if (when) parts.push(`(when ${when})`);
  const meaning = meaningOf(f, brief ? LINE_DESCRIPTION : undefined);
  if (meaning) parts.push(`— ${meaning}`);
  return parts.join(' ');
}

/**
 * The tables the shapes of `parameters` point to, each once; empty when none does. A filter's options
 * give the one filter version of the typeVersion described, not every version n8n knows.
 */
export function structuredTables(parameters: Parameter[], typeVersion?: number, types: StructuredTypes = N8N_STRUCTURED_TYPES): Record<string, unknown> {
  const used = new Map<Parameter['type'], Parameter>();
  const visit = (ps: Parameter[]) => {
    for (const p of ps) {
      if (!used.has(p.type)) used.set(p.type, p);
      if (p.options) visit(p.options);
    }
  };
  visit(parameters);
  const filter = used.get('filter');
  const tables: Record<string, unknown> = {};
  if (filter) {
    tables.filter = {
      operators: Object.fromEntries(
        types.filter.operators.map(({ type, operations }) => [
          type,
          { compare: operations.filter((o) => o.right_value).map((o) => o.operation), alone: operations.filter((o) => !o.right_value).map((o) => o.operation) },
        ]),
      ),
      combinators: types.filter.combinators,
      options: { ...types.filter.options, version: filterVersionAt(filter, typeVersion) },
    };
  }
  if (used.has('assignment_collection')) tables.assignment_types = types.assignment_types;
  if (used.has('resource_mapper')) tables.mapping_modes = types.mapping_modes;
  return tables;
}
