/**
 * Maps one n8n node description (an entry of a package's dist/types/nodes.json, covering one or more
 * typeVersions) to a NodeSpec. Pure and deterministic: the same description always gives the same spec.
 */
import type { Credential, LocatorMode, NodeSpec, NodeType, OptionValue, Parameter, Port } from '../../../src/catalog/nodeSpec.ts';
import { portFunctionId } from '../../../src/catalog/ports/portFunctionId.ts';
import { hintInWorkflowJson } from './builderHints.ts';
import { exampleNode } from './example.ts';
import { expressionBody } from './portFunctions.ts';

/** The parts of n8n's INodeTypeDescription the importer reads. */
export interface N8nNode {
  name: string;
  displayName: string;
  description?: string;
  version: number | number[];
  defaultVersion?: number;
  group?: string[];
  usableAsTool?: unknown;
  webhooks?: unknown[];
  /** n8n leaves the node out of its node panel: deprecated (Function, Cron…) or internal. */
  hidden?: boolean;
  /** What n8n's own AI workflow builder is told about the node: when to use it, which nodes go with it. */
  builderHint?: { searchHint?: string; relatedNodes?: { nodeType: string; relationHint?: string }[] };
  /** Set on the tool n8n derives from a node (src: toolVariant.ts): that node's name. */
  toolOf?: string;
  inputs?: unknown;
  outputs?: unknown;
  outputNames?: string[];
  credentials?: { name: string; required?: boolean; displayOptions?: N8nDisplayOptions }[];
  properties?: N8nProperty[];
  codex?: {
    categories?: string[];
    subcategories?: Record<string, string[] | string>;
    alias?: string[];
    resources?: { primaryDocumentation?: { url: string }[] };
  };
}

type N8nDisplayOptions = { show?: Record<string, unknown[]>; hide?: Record<string, unknown[]> };

export interface N8nProperty {
  name: string;
  displayName?: string;
  /** What n8n's own AI workflow builder is told about the property. */
  builderHint?: { propertyHint?: string };
  type: string;
  default?: unknown;
  description?: string;
  placeholder?: string;
  required?: boolean;
  displayOptions?: N8nDisplayOptions;
  options?: (N8nOption | N8nProperty)[];
  modes?: { name: string; placeholder?: string; validation?: { type: string; properties?: { regex?: string; errorMessage?: string } }[] }[];
  typeOptions?: {
    editor?: string;
    multipleValues?: boolean;
    loadOptionsMethod?: string;
    loadOptions?: unknown;
    /** A filter's options, as n8n expressions of the node's parameters and typeVersion. */
    filter?: { version?: unknown };
    resourceMapper?: { mode?: string };
  };
}

interface N8nOption {
  name: string;
  value?: unknown;
  /** What n8n's own AI workflow builder is told about the choice. */
  builderHint?: { propertyHint?: string };
  /** What n8n's node panel lists for an operation: "Send a message". */
  action?: string;
  description?: string;
  displayName?: string;
  values?: N8nProperty[];
}

export interface MapReport {
  /** Property types dropped because they carry no configuration (buttons, icons…). */
  droppedProperties: Record<string, number>;
}

/** What the node's parameters may hold, beyond the spec: placeholders and modes for examples. */
export interface MapContext {
  report: MapReport;
  /** Every typeVersion of the node across its descriptions, ascending. */
  nodeVersions: number[];
  defaultVersion: number;
  legacy: boolean;
  /** Collects the source of each port function met (id → n8n's expression). */
  portSources: Map<string, string>;
}

const TYPE_MAP: Record<string, Parameter['type']> = {
  string: 'string',
  number: 'number',
  boolean: 'boolean',
  options: 'enum',
  multiOptions: 'multi_enum',
  collection: 'collection',
  fixedCollection: 'fixed_collection',
  assignmentCollection: 'assignment_collection',
  dateTime: 'datetime',
  json: 'json',
  filter: 'filter',
  resourceMapper: 'resource_mapper',
  color: 'color',
  resourceLocator: 'resource_locator',
  workflowSelector: 'resource_locator',
  agentSelector: 'resource_locator',
  credentials: 'credential',
  credentialsSelect: 'credential',
  notice: 'notice',
  callout: 'notice',
  hidden: 'hidden',
};

export const versionsOf = (node: N8nNode): number[] => [node.version].flat().sort((a, b) => a - b);
export const highestVersion = (node: N8nNode): number => Math.max(...versionsOf(node));

/** `n8n-nodes-base.gmail`: the type name workflows use. */
export const typeName = (prefix: string, node: N8nNode) => `${prefix}.${node.name}`;

export function mapNode(node: N8nNode, prefix: string, ctx: MapContext): NodeSpec {
  const subtype = typeName(prefix, node);
  const codex = node.codex ?? {};
  const subcategories = Object.values(codex.subcategories ?? {}).flatMap((v) => [v].flat());
  const inputs = ports(node.inputs, 'input');
  const outputs = ports(node.outputs, 'output', node.outputNames);
  const typeVersions = versionsOf(node);
  const parameters = withKnownChoices((node.properties ?? []).flatMap((p) => parameter(p, ctx.report, typeVersions)));
  const credentials = (node.credentials ?? []).map(credential);
  const dynamic_ports: NonNullable<NodeSpec['dynamic_ports']> = {};
  for (const side of ['inputs', 'outputs'] as const) {
    const raw = node[side];
    if (typeof raw !== 'string') continue;
    const id = portFunctionId(raw);
    ctx.portSources.set(id, raw);
    dynamic_ports[side] = id;
  }
  const actionLabels = actions(node);
  const spec: NodeSpec = {
    node_type: classify(node, inputs, outputs),
    subtype,
    version: String(highestVersion(node)),
    display_name: node.displayName,
    description: text(node.description) || node.displayName,
    aliases: [...new Set(codex.alias ?? [])],
    categories: [...new Set([...(codex.categories ?? []).map((c) => c.trim()), ...subcategories])],
    source: 'n8n',
    documentation_url: codex.resources?.primaryDocumentation?.[0]?.url ?? null,
    parameters,
    input_ports: inputs,
    output_ports: outputs,
    examples: [],
    ...(actionLabels.length > 0 ? { actions: actionLabels } : {}),
    type_versions: typeVersions,
    node_versions: ctx.nodeVersions,
    default_version: ctx.defaultVersion,
    ...(ctx.legacy ? { legacy: true } : {}),
    ...(node.hidden ? { hidden: true } : {}),
    ...(node.toolOf ? { tool_of: typeName(prefix, { ...node, name: node.toolOf }) } : {}),
    ...(node.webhooks?.length ? { has_webhooks: true } : {}),
    ...builderHints(node),
    ...(credentials.length > 0 ? { credentials } : {}),
    ...(Object.keys(dynamic_ports).length > 0 ? { dynamic_ports } : {}),
  };
  // The example uses the version n8n's editor would add, when this description covers it.
  const exampleVersion = typeVersions.includes(ctx.defaultVersion) ? ctx.defaultVersion : Math.max(...typeVersions);
  spec.examples = [exampleNode(spec, node, exampleVersion)];
  return spec;
}

/**
 * One of seed 002's eight types, by rules applied in order: triggers; tools; memory, vector stores
 * and their helpers; AI agents, chains and models; flow control; human-in-the-loop; app integrations;
 * core actions.
 */
export function classify(node: N8nNode, inputs: Port[], outputs: Port[]): NodeType {
  const categories = new Set((node.codex?.categories ?? []).map((c) => c.trim()));
  const sub = new Set(Object.values(node.codex?.subcategories ?? {}).flatMap((v) => [v].flat()));
  const outTypes = new Set(outputs.map((p) => p.type));
  if (node.group?.includes('trigger') || /Trigger$/.test(node.name)) return 'TRIGGER_NODE';
  const memorySubs = ['Memory', 'Vector Stores', 'Embeddings', 'Document Loaders', 'Text Splitters', 'Retrievers'];
  if (memorySubs.some((s) => sub.has(s))) return 'MEMORY_NODE';
  if (outTypes.has('ai_tool') || sub.has('Tools') || sub.has('Recommended Tools') || sub.has('Other Tools')) return 'TOOL_NODE';
  const memoryKinds = ['ai_memory', 'ai_vectorStore', 'ai_embedding', 'ai_document', 'ai_textSplitter', 'ai_retriever'];
  if (memoryKinds.some((k) => outTypes.has(k))) return 'MEMORY_NODE';
  if (categories.has('AI')) return 'AI_AGENT_NODE';
  if (sub.has('Flow')) return 'FLOW_NODE';
  const apps = [...categories].filter((c) => !['Core Nodes', 'HITL', 'Utility', 'Development', 'Developer Tools'].includes(c));
  if (categories.has('HITL') && apps.length === 0) return 'HUMAN_LOOP_NODE';
  if (apps.length > 0) return 'EXTERNAL_ACTION_NODE';
  if (!categories.has('Core Nodes') && (node.credentials?.length ?? 0) > 0) return 'EXTERNAL_ACTION_NODE';
  return 'ACTION_NODE';
}

/**
 * n8n's inputs/outputs: a list of connection types or port objects, or an expression that computes
 * them from parameters. From an expression, the port kinds it can produce are read out of its text
 * (the exact ports for given parameters come from its port function, src/catalog/ports).
 */
export function ports(raw: unknown, side: 'input' | 'output', names: string[] = []): Port[] {
  if (typeof raw === 'string') return expressionPorts(raw, side);
  if (!Array.isArray(raw)) return [];
  const listed = raw.map((entry, i) => {
    const o = (typeof entry === 'string' ? { type: entry } : entry) as {
      type: string;
      displayName?: string;
      required?: boolean;
      maxConnections?: number;
      filter?: { excludedNodes?: string[] };
    };
    const name = names[i] || o.displayName || (o.type === 'main' ? 'main' : o.type.replace(/^ai_/, ''));
    const p = port(name, o.type, side, o.required ?? (side === 'input' && o.type === 'main'), o.maxConnections ?? null);
    if (o.filter?.excludedNodes?.length) p.excluded_nodes = o.filter.excludedNodes;
    return p;
  });
  // Filter names a "Discarded" output it has no port for: its run data shows those items, the editor cannot wire them.
  const unwired = names.slice(raw.length);
  const last = listed.at(-1);
  if (unwired.length && last)
    last.description += `. n8n's run data also shows ${unwired.map((n) => `"${n}"`).join(', ')} items, which this node has no output to connect for`;
  return listed;
}

function expressionPorts(expression: string, side: 'input' | 'output'): Port[] {
  const found = new Map<string, Port>();
  if (/['"]main['"]/.test(expression)) found.set('main', port('main', 'main', side, false, null, true));
  for (const match of expression.matchAll(/type:\s*['"](ai_\w+)['"]/g)) {
    const type = match[1]!;
    const body = enclosingObject(expression, match.index);
    const displayName = /displayName:\s*['"]([^'"]+)['"]/.exec(body)?.[1] ?? type.replace(/^ai_/, '');
    const key = `${type}:${displayName}`;
    if (!found.has(key)) found.set(key, port(displayName, type, side, /required:\s*true/.test(body), null, true));
  }
  if (found.size === 0) found.set('main', port('main', 'main', side, false, null, true));
  return [...found.values()];
}

/** The text of the `{…}` object literal around `at`, nested objects included. */
function enclosingObject(text: string, at: number): string {
  let start = at;
  for (let depth = 0; start > 0; start--) {
    const c = text[start];
    if (c === '}') depth++;
    else if (c === '{' && depth-- === 0) break;
  }
  let end = at;
  for (let depth = 0; end < text.length; end++) {
    const c = text[end];
    if (c === '{') depth++;
    else if (c === '}' && depth-- === 0) break;
  }
  return text.slice(start, end + 1);
}

function port(name: string, type: string, side: 'input' | 'output', required: boolean, maxConnections: number | null, conditional = false): Port {
  const what = type === 'main' ? (side === 'input' ? 'Items to process' : 'Resulting items') : `${type.replace(/^ai_/, '')} connection`;
  return {
    name,
    type,
    required,
    description: conditional ? `${what} (present depending on the node's parameters)` : what,
    max_connections: maxConnections,
    data_format: type === 'main' ? { mime_type: 'application/json', schema: null, examples: null } : null,
  };
}

function credential(c: NonNullable<N8nNode['credentials']>[number]): Credential {
  return { name: c.name, required: c.required ?? false, ...(displayOptions(c.displayOptions) ? { display_options: displayOptions(c.displayOptions)! } : {}) };
}

function displayOptions(d: N8nDisplayOptions | undefined): Parameter['display_options'] | undefined {
  if (!d || (!d.show && !d.hide)) return undefined;
  return { ...(d.show ? { show: d.show } : {}), ...(d.hide ? { hide: d.hide } : {}) };
}

/** Properties whose choices are the events a trigger starts on. */
const EVENT_PROPERTIES = /^(events?|trigger|triggerOn|updates|topic)$/;

/**
 * What n8n's node panel lists under a node: the action label of every operation choice ("Send a
 * message"), and for a trigger the names of the events it starts on ("Instance Started"). Once each.
 */
function actions(node: N8nNode): string[] {
  const labels = new Set<string>();
  const trigger = node.group?.includes('trigger') || /Trigger$/.test(node.name);
  for (const p of node.properties ?? []) {
    for (const o of p.options ?? []) {
      if ('action' in o && typeof o.action === 'string') labels.add(o.action.trim());
      else if (trigger && EVENT_PROPERTIES.test(p.name) && /options/i.test(p.type) && typeof o.name === 'string') labels.add(o.name.trim());
    }
  }
  return [...labels].filter((label) => /[a-z]/i.test(label));
}

function parameter(p: N8nProperty, report: MapReport, typeVersions: number[]): Parameter[] {
  const type = p.typeOptions?.editor && p.type === 'string' ? 'code' : TYPE_MAP[p.type];
  if (!type) {
    report.droppedProperties[p.type] = (report.droppedProperties[p.type] ?? 0) + 1;
    return [];
  }
  const result: Parameter = {
    name: p.name,
    display_name: p.displayName ?? p.name,
    type,
    required: p.required ?? false,
    description: text(p.description) || p.displayName || p.name,
  };
  if (p.default !== undefined && p.default !== '' && type !== 'notice') result.default_value = p.default;
  const hint = p.builderHint?.propertyHint && hintInWorkflowJson(text(p.builderHint.propertyHint), { withoutFilterVersion: type === 'filter' });
  if (hint) result.hint = hint;
  if ((type === 'enum' || type === 'multi_enum') && p.options) {
    result.enum_values = [...new Set((p.options as N8nOption[]).map((o) => (o.value ?? o.name) as OptionValue))];
    const described = result.enum_values.map((v) =>
      choiceMeaning(
        (p.options as N8nOption[]).find((o) => (o.value ?? o.name) === v)!,
        v,
      ),
    );
    if (described.some((d) => d !== '')) result.enum_descriptions = described;
  }
  if ((type === 'enum' || type === 'multi_enum') && (p.typeOptions?.loadOptionsMethod || p.typeOptions?.loadOptions)) result.dynamic_options = true;
  if (p.typeOptions?.multipleValues) result.multiple_values = true;
  if (type === 'resource_locator' && p.modes?.length) {
    result.modes = p.modes.map((m) => m.name);
    result.locator_modes = p.modes.map(locatorMode);
  }
  if (type === 'filter' && p.typeOptions?.filter?.version !== undefined)
    result.filter_versions = typeVersions.map((v) => [v, filterVersion(p.typeOptions!.filter!.version, v)]);
  if (type === 'resource_mapper' && p.typeOptions?.resourceMapper?.mode) result.mapper_mode = p.typeOptions.resourceMapper.mode;
  const display = displayOptions(p.displayOptions);
  if (display) result.display_options = display;
  if (type === 'collection' && p.options) {
    result.options = (p.options as N8nProperty[]).flatMap((o) => parameter(o, report, typeVersions));
  } else if (type === 'fixed_collection' && p.options) {
    // Each group of a fixedCollection becomes a collection of its fields.
    result.options = (p.options as N8nOption[]).map((group) => ({
      name: group.name,
      display_name: group.displayName ?? group.name,
      type: 'collection' as const,
      required: false,
      description: group.displayName ?? group.name,
      options: (group.values ?? []).flatMap((v) => parameter(v, report, typeVersions)),
    }));
  }
  return [result];
}

/** Letters and digits, lower case: how a label and a value are compared. */
const bare = (text: string) => text.toLowerCase().replace(/[^a-z0-9]/g, '');

/**
 * What a choice does: n8n's description of it, else its label where the label says more than the
 * value ("Keep Matches" for keepMatches says nothing new; "Matching Fields" for combineByFields does),
 * and what n8n tells its own builder about it (Merge's modes).
 */
function choiceMeaning(option: N8nOption, value: OptionValue): string {
  const label = text(option.name);
  const said = text(option.description) || (bare(label) === bare(String(value)) ? '' : label);
  const hint = hintInWorkflowJson(text(option.builderHint?.propertyHint));
  return [said, hint].filter((part) => part !== '').join('. ');
}

/**
 * Choices n8n's editor loads when the node is opened (loadOptions) are not in the description, but
 * the description names some of them: the parameter's default (or the default its collection gives
 * it), and the values other parameters at its level show or hide themselves for (Merge's resolveClash:
 * "addSuffix", "preferLast"). Those are listed; dynamic_options says there may be more.
 */
function withKnownChoices(parameters: Parameter[], defaults: unknown[] = []): Parameter[] {
  for (const p of parameters) {
    const given = defaults.flatMap((d) => (d && typeof d === 'object' && !Array.isArray(d) ? [(d as Record<string, unknown>)[p.name]] : []));
    if (p.options) withKnownChoices(p.options, [p.default_value, ...given].flat());
    if (!p.dynamic_options || p.enum_values?.length) continue;
    const named = parameters.flatMap((q) =>
      [q.display_options?.show, q.display_options?.hide].flatMap((conditions) => (conditions?.[p.name] ?? []).flatMap(conditionValue)),
    );
    const known = [...new Set([p.default_value, ...given].flat().filter(isChoice).concat(named))];
    if (known.length > 0) p.enum_values = known;
  }
  return parameters;
}

const isChoice = (v: unknown): v is OptionValue => (typeof v === 'string' && v !== '') || typeof v === 'number' || typeof v === 'boolean';

/** The value a display condition tests for: itself, or what a `_cnd` compares with (`{_cnd: {not: "addSuffix"}}`). */
function conditionValue(condition: unknown): OptionValue[] {
  if (isChoice(condition)) return [condition];
  const compared = (condition as { _cnd?: { eq?: unknown; not?: unknown } } | null)?._cnd;
  return [compared?.eq, compared?.not].filter(isChoice);
}

function locatorMode(m: NonNullable<N8nProperty['modes']>[number]): LocatorMode {
  const rule = m.validation?.find((v) => v.type === 'regex')?.properties;
  return {
    name: m.name,
    ...(m.placeholder ? { placeholder: text(m.placeholder) } : {}),
    ...(rule?.regex ? { pattern: rule.regex } : {}),
    ...(rule?.errorMessage ? { error: rule.errorMessage } : {}),
  };
}

/**
 * The filter version a typeVersion runs: n8n's expression of `$nodeVersion` (`={{ $nodeVersion >= 2.2
 * ? 2 : 1 }}`), evaluated here at build time; a plain number as it is.
 */
function filterVersion(expression: unknown, typeVersion: number): number {
  if (typeof expression === 'number') return expression;
  // eslint-disable-next-line @typescript-eslint/no-implied-eval -- n8n's own expression, from its package, at build time
  const version: unknown = new Function('$nodeVersion', `return (${expressionBody(String(expression))});`)(typeVersion);
  if (typeof version !== 'number') throw new Error(`filter version ${String(expression)} gives ${String(version)} for typeVersion ${typeVersion}`);
  return version;
}

/** n8n's hints to its own AI workflow builder, in workflow JSON (builderHints.ts): when the node is the right one, and which nodes go with it. */
function builderHints(node: N8nNode): Pick<NodeSpec, 'builder_hint' | 'related_nodes'> {
  const hint = hintInWorkflowJson(text(node.builderHint?.searchHint));
  const related = (node.builderHint?.relatedNodes ?? []).map((r) => ({ subtype: r.nodeType, hint: hintInWorkflowJson(text(r.relationHint)) }));
  return { ...(hint ? { builder_hint: hint } : {}), ...(related.length > 0 ? { related_nodes: related } : {}) };
}

/** n8n descriptions carry some HTML; the catalog keeps plain text. */
function text(value: string | undefined): string {
  return (value ?? '')
    .replace(/<[^>]+>/g, '')
    .replace(/\s+/g, ' ')
    .trim();
}
