import type { NodeSpec, OptionValue, Parameter, Port } from './nodeSpec';
import { highest } from './build';
import { visibility } from '../workflows/display';
import { nodeOutputShape, shapeAsJson } from '../workflows/outputShapes';
import { isStructured, parameterShape, structuredTables } from './parameterShape';

export type Detail = 'essentials' | 'full';

/** What one answer is about: a typeVersion, and for nodes that have them a resource and/or operation. */
interface Scope {
  typeVersion?: number;
  resource?: string;
  operation?: string;
}

export interface SerializeOptions extends Scope {
  includeExamples: boolean;
  includeSchemas: boolean;
  detail: Detail;
}

/** Parameters whose choices shape everything else: always in the essentials. */
const STRUCTURAL = /^(resource|operation|mode)$/;
/** Defaults longer than this are templates, left to the full detail. */
const LONG_DEFAULT = 100;
/** Other parameters are listed with their description cut to this many characters. */
const OTHER_DESCRIPTION = 60;

/** A parameter as the essentials list it: enough to configure it, nothing more. */
interface EssentialParameter {
  name: string;
  type: Parameter['type'];
  required: boolean;
  default_value?: unknown;
  /** Choices; for collections and fixed collections, the names of their fields (each once). */
  enum_values?: OptionValue[] | null;
  /** Fields of a collection or fixed collection real workflows set (`field`, `group.field`). */
  common_fields?: string[];
  /** When it applies, e.g. "resource=message, operation=post|update"; several when it recurs. */
  when?: string | string[];
  /** Choices with what each does, in place of enum_values, where n8n describes them. */
  choices?: { value: OptionValue; description?: string }[];
  /** n8n's own hint to AI builders about this parameter. */
  hint?: string;
  /** A structured parameter's value as it is written (src/catalog/parameterShape.ts). */
  shape?: unknown;
}

/**
 * A spec as get_node_details returns it, at the detail asked. `full` has everything, n8n's action
 * labels included. `essentials` keeps, compactly, the parameters an agent writes from (see
 * essentialParameters), lists every other one by name with a line each, and gives one example. Either
 * can be narrowed to a resource/operation (what applies to it, its example).
 */
export function serializeSpec(spec: NodeSpec, options: SerializeOptions): Record<string, unknown> {
  // dynamic_ports names the functions the validator computes ports with: nothing an agent can use;
  // common_parameters is what essentials are chosen by.
  // observed is answered per configuration by get_node_details (src/catalog/observed.ts).
  const { examples, parameters: all, input_ports, output_ports, dynamic_ports: _, common_parameters: common, observed: _observed, ...rest } = spec;
  const scoped = inScope(all, spec, { resource: options.resource, operation: options.operation });
  const operation = operationKey(options);
  const version = options.typeVersion ?? (spec.type_versions ? highest(spec) : undefined);
  const items = itemShape(spec, version);
  const shownExamples = operation === undefined ? examples : examples.filter((e) => e.operation === undefined || matchesOperation(e.operation, options));
  if (options.detail === 'full') {
    const full: Record<string, unknown> = {
      ...rest,
      detail: 'full',
      parameters: scoped.map(withTemplate),
      input_ports: input_ports.map((p) => port(p, options.includeSchemas)),
      output_ports: output_ports.map((p) => withItems(port(p, options.includeSchemas), items)),
      ...tablesFor(scoped),
    };
    if (options.includeExamples && shownExamples.length > 0) full.examples = shownExamples;
    return full;
  }
  const applying = version === undefined ? scoped : inScope(scoped, spec, { typeVersion: version });
  const { essential, others } = essentialParameters(applying, common, options);
  // The action labels are what search reads; the essentials' resource/operation choices say the same.
  const { actions: _actions, ...compact } = rest;
  const answer: Record<string, unknown> = {
    ...compact,
    detail: 'essentials',
    parameters: merged(essential.map((p) => withShape(essentialEntry(p, common), p))),
    other_parameters: otherParameters(others),
    input_ports: input_ports.map(compactPort),
    output_ports: output_ports.map((p) => withItems(compactPort(p), items)),
    ...tablesFor(essential),
  };
  if (options.includeExamples && shownExamples.length > 0) answer.examples = shownExamples.slice(0, 1);
  return answer;
}

/** In full answers, the shape of the parameters whose description has no tree of sub-fields to read it from. */
function withTemplate(p: Parameter): Parameter | (Parameter & { shape: unknown }) {
  return isStructured(p) && p.type !== 'collection' && p.type !== 'fixed_collection' ? { ...p, shape: parameterShape(p) } : p;
}

/** The tables the shapes point to (filter operators, assignment types…), once per answer. */
function tablesFor(parameters: Parameter[]): { structured_types?: ReturnType<typeof structuredTables> } {
  const tables = structuredTables(parameters);
  return Object.keys(tables).length > 0 ? { structured_types: tables } : {};
}

/**
 * Essentials give a structured parameter's shape, which names its fields: their names are then not
 * repeated as choices. A plain collection's shape keeps to the fields real workflows set (the rest are
 * named in enum_values); a fixed collection's is whole, as entries need every level.
 */
function withShape(e: EssentialParameter, p: Parameter): EssentialParameter {
  if (!isStructured(p)) return e;
  if (p.type === 'collection') {
    const fields = new Set(e.common_fields ?? []);
    return fields.size === 0 ? e : { ...e, shape: parameterShape({ ...p, options: (p.options ?? []).filter((o) => fields.has(o.name)) }) };
  }
  const { enum_values: _names, ...rest } = e;
  return { ...rest, shape: parameterShape(p) };
}

/**
 * What the node's output items hold with its defaults, where that follows from the node alone (a
 * Webhook's {headers, params, query, body…}: src/workflows/outputShapes.ts); null where it does not.
 */
function itemShape(spec: NodeSpec, typeVersion: number | undefined) {
  if (spec.source !== 'n8n') return null;
  const shape = nodeOutputShape(spec, { type: spec.subtype, typeVersion: typeVersion ?? Number(spec.version), parameters: {} });
  return shape && shape.fields.size > 0 ? shapeAsJson(shape) : null;
}

/** A main output port with the fields its items hold, when known. */
function withItems<P extends { type: string; data_format?: Port['data_format'] }>(p: P, items: ReturnType<typeof itemShape>): P & { item_fields?: unknown } {
  if (!items || p.type !== 'main') return p;
  return { ...p, item_fields: items };
}

function port(p: Port, includeSchemas: boolean): Port {
  return includeSchemas ? p : { ...p, data_format: null, validation_schema: null };
}

const compactPort = ({ name, type, required, max_connections }: Port) => ({ name, type, required, max_connections });

/** The key of the asked operation in common_parameters and examples: `resource:operation`, or one of them. */
function operationKey({ resource, operation }: Scope): string | undefined {
  if (resource === undefined && operation === undefined) return undefined;
  return [resource, operation].filter((v) => v !== undefined).join(':');
}

/** Whether a `resource:operation` key is the one asked (only the parts asked are compared). */
function matchesOperation(key: string, { resource, operation }: Scope): boolean {
  const [first, second] = key.split(':');
  const [keyResource, keyOperation] = second === undefined ? [undefined, first] : [first, second];
  return (resource === undefined || resource === keyResource) && (operation === undefined || operation === keyOperation);
}

/**
 * The parameters that apply to a scope: those whose conditions on the scope's resource, operation and
 * typeVersion hold (conditions on other parameters are left for `when`).
 */
function inScope(parameters: Parameter[], spec: NodeSpec, scope: Scope): Parameter[] {
  const values: Record<string, unknown> = {};
  const keys: string[] = [];
  for (const key of ['resource', 'operation'] as const) {
    if (scope[key] === undefined) continue;
    values[key] = scope[key];
    keys.push(key);
  }
  if (scope.typeVersion !== undefined) keys.push('@version');
  if (keys.length === 0) return parameters;
  const ctx = { values, root: values, typeVersion: scope.typeVersion ?? 0, nodeType: spec.subtype };
  return parameters.filter((p) => {
    const only = (conditions?: Record<string, unknown[]>) => conditions && Object.fromEntries(Object.entries(conditions).filter(([key]) => keys.includes(key)));
    const options = p.display_options && { show: only(p.display_options.show), hide: only(p.display_options.hide) };
    return visibility(options, ctx) !== 'hidden';
  });
}

/**
 * The parameters essentials give in full: resource/operation/mode, every required one, those real
 * workflows commonly set (common_parameters, chosen by src/catalog/essentials.ts: for the operation
 * asked, else for the version and each of its operations), and those whose values decide whether one
 * of these applies. A node no workflow uses keeps the parameters that apply whatever the others say.
 * Notices and hidden values are no parameters to set.
 */
function essentialParameters(parameters: Parameter[], common: NodeSpec['common_parameters'], scope: Scope) {
  const settable = parameters.filter((p) => p.type !== 'notice' && p.type !== 'hidden');
  const commonNames = new Set(commonPaths(common, scope).filter((path) => !path.includes('.')));
  const names = new Set(
    settable.filter((p) => STRUCTURAL.test(p.name) || p.required || (common ? commonNames.has(p.name) : !p.display_options)).map((p) => p.name),
  );
  // The parameters whose values decide whether an essential one applies are essential too (Webhook's
  // responseData decides responseBinaryPropertyName): until no more are added.
  for (let size = -1; size !== names.size;) {
    size = names.size;
    for (const p of settable.filter((p) => names.has(p.name))) for (const name of deciding(p)) if (settable.some((q) => q.name === name)) names.add(name);
  }
  return { essential: settable.filter((p) => names.has(p.name)), others: settable.filter((p) => !names.has(p.name)) };
}

/** The parameters a parameter's conditions read (`/name` reads the node's top level). */
const deciding = (p: Parameter): string[] =>
  [...Object.keys(p.display_options?.show ?? {}), ...Object.keys(p.display_options?.hide ?? {})]
    .filter((k) => !k.startsWith('@'))
    .map((k) => k.replace(/^\//, ''));

/** Paths real workflows commonly set, for the scope's operation, or for the version and every operation. */
function commonPaths(common: NodeSpec['common_parameters'], scope: Scope): string[] {
  if (!common) return [];
  const operations = Object.entries(common.operations ?? {});
  if (operationKey(scope) !== undefined) {
    const asked = operations.filter(([key]) => matchesOperation(key, scope));
    if (asked.length > 0) return asked.flatMap(([, paths]) => paths);
  }
  return [...common.parameters, ...operations.flatMap(([, paths]) => paths)];
}

/** Up to this many choices are listed with what each does (Respond to Webhook's respondWith: 8). */
const DESCRIBED_CHOICES = 12;

const describedChoices = (values: OptionValue[], descriptions: string[]) =>
  values.map((value, i) => (descriptions[i] ? { value, description: descriptions[i]! } : { value }));

/** One essential parameter, with the fields of it real workflows set. */
function essentialEntry(p: Parameter, common: NodeSpec['common_parameters']): EssentialParameter {
  const e: EssentialParameter = { name: p.name, type: p.type, required: p.required };
  // A long default is a template (an HTML page, a JSON sample): the full detail has it.
  const shortDefault = typeof p.default_value !== 'string' || p.default_value.length <= LONG_DEFAULT;
  if (p.default_value !== undefined && p.default_value !== null && typeof p.default_value !== 'object' && shortDefault) e.default_value = p.default_value;
  if (p.enum_values?.length && p.enum_descriptions && p.enum_values.length <= DESCRIBED_CHOICES)
    e.choices = describedChoices(p.enum_values, p.enum_descriptions);
  else if (p.enum_values?.length) e.enum_values = p.enum_values;
  else if (p.options?.length) e.enum_values = [...new Set(p.options.map((o) => o.name))];
  const fields = [...new Set((common?.parameters ?? []).concat(Object.values(common?.operations ?? {}).flat()))]
    .filter((path) => path.startsWith(`${p.name}.`))
    .map((path) => path.slice(p.name.length + 1));
  if (fields.length > 0 && (p.type === 'collection' || p.type === 'fixed_collection')) e.common_fields = fields;
  const when = condition(p);
  if (when) e.when = when;
  if (p.hint) e.hint = p.hint;
  return e;
}

/** The same parameter recurring under other conditions (one per operation, say) is one entry with each condition. */
function merged(entries: EssentialParameter[]): EssentialParameter[] {
  const byKey = new Map<string, EssentialParameter>();
  for (const e of entries) {
    const key = JSON.stringify([e.name, e.type, e.required, e.enum_values ?? e.choices ?? null]);
    const seen = byKey.get(key);
    if (!seen) byKey.set(key, e);
    else if (e.when) seen.when = [...[seen.when ?? []].flat(), ...[e.when].flat()];
  }
  return [...byKey.values()];
}

/**
 * The parameters essentials leave out, each once by name with its type and the start of its
 * description: enough to know it exists and ask for it (detail "full", per resource/operation).
 */
function otherParameters(others: Parameter[]): Record<string, string> {
  const lines = new Map<string, string>();
  for (const p of others) {
    if (lines.has(p.name)) continue;
    const text = (p.description || p.display_name || '').replace(/\s+/g, ' ').trim();
    const cut = text.length > OTHER_DESCRIPTION ? `${text.slice(0, OTHER_DESCRIPTION - 1).trimEnd()}…` : text;
    lines.set(p.name, cut ? `${p.type}: ${cut}` : p.type);
  }
  return Object.fromEntries(lines);
}

/** When a parameter applies, as text; essentials are for one typeVersion, so conditions on it are said already. */
function condition(p: Parameter): string | undefined {
  const show = Object.entries(p.display_options?.show ?? {}).filter(([name]) => name !== '@version');
  if (show.length === 0) return undefined;
  return show.map(([name, values]) => `${name}=${values.map((v) => (typeof v === 'string' ? v : JSON.stringify(v))).join('|')}`).join(', ');
}
