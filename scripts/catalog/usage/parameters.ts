/**
 * Which parameters real workflows set, per node type, typeVersion and (for nodes that have them)
 * resource/operation, which values they run the node's deciding choices with (its mode: Crypto's
 * action), and the configuration they most often write in the most common mode, with user data taken out. Pure:
 * the catalog's descriptions say which keys are parameters; countParameters.ts reads the workflows.
 */
import type { NodeUsage, SetCounts, VersionUsage } from '../../../src/catalog/essentials.ts';
import type { NodeSpec, OptionValue, Parameter } from '../../../src/catalog/nodeSpec.ts';
import { own } from '../../../src/lib/ownKeys.ts';
import type { NodeCatalog } from '../../../src/workflows/nodeCatalog.ts';
import { validateNode } from '../../../src/workflows/validateNode.ts';
import { visibility } from '../../../src/workflows/display.ts';
import { isExpression, isPlainObject, withDefaults } from '../../../src/workflows/values.ts';

/** A node as a workflow's JSON holds it. */
export interface UsedNode {
  type: string;
  typeVersion: number;
  parameters: Record<string, unknown>;
}

/** Per node type, per typeVersion (as text). */
export type ParameterUsage = Record<string, NodeUsage>;

/**
 * A string value (or key) is vocabulary, kept in examples, when at least this many workflows write it at
 * the same place of the same node type; rarer ones may be someone's data and become placeholders.
 */
export const VOCABULARY_WORKFLOWS = 5;
/** Lists in examples keep at most this many entries (enough to show a list, e.g. two Switch rules). */
const EXAMPLE_LIST_ENTRIES = 2;
/** Text that is someone's data or own words wherever it occurs, however many workflows write it. */
const PERSONAL = [
  /[\w.+-]+@[\w-]+\.[\w.-]+/, // e-mail addresses
  /\bhttps?:\/\//i, // URLs
  /\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b/i, // UUIDs (ids of records, webhooks, assignments)
  /\d{6,}/, // account, chat, sheet and phone numbers
  /\b[A-Za-z0-9_-]{20,}\b/, // keys and document ids
  /(\S+\s+){3}\S/, // prose (prompts, messages, questions): a builder's own text
];
/** Numbers above this may be ids or phone numbers rather than settings. */
const LARGEST_SETTING = 100_000;

/** The description parameters named `name` (one name can have several, each for other conditions). */
const named = (parameters: Parameter[] | undefined, name: string) => (parameters ?? []).filter((p) => p.name === name);

/**
 * The places a node's parameters set, as paths: top-level parameters, the fields of collections, and
 * the groups of fixed collections with their fields. Only names the description has: keys a user chose
 * (column names, header names) are never paths.
 */
export function setPaths(parameters: Parameter[], values: Record<string, unknown>): string[] {
  const paths: string[] = [];
  for (const [name, value] of Object.entries(values)) {
    const matching = named(parameters, name);
    if (matching.length === 0) continue;
    paths.push(name);
    if (!isPlainObject(value)) continue;
    const fields = matching.flatMap((p) => (p.type === 'collection' || p.type === 'fixed_collection' ? (p.options ?? []) : []));
    for (const [key, inner] of Object.entries(value)) {
      const field = named(fields, key);
      if (field.length === 0) continue;
      paths.push(`${name}.${key}`);
      if (!matching.some((p) => p.type === 'fixed_collection')) continue;
      const groupFields = field.flatMap((f) => f.options ?? []);
      const entries = Array.isArray(inner) ? inner : [inner];
      const keys = new Set(entries.filter(isPlainObject).flatMap((e) => Object.keys(e)));
      for (const k of keys) if (named(groupFields, k).length > 0) paths.push(`${name}.${key}.${k}`);
    }
  }
  return [...new Set(paths)];
}

/** `resource:operation` (or either alone) as n8n runs the node, defaults included; undefined for nodes without. */
export function operationOf(spec: NodeSpec, node: UsedNode): string | undefined {
  if (!spec.parameters.some((p) => p.name === 'operation' || p.name === 'resource')) return undefined;
  const values = withDefaults(spec.parameters, node.parameters, { typeVersion: node.typeVersion, nodeType: node.type });
  const parts = ['resource', 'operation'].map((n) => own(values, n)).filter((v): v is string => typeof v === 'string' && !v.startsWith('='));
  return parts.length > 0 ? parts.join(':') : undefined;
}

/** Where in a node's parameters a key or value sits: its keys from the top, list positions left out. */
type Place = string;

/** Each key and string value of `value` with its place, once each. */
function tokens(value: unknown, place: Place, out: Set<string>): Set<string> {
  if (Array.isArray(value)) for (const v of value) tokens(v, place, out);
  else if (isPlainObject(value)) {
    for (const [k, v] of Object.entries(value)) {
      out.add(JSON.stringify(['key', place, k]));
      tokens(v, `${place}/${k}`, out);
    }
  } else if (typeof value === 'string') out.add(JSON.stringify(['value', place, value]));
  return out;
}

/** How many workflows write each key and string value at each place, per node type: what counts as vocabulary. */
export class Vocabulary {
  private readonly counts = new Map<string, Map<string, number>>();

  /** Counts one workflow's nodes of one type (each token once per workflow). */
  add(type: string, nodes: UsedNode[]): void {
    const seen = new Set<string>();
    for (const node of nodes) tokens(node.parameters, '', seen);
    const counts = this.counts.get(type) ?? new Map<string, number>();
    this.counts.set(type, counts);
    for (const t of seen) counts.set(t, (counts.get(t) ?? 0) + 1);
  }

  has(type: string, kind: 'key' | 'value', place: Place, text: string): boolean {
    // Expressions name the builder's own fields: the shape of their data, never n8n's.
    if (PERSONAL.some((pattern) => pattern.test(text)) || text.startsWith('=')) return false;
    return (this.counts.get(type)?.get(JSON.stringify([kind, place, text])) ?? 0) >= VOCABULARY_WORKFLOWS;
  }
}

/** n8n's own words in a description: every choice and every default text of its parameters, at any depth. */
export function descriptionWords(parameters: Parameter[], words = new Set<string>()): Set<string> {
  for (const p of parameters) {
    for (const v of p.enum_values ?? []) if (typeof v === 'string') words.add(v);
    if (typeof p.default_value === 'string' && !p.default_value.startsWith('=')) words.add(p.default_value);
    descriptionWords(p.options ?? [], words);
  }
  return words;
}

/**
 * A node's parameters with user data taken out: keys and strings that are neither n8n's words (`words`,
 * see descriptionWords) nor vocabulary (see Vocabulary) become placeholders, or are dropped where they
 * are keys (a user's column names); lists keep their first entries; large numbers become 0. What is
 * left is the shape and n8n's own words.
 */
export function scrub(type: string, parameters: Record<string, unknown>, vocabulary: Vocabulary, words: Set<string>): Record<string, unknown> {
  const walk = (value: unknown, place: Place, label: string): unknown => {
    if (Array.isArray(value)) return value.slice(0, EXAMPLE_LIST_ENTRIES).map((v) => walk(v, place, label));
    if (isPlainObject(value)) {
      return Object.fromEntries(
        Object.entries(value)
          .filter(([k]) => place === '' || vocabulary.has(type, 'key', place, k))
          .map(([k, v]) => [k, walk(v, `${place}/${k}`, k)]),
      );
    }
    if (typeof value === 'string') return value === '' || words.has(value) || vocabulary.has(type, 'value', place, value) ? value : placeholder(value, label);
    if (typeof value === 'number') return Math.abs(value) > LARGEST_SETTING ? 0 : value;
    return value;
  };
  // Top-level keys are checked against the description by the caller (setPaths); here they are kept.
  return walk(parameters, '', '') as Record<string, unknown>;
}

/** What stands in for a value that may be someone's data: of its kind, so the example keeps its types. */
function placeholder(value: string, label: string): string {
  // An expression stays one (a number or a choice may be an expression, never a text), reading a field named after the parameter.
  if (value.startsWith('=')) return `={{ $json${/^[A-Za-z_$][\w$]*$/.test(label) ? `.${label}` : `[${JSON.stringify(label)}]`} }}`;
  if (/^[\w.+-]+@[\w-]+\.[\w.-]+$/.test(value)) return 'user@example.com';
  if (/^https?:\/\/\S+$/i.test(value)) return 'https://example.com';
  return `<${label}>`;
}

/** The values a node gives its switches (see switchesOf), as n8n runs it: a node's mode (Crypto's `{"action": "hash"}`). */
type Mode = Record<string, OptionValue>;

/** A node's configuration, scrubbed, with the mode it runs in. */
interface Configured {
  configuration: Record<string, unknown>;
  mode: Mode;
}

/**
 * Counts paths over workflows (each workflow once per path), and the values workflows choose for
 * each switch (each workflow once per value).
 */
class PathCounts {
  workflows = 0;
  private readonly set = new Map<string, number>();
  /** Per switch, per value (as JSON), how many workflows choose it. */
  private readonly choices = new Map<string, Map<string, number>>();
  /** Per mode (as JSON), how many workflows run in it, and their scrubbed configurations with how many workflows wrote each. */
  private readonly modes = new Map<string, { workflows: number; configurations: Map<string, number> }>();

  add(pathSets: string[][], configured: Configured[]): void {
    this.workflows++;
    for (const path of new Set(pathSets.flat())) this.set.set(path, (this.set.get(path) ?? 0) + 1);
    for (const chosen of new Set(configured.flatMap((c) => Object.entries(c.mode).map((entry) => JSON.stringify(entry))))) {
      const [name, value] = JSON.parse(chosen) as [string, OptionValue];
      const values = this.choices.get(name) ?? new Map<string, number>();
      this.choices.set(name, values.set(JSON.stringify(value), (values.get(JSON.stringify(value)) ?? 0) + 1));
    }
    for (const mode of new Set(configured.map((c) => JSON.stringify(c.mode)))) {
      const counts = this.modes.get(mode) ?? { workflows: 0, configurations: new Map<string, number>() };
      counts.workflows++;
      const written = configured.filter((c) => JSON.stringify(c.mode) === mode).map((c) => JSON.stringify(c.configuration));
      for (const c of new Set(written)) counts.configurations.set(c, (counts.configurations.get(c) ?? 0) + 1);
      this.modes.set(mode, counts);
    }
  }

  /**
   * The counts, and with `valid` the example: of the modes most workflows run in, the first with a
   * configuration `valid` accepts, its most common one (see mostCommon) with the mode written out
   * (workflows leave out a switch that keeps its default; the example says which it is).
   */
  result(valid?: (configuration: Record<string, unknown>) => boolean): SetCounts {
    const counted = [...this.set].filter(([, n]) => n > 1 || this.workflows === 1);
    const set = Object.fromEntries(counted.sort(byCount));
    const choices = Object.fromEntries(
      [...this.choices].map(([name, values]) => [name, Object.fromEntries([...values].sort(byCount).map(([value, n]) => [String(JSON.parse(value)), n]))]),
    );
    const modes = [...this.modes].sort((a, b) => b[1].workflows - a[1].workflows || (a[0] < b[0] ? -1 : 1));
    let example: Record<string, unknown> | undefined;
    for (const [text, { configurations }] of valid ? modes : []) {
      const mode = JSON.parse(text) as Mode;
      example = mostCommon(configurations, (c) => valid!({ ...mode, ...c }));
      if (example) {
        example = { ...mode, ...example };
        break;
      }
    }
    return { workflows: this.workflows, set, ...(this.choices.size > 0 ? { choices } : {}), ...(example ? { example } : {}) };
  }
}

/** Most first; ties in code-point order (the same on every machine). */
const byCount = (a: [string, number], b: [string, number]) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1);

/**
 * A description's switches: the choices (other than resource and operation, counted on their own)
 * whose value decides which other parameters apply (Crypto's action, Merge's mode and combineBy):
 * what the common mode of a node is made of.
 */
export function switchesOf(parameters: Parameter[]): Parameter[] {
  const keys = (p: Parameter) => [...Object.keys(p.display_options?.show ?? {}), ...Object.keys(p.display_options?.hide ?? {})];
  // A nested field's bare keys name its siblings; `/name` names one of the top level.
  const nested = (p: Parameter): string[] => (p.options ?? []).flatMap((o) => [...keys(o).filter((k) => k.startsWith('/')), ...nested(o)]);
  const read = new Set(parameters.flatMap((p) => [...keys(p), ...nested(p)]).map((k) => k.replace(/^\//, '')));
  return parameters.filter((p) => p.type === 'enum' && !p.dynamic_options && p.name !== 'resource' && p.name !== 'operation' && read.has(p.name));
}

/** The mode a node runs in: the value of each of its switches that applies, defaults included; expressions are no mode. */
function modeOf(spec: NodeSpec, node: UsedNode): Mode {
  const identity = { typeVersion: node.typeVersion, nodeType: node.type };
  const values = withDefaults(spec.parameters, node.parameters, identity);
  const mode: Mode = {};
  for (const p of switchesOf(spec.parameters)) {
    const value = own(values, p.name);
    if (Object.hasOwn(mode, p.name) || !['string', 'number', 'boolean'].includes(typeof value) || isExpression(value)) continue;
    if (visibility(p.display_options, { ...identity, values, root: values }) === 'shown') mode[p.name] = value as OptionValue;
  }
  return mode;
}

/** A configuration's shape: the places it sets, whatever their values. */
const shapeOf = (configuration: string) => JSON.stringify([...tokens(JSON.parse(configuration), '', new Set())].filter((t) => t.startsWith('["key"')).sort());

/**
 * The configuration real workflows write most that `valid` accepts (many public workflows are
 * templates left half-filled): the most common shape first, and of a shape the most common text; ties
 * go to the shorter, then the first in code-point order (the same on every machine).
 */
function mostCommon(configurations: Map<string, number>, valid: (configuration: Record<string, unknown>) => boolean): Record<string, unknown> | undefined {
  const shapes = new Map<string, [string, number][]>();
  for (const [c, n] of configurations) shapes.set(shapeOf(c), [...(shapes.get(shapeOf(c)) ?? []), [c, n]]);
  const order = (a: [string, number], b: [string, number]) => b[1] - a[1] || a[0].length - b[0].length || (a[0] < b[0] ? -1 : 1);
  const total = (list: [string, number][]) => list.reduce((sum, [, n]) => sum + n, 0);
  const byShape = [...shapes].sort((a, b) => order([a[0], total(a[1])], [b[0], total(b[1])]));
  for (const [, list] of byShape) {
    for (const [text] of list.sort(order)) {
      const configuration = JSON.parse(text) as Record<string, unknown>;
      if (valid(configuration)) return configuration;
    }
  }
  return undefined;
}

/**
 * Counts what the workflows' nodes set, per type, typeVersion and operation. Each workflow counts once
 * per node version and path, however many such nodes it has. Nodes of types or versions the catalog
 * does not describe are not counted.
 */
export function countParameters(workflows: UsedNode[][], catalog: NodeCatalog): ParameterUsage {
  const vocabulary = new Vocabulary();
  for (const nodes of workflows) {
    for (const [type, ofType] of groupBy(nodes, (n) => n.type)) vocabulary.add(type, ofType);
  }
  const words = new Map<NodeSpec, Set<string>>();
  const wordsOf = (spec: NodeSpec) => words.get(spec) ?? words.set(spec, descriptionWords(spec.parameters)).get(spec)!;
  const counts = new Map<string, { version: PathCounts; operations: Map<string, PathCounts> }>();
  for (const nodes of workflows) {
    const described = nodes.flatMap((node) => {
      const spec = catalog.describe(node.type, node.typeVersion);
      return spec ? [{ node, spec }] : [];
    });
    for (const [key, group] of groupBy(described, ({ node }) => JSON.stringify([node.type, node.typeVersion]))) {
      const entry = counts.get(key) ?? { version: new PathCounts(), operations: new Map() };
      counts.set(key, entry);
      const configured = group.map(({ node, spec }) => {
        const paths = setPaths(spec.parameters, node.parameters);
        const kept = Object.fromEntries(Object.entries(node.parameters).filter(([k]) => named(spec.parameters, k).length > 0));
        return { paths, configuration: scrub(node.type, kept, vocabulary, wordsOf(spec)), mode: modeOf(spec, node), operation: operationOf(spec, node) };
      });
      entry.version.add(
        configured.map((c) => c.paths),
        configured,
      );
      for (const [operation, ofOperation] of groupBy(configured, (c) => c.operation ?? '')) {
        if (!operation) continue;
        const op = entry.operations.get(operation) ?? new PathCounts();
        entry.operations.set(operation, op);
        op.add(
          ofOperation.map((c) => c.paths),
          ofOperation,
        );
      }
    }
  }
  const byType = new Map<string, [string, VersionUsage][]>();
  for (const key of [...counts.keys()].sort()) {
    const [type, typeVersion] = JSON.parse(key) as [string, number];
    const { version, operations } = counts.get(key)!;
    const valid = (parameters: Record<string, unknown>) => validateNode({ type, typeVersion, parameters }, catalog).valid;
    const result: VersionUsage = version.result(operations.size === 0 ? valid : undefined);
    if (operations.size > 0) result.operations = Object.fromEntries([...operations.keys()].sort().map((op) => [op, operations.get(op)!.result(valid)]));
    byType.set(type, [...(byType.get(type) ?? []), [String(typeVersion), result]]);
  }
  return Object.fromEntries([...byType].map(([type, versions]) => [type, Object.fromEntries(versions)]));
}

function groupBy<T>(items: T[], keyOf: (item: T) => string): Map<string, T[]> {
  const groups = new Map<string, T[]>();
  for (const item of items) {
    const key = keyOf(item);
    const list = groups.get(key) ?? [];
    list.push(item);
    groups.set(key, list);
  }
  return groups;
}

/** The nodes of a raw "nodes" array that name a type, with their typeVersion (n8n's default 1) and parameters. */
export function usedNodes(raw: unknown[]): UsedNode[] {
  return raw.flatMap((node) => {
    if (!isPlainObject(node) || typeof node.type !== 'string') return [];
    const typeVersion = typeof node.typeVersion === 'number' ? node.typeVersion : 1;
    return [{ type: node.type, typeVersion, parameters: isPlainObject(node.parameters) ? node.parameters : {} }];
  });
}
