import type { NodeSpec, OptionValue, Parameter, Port } from './nodeSpec';
import { highest } from './build';
import { conditionInWords } from './conditionWords';
import { exampleAtVersion } from './exampleVersion';
import { NODE_SETTINGS, SETTINGS_PLACE } from './nodeSettings';
import { own } from '../lib/ownKeys';
import { checkConditions, visibility } from '../workflows/display';
import { nodeOutputShape, shapeAsJson } from '../workflows/outputShapes';
import { isPlainObject, mustBeSet, withDefaults } from '../workflows/values';
import { isStructured, lineDefault, meaningOf, parameterLine, parameterShape, structuredTables, type ShapeContext } from './parameterShape';

export type Detail = 'essentials' | 'full';

/**
 * What one answer is about: a typeVersion, and the values the caller means to give parameters that
 * decide which others apply (resource, operation, Merge's mode…): the answer keeps to what applies
 * under them.
 */
interface Scope {
  typeVersion?: number;
  values?: Record<string, OptionValue>;
}

export interface SerializeOptions extends Scope {
  includeExamples: boolean;
  includeSchemas: boolean;
  detail: Detail;
  /** Parameters the caller named, whatever their values: a collection named is given with every field. */
  named?: string[];
}

/** Parameters whose choices shape everything else: always in the essentials. */
const STRUCTURAL = /^(resource|operation|mode)$/;
/** A parameter's description, in the essentials, is cut to this many characters (n8n's hint says the rest). */
const DESCRIPTION = 100;

/** A parameter as the essentials list it: enough to configure it, nothing more. */
interface EssentialParameter {
  name: string;
  type: Parameter['type'];
  /** Whether a workflow must set it: n8n requires it and its default does not fill it in. */
  required: boolean;
  default_value?: unknown;
  /** What it is for, in a line. */
  description?: string;
  /** Choices without what each does (more than DESCRIBED_CHOICES, or n8n says nothing of them). */
  enum_values?: OptionValue[] | null;
  /** Choices n8n's editor loads when the node is opened: those listed are the ones the description names. */
  more_choices?: string;
  /** Fields of a collection or fixed collection real workflows set (`field`, `group.field`). */
  common_fields?: string[];
  /** When it applies, in words ("operation is post or update"); several when it recurs. */
  when?: string | string[];
  /** Choices with what each does and, where other parameters apply only under it, which (narrow with that value to see them). */
  choices?: Choice[];
  /** n8n's own hint to AI builders about this parameter. */
  hint?: string;
  /** A structured parameter's value as it is written (src/catalog/parameterShape.ts): a collection's fields, each with its line. */
  shape?: unknown;
  /** How many of a collection's fields the shape leaves out (those real workflows seldom set), and how to see them. */
  more_fields?: string;
}

interface Choice {
  value: OptionValue;
  description?: string;
  brings?: string[];
}

/**
 * A spec as get_node_details returns it, at the detail asked, for one typeVersion (the one asked, else
 * the description's newest): its examples are set to it. `full` has every parameter with its option
 * tree, n8n's action labels included. `essentials` keeps, compactly, the parameters an agent writes
 * from (see essentialParameters), says in a line what every other one is, and gives one example. Either
 * can be narrowed by the values of parameters that decide others (`values`): what applies under them;
 * the parameters the caller `named` are given in full. Every condition is said in words; every
 * `required` is what n8n enforces (mustBeSet).
 */
export function serializeSpec(spec: NodeSpec, options: SerializeOptions): Record<string, unknown> {
  // dynamic_ports names the functions the validator computes ports with: nothing an agent can use;
  // common_parameters is what essentials are chosen by.
  const {
    examples,
    parameters: all,
    input_ports,
    output_ports,
    dynamic_ports: _,
    common_parameters: common,
    credentials,
    observed: _observed,
    ...described
  } = spec;
  // observed is answered per configuration by get_node_details (src/catalog/observed.ts).
  const values = options.values ?? {};
  // A condition key names a parameter asked for (`/name` one of the top level): what it holds is said already.
  const asked = (key: string) => Object.hasOwn(values, key.replace(/^\//, ''));
  const taken = credentials?.filter((c) => applies(c, spec, { values })).map((c) => credentialInWords(c, asked));
  const rest = { ...described, ...(taken ? { credentials: taken } : {}) };
  const version = options.typeVersion ?? (spec.type_versions ? highest(spec) : undefined);
  const scoped = all.filter((p) => applies(p, spec, { values }));
  const operation = operationKey(values);
  const items = itemShape(spec, version);
  const candidates = examples
    .filter((e) => operation === undefined || e.operation === undefined || matchesOperation(e.operation, values))
    .filter((e) => version === undefined || !e.type_versions || e.type_versions.includes(version));
  const decide = new Set(spec.parameters.flatMap(deciding));
  const agreeing = candidates.filter((e) => agrees(e, spec, values, version, decide));
  // None in the mode asked for: the first, with the deciding values asked written in, still shows the node's whole shape.
  const shownExamples = (agreeing.length > 0 || candidates.length === 0 ? agreeing : [withValuesAsked(candidates[0]!, values, decide)]).map(
    ({ type_versions: _valid, ...e }) => exampleAtVersion(e, spec, version),
  );
  if (options.detail === 'full') {
    const ctx: ShapeContext = { typeVersion: version, said: asked };
    const full: Record<string, unknown> = {
      ...rest,
      detail: 'full',
      parameters: scoped.map((p) => fullParameter(p, ctx)),
      input_ports: input_ports.map((p) => port(p, options.includeSchemas)),
      output_ports: output_ports.map((p) => withItems(port(p, options.includeSchemas), items)),
      ...tablesFor(scoped, version),
    };
    if (options.includeExamples && shownExamples.length > 0) full.examples = shownExamples;
    return full;
  }
  const scope = { values, typeVersion: version };
  const applying = version === undefined ? scoped : scoped.filter((p) => applies(p, spec, scope));
  const named = options.named ?? [];
  const { essential, others } = essentialParameters(applying, common, values, named);
  // A collection the caller named, or one the values asked for bring in, is given whole; the others keep to the fields real workflows set.
  const whole = (p: Parameter) => named.includes(p.name) || broughtIn(p, values);
  const ctx: ShapeContext = {
    typeVersion: version,
    applies: (field) => applies(field, spec, scope, { nested: true }),
    said: (key) => key === '@version' || asked(key),
  };
  // The action labels are what search reads; the essentials' resource/operation choices say the same.
  const { actions: _actions, ...compact } = rest;
  const answer: Record<string, unknown> = {
    ...compact,
    detail: 'essentials',
    parameters: merged(essential.map((p) => essentialEntry(p, common, [...essential, ...others], ctx, whole(p)))),
    other_parameters: otherParameters(others, ctx),
    input_ports: input_ports.map(compactPort),
    output_ports: output_ports.map((p) => withItems(compactPort(p), items)),
    ...tablesFor(essential, version),
  };
  if (options.includeExamples && shownExamples.length > 0) answer.examples = shownExamples.slice(0, 1);
  return answer;
}

/**
 * Whether an example runs with the values asked for of the parameters that decide others, as n8n runs
 * it (its defaults filled in): one of another mode is not shown; other values asked for (a field name)
 * are the caller's own and decide nothing.
 */
function agrees(example: NodeSpec['examples'][number], spec: NodeSpec, values: Values, typeVersion: number | undefined, decide: Set<string>): boolean {
  const runs = withDefaults(spec.parameters, example.parameters, { typeVersion: typeVersion ?? 0, nodeType: spec.subtype });
  return Object.entries(values).every(([key, value]) => !decide.has(key) || !Object.hasOwn(runs, key) || String(runs[key]) === String(value));
}

/**
 * An example of another mode with the deciding values asked for written over its own (a Webhook's
 * responseMode "responseNode" where real workflows answer on receipt): what else that mode needs is
 * the caller's to add, and the description says which values were changed.
 */
function withValuesAsked(example: NodeSpec['examples'][number], values: Values, decide: Set<string>): NodeSpec['examples'][number] {
  const asked = Object.entries(values).filter(([key, value]) => decide.has(key) && String(own(example.parameters, key)) !== String(value));
  const parameters = { ...example.parameters, ...Object.fromEntries(asked) };
  const said = asked
    .map(([key, value]) => `${key} ${JSON.stringify(value)} (it had ${JSON.stringify(own(example.parameters, key)) ?? 'the default'})`)
    .join(', ');
  return {
    ...example,
    description: `${example.description} Written here with ${said}, as asked; validate_node says what else that needs.`,
    parameters,
    ...(isPlainObject(example.output) ? { output: { ...example.output, parameters } } : {}),
  };
}

/** A credential type the node takes, with when it applies in words (Slack: slackOAuth2Api when authentication is oAuth2). */
function credentialInWords({ display_options, ...credential }: NonNullable<NodeSpec['credentials']>[number], said: (key: string) => boolean) {
  const when = conditionInWords(display_options, said);
  return { ...credential, ...(when ? { when } : {}) };
}

/**
 * The settings every node has beside its parameters (src/catalog/nodeSettings.ts), described as the
 * essentials describe parameters, and where they are written.
 */
export function nodeSettings(): { written: string; settings: EssentialParameter[] } {
  return { written: SETTINGS_PLACE, settings: NODE_SETTINGS.map((p) => essentialEntry(p, undefined, NODE_SETTINGS, {}, false)) };
}

/**
 * A parameter of the full answer: as the spec has it, its conditions in words, `required` as n8n
 * enforces it, the filter version only in its shape (for the typeVersion described), at every depth.
 */
function fullParameter(p: Parameter, ctx: ShapeContext): Record<string, unknown> {
  const { display_options, filter_versions: _, options, required: __, ...rest } = p;
  const when = conditionInWords(display_options, ctx.said);
  return {
    ...rest,
    required: mustBeSet(p),
    ...(when ? { when } : {}),
    ...(options ? { options: options.map((o) => fullParameter(o, ctx)) } : {}),
    // Collections show their fields above; the others' values have no tree to read them from.
    ...(isStructured(p) && p.type !== 'collection' && p.type !== 'fixed_collection' ? { shape: parameterShape(p, ctx) } : {}),
  };
}

/** The tables the shapes point to (filter operators, assignment types…), once per answer. */
function tablesFor(parameters: Parameter[], typeVersion: number | undefined): { structured_types?: ReturnType<typeof structuredTables> } {
  const tables = structuredTables(parameters, typeVersion);
  return Object.keys(tables).length > 0 ? { structured_types: tables } : {};
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

type Values = Record<string, OptionValue>;

/** The key of the asked operation in common_parameters and examples: `resource:operation`, or one of them. */
function operationKey(values: Values): string | undefined {
  const parts = (['resource', 'operation'] as const).filter((key) => Object.hasOwn(values, key)).map((key) => String(values[key]));
  return parts.length > 0 ? parts.join(':') : undefined;
}

/** Whether a `resource:operation` key is the one asked (only the parts asked are compared). */
function matchesOperation(key: string, values: Values): boolean {
  const [first, second] = key.split(':');
  const [keyResource, keyOperation] = second === undefined ? [undefined, first] : [first, second];
  const matches = (name: 'resource' | 'operation', value: string | undefined) => !Object.hasOwn(values, name) || String(values[name]) === value;
  return matches('resource', keyResource) && matches('operation', keyOperation);
}

/**
 * Whether a parameter (or a credential) applies to a scope: its conditions on the values asked for and on the
 * typeVersion hold (conditions on other parameters are left for `when`). A nested field's bare names
 * are its siblings', so only its `/name` conditions read the values asked for.
 */
function applies(p: Pick<Parameter, 'display_options'>, spec: NodeSpec, scope: Scope, { nested = false } = {}): boolean {
  const values = scope.values ?? {};
  const decided = (key: string) =>
    (key === '@version' && scope.typeVersion !== undefined) ||
    (key.startsWith('/') ? Object.hasOwn(values, key.slice(1)) : !nested && Object.hasOwn(values, key));
  const only = (conditions?: Record<string, unknown[]>) => conditions && Object.fromEntries(Object.entries(conditions).filter(([key]) => decided(key)));
  const options = p.display_options && { show: only(p.display_options.show), hide: only(p.display_options.hide) };
  const ctx = { values: nested ? {} : values, root: values, typeVersion: scope.typeVersion ?? 0, nodeType: spec.subtype };
  return visibility(options, ctx) !== 'hidden';
}

/** Whether a parameter applies only under certain values of one of those asked for: what those values bring in. */
const broughtIn = (p: Parameter, values: Values) =>
  Object.keys(p.display_options?.show ?? {}).some((key) => !key.startsWith('@') && Object.hasOwn(values, key.replace(/^\//, '')));

/**
 * The parameters essentials give in full: resource/operation/mode, every one a workflow must set,
 * those real workflows commonly set (common_parameters, chosen by src/catalog/essentials.ts: for the
 * operation asked, else for the version and each of its operations), those the values asked for bring
 * in, those the caller named, and those whose values decide whether one of these applies. A node no workflow uses keeps the
 * parameters that apply whatever the others say. Notices and hidden values are no parameters to set.
 */
function essentialParameters(parameters: Parameter[], common: NodeSpec['common_parameters'], values: Values, named: string[]) {
  const settable = parameters.filter((p) => p.type !== 'notice' && p.type !== 'hidden');
  const commonNames = new Set(commonPaths(common, values).filter((path) => !path.includes('.')));
  const names = new Set(
    settable
      .filter(
        (p) =>
          STRUCTURAL.test(p.name) || mustBeSet(p) || broughtIn(p, values) || named.includes(p.name) || (common ? commonNames.has(p.name) : !p.display_options),
      )
      .map((p) => p.name),
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

/** Paths real workflows commonly set, for the operation asked, or for the version and every operation. */
function commonPaths(common: NodeSpec['common_parameters'], values: Values): string[] {
  if (!common) return [];
  const operations = Object.entries(common.operations ?? {});
  if (operationKey(values) !== undefined) {
    const asked = operations.filter(([key]) => matchesOperation(key, values));
    if (asked.length > 0) return asked.flatMap(([, paths]) => paths);
  }
  return [...common.parameters, ...operations.flatMap(([, paths]) => paths)];
}

/** Up to this many choices are listed with what each does (Respond to Webhook's respondWith: 8). */
const DESCRIBED_CHOICES = 12;

/**
 * Each choice with what it does, and the parameters that apply only when it is chosen (of those the
 * answer names): narrowing by it gives them in full. Not for resource and operation: narrowing by
 * them is how a node with operations is read (they have inputs of their own), and listing every
 * operation's parameters would make the overview as large as the node.
 */
function choicesOf(p: Parameter, named: Parameter[]): Choice[] {
  const sections = p.name === 'resource' || p.name === 'operation';
  return (p.enum_values ?? []).map((value, i) => {
    const brings = sections
      ? []
      : [
          ...new Set(
            named
              .filter((q) => q !== p && [p.name, `/${p.name}`].some((key) => checkConditions(own(q.display_options?.show ?? {}, key) ?? [], [value])))
              .map((q) => q.name),
          ),
        ];
    const description = p.enum_descriptions?.[i];
    return { value, ...(description ? { description } : {}), ...(brings.length > 0 ? { brings } : {}) };
  });
}

/**
 * One essential parameter, with the fields of it real workflows set. `named`: every parameter the
 * answer names; `whole`: a collection is given with every field that applies, else with the fields
 * real workflows set and how many others there are (asked for by name, they are given).
 */
function essentialEntry(p: Parameter, common: NodeSpec['common_parameters'], named: Parameter[], ctx: ShapeContext, whole: boolean): EssentialParameter {
  const e: EssentialParameter = { name: p.name, type: p.type, required: mustBeSet(p) };
  if (lineDefault(p) !== undefined) e.default_value = p.default_value;
  const description = meaningOf({ ...p, hint: undefined }, DESCRIPTION);
  if (description) e.description = description;
  const choices = p.enum_values ?? [];
  const described = choices.length <= DESCRIBED_CHOICES ? choicesOf(p, named) : [];
  // Choices that say nothing but their value are listed as values.
  if (described.some((c) => c.description !== undefined || c.brings !== undefined)) e.choices = described;
  else if (choices.length > 0) e.enum_values = choices;
  if (p.dynamic_options) e.more_choices = "n8n's editor loads them when the node is opened";
  const fields = [...new Set((common?.parameters ?? []).concat(Object.values(common?.operations ?? {}).flat()))]
    .filter((path) => path.startsWith(`${p.name}.`))
    .map((path) => path.slice(p.name.length + 1));
  if (fields.length > 0 && (p.type === 'collection' || p.type === 'fixed_collection')) e.common_fields = fields;
  const when = conditionInWords(p.display_options, ctx.said);
  if (when) e.when = when;
  if (p.hint) e.hint = p.hint;
  if (p.type === 'collection' && !whole) {
    const fields = (p.options ?? []).filter((f) => ctx.applies?.(f) !== false && f.type !== 'notice' && f.type !== 'hidden');
    const shown = fields.filter((f) => e.common_fields?.includes(f.name));
    if (shown.length > 0) e.shape = parameterShape({ ...p, options: shown }, ctx);
    const more = new Set(fields.map((f) => f.name)).size - new Set(shown.map((f) => f.name)).size;
    if (more > 0) e.more_fields = `${more}${shown.length > 0 ? ' more' : ''}: ask with "parameters": {${JSON.stringify(p.name)}: {}} to see each`;
  } else if (isStructured(p)) e.shape = parameterShape(p, ctx);
  return e;
}

/** The same parameter recurring under other conditions (one per operation, say) is one entry with each condition. */
function merged(entries: EssentialParameter[]): EssentialParameter[] {
  const byKey = new Map<string, EssentialParameter>();
  for (const e of entries) {
    const key = JSON.stringify([e.name, e.type, e.required, e.enum_values ?? e.choices ?? null, e.shape ?? null]);
    const seen = byKey.get(key);
    if (!seen) byKey.set(key, e);
    else if (e.when) seen.when = [...[seen.when ?? []].flat(), ...[e.when].flat()];
  }
  return [...byKey.values()];
}

/**
 * The parameters essentials leave out, each once by name with its line (type or choices, default,
 * what it is for): enough to know what it is and ask for it (by the values that bring it in, or detail
 * "full").
 */
function otherParameters(others: Parameter[], ctx: ShapeContext): Record<string, string> {
  const lines = new Map<string, string>();
  for (const p of others) if (!lines.has(p.name)) lines.set(p.name, parameterLine(p, ctx, { brief: true }));
  return Object.fromEntries(lines);
}
