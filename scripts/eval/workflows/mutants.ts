/**
 * Single-defect mutants of real n8n workflows, to measure what a validator catches.
 *
 * `generateMutants(workflow, oracle, options)` is pure and deterministic (seeded): for each kind it
 * makes at most one mutant, and only where the defect is genuine for that workflow. Whatever needs
 * n8n's knowledge (is this type known, its highest version, which parameters n8n flags when removed,
 * which option lists are static and displayed, how many inputs/outputs a node has for its parameters)
 * comes from a `MutationOracle`, so a test can pass a simple one.
 *
 * `loadN8nOracle()` is the real one: n8n's own logic (n8n-workflow@2.41.0's NodeHelpers:
 * getNodeParameters, getNodeParametersIssues, displayParameter, getNodeInputs/getNodeOutputs) over
 * the raw node descriptions that `npm run catalog:build` caches (.catalog/cache/<pkg>/package/dist/types/nodes.json),
 * the description picked whose `version` covers the node's typeVersion. n8n-workflow is not a
 * dependency of this project: npm i --prefix .eval/oracle --ignore-scripts n8n-workflow@2.41.0
 *
 *   npx tsx scripts/eval/workflows/mutants.ts [--corpus .eval/workflows] [--seed 1]
 *
 * Reads <corpus>/manifest.json and real/*.json (scripts/eval/workflows/corpus.ts), writes
 * <corpus>/mutants/<workflow id>--<kind>.json and <corpus>/mutants/manifest.json.
 */
import { createRequire } from 'node:module';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';

export const MUTANT_KINDS = [
  'unknown_node_type',
  'type_version_too_high',
  'dangling_connection',
  'duplicate_node_name',
  'bad_option_value',
  'broken_expression',
  'missing_node_reference',
  'required_parameter_removed',
  'ai_model_as_main',
  'agent_without_model',
  'output_index_out_of_range',
  'self_connection',
] as const;
/**
 * Defects inside the parameters that decide what a node does (issue 30). Where a kind changes a name or
 * value, half its mutants get a realistic typo (one letter off: dropped, doubled, swapped or replaced) and
 * half a made-up value, chosen by the seed.
 */
export const PARAMETER_MUTANT_KINDS = [
  'filter_operation_wrong',
  'filter_operator_type_wrong',
  'filter_combinator_wrong',
  'assignment_type_wrong',
  'fixed_collection_unknown_subfield',
  'fixed_collection_required_subfield_removed',
  'webhook_json_without_body',
  'respond_to_webhook_unreachable',
  'removed_output_wired',
] as const;
/** Defects in what flows between nodes (issue 40): the items on the way to a Respond node, the fields an earlier node puts out. */
export const FLOW_MUTANT_KINDS = ['items_run_out_before_respond', 'field_read_not_put_out'] as const;
export const ALL_MUTANT_KINDS = [...MUTANT_KINDS, ...PARAMETER_MUTANT_KINDS, ...FLOW_MUTANT_KINDS] as const;
export type MutantKind = (typeof ALL_MUTANT_KINDS)[number];

export interface WfNode {
  name: string;
  type: string;
  typeVersion?: number;
  parameters?: Record<string, unknown>;
  disabled?: boolean;
  onError?: string;
  [k: string]: unknown;
}
export interface WfConnection {
  node: string;
  type: string;
  index: number;
}
export type WfConnections = Record<string, Record<string, (WfConnection[] | null)[]>>;
export interface Wf {
  nodes: WfNode[];
  connections: WfConnections;
  [k: string]: unknown;
}

export interface Mutant {
  kind: MutantKind;
  /** The node the defect is on (for a connection: its source; for a missing model: the agent). */
  node: string;
  description: string;
  workflow: Wf;
}

/** What the generator needs to know about n8n's nodes. `undefined`: not known, so no mutant relies on it. */
export interface MutationOracle {
  /** Highest typeVersion that exists for the type; undefined when n8n has no such type. */
  maxVersion(type: string): number | undefined;
  /** Top-level parameters of the node that are set, required, displayed, have an empty default, and that n8n flags when removed. */
  removableRequired(node: WfNode): string[];
  /** Top-level `options` parameters with a static list, displayed for the node, whose current value is in the list. */
  optionParameters(node: WfNode): { name: string; values: unknown[] }[];
  /** How many `main` outputs the node has for its parameters (the error output included). */
  mainOutputs(node: WfNode): number | undefined;
  /** How many `main` inputs the node has for its parameters. */
  mainInputs(node: WfNode): number | undefined;
  /** Whether the node has a required ai_languageModel input. */
  requiresLanguageModel(node: WfNode): boolean;
  /** Whether n8n's filter code evaluates this operator (else it warns "Unknown filter parameter operator" and the condition is false). */
  filterOperatorKnown(type: string, operation: string): boolean;
  /** Whether n8n's filter code knows the combinator (else it warns "Unknown filter combinator" and the filter is false). */
  filterCombinatorKnown(combinator: string): boolean;
  /** Whether n8n's validateFieldType knows the type (an unknown one falls to its default: no conversion, no check). */
  assignmentTypeKnown(type: string): boolean;
  /** Entries of the fixed collections displayed for the node (path from `parameters`), with the sub-field names n8n reads there. */
  fixedCollectionEntries(node: WfNode): { path: ParamPath; subFields: string[] }[];
  /** Sub-fields set in a fixed-collection entry that n8n flags (getNodeParametersIssues) once removed. */
  removableRequiredSubFields(node: WfNode): { path: ParamPath; name: string }[];
  /** Changes of one boolean or options parameter (top level, or inside the `options` collection; `value` undefined: removed) that leave the node fewer main outputs, with how many. */
  outputReducingChanges(node: WfNode): { path: ParamPath; value: unknown; outputs: number }[];
}

/** A path from a node's `parameters` to a value inside them. */
export type ParamPath = (string | number)[];

export interface MutateOptions {
  seed?: number | string;
  /** Part of the seed, so each workflow gets its own choices. */
  id?: string;
  /** Default: every kind, ALL_MUTANT_KINDS. */
  kinds?: readonly MutantKind[];
}

// ---------------------------------------------------------------------------------------------
// Pure helpers

/** FNV-1a, 32 bits. */
function hash32(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

/** mulberry32: a small seeded PRNG, same sequence on every platform. */
function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const pick = <T>(items: readonly T[], r: () => number): T => items[Math.floor(r() * items.length)]!;
const clone = <T>(v: T): T => structuredClone(v);
const isObj = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const STICKY = 'n8n-nodes-base.stickyNote';

/** Every connection as a flat edge list. */
export function edges(connections: WfConnections): { from: string; type: string; output: number; to: string; toType: string; input: number }[] {
  const out: ReturnType<typeof edges> = [];
  for (const [from, byType] of Object.entries(connections ?? {})) {
    if (!isObj(byType)) continue;
    for (const [type, outputs] of Object.entries(byType)) {
      if (!Array.isArray(outputs)) continue;
      outputs.forEach((list, output) => {
        for (const c of list ?? []) if (isObj(c)) out.push({ from, type, output, to: String(c.node), toType: String(c.type), input: Number(c.index ?? 0) });
      });
    }
  }
  return out;
}

/** Add one connection from `from`'s output `output` of `type`, padding missing outputs with empty lists. */
function addConnection(wf: Wf, from: string, type: string, output: number, to: WfConnection): void {
  const byType = (wf.connections[from] ??= {});
  const outputs = (byType[type] ??= []);
  while (outputs.length <= output) outputs.push([]);
  (outputs[output] ??= []).push(to);
}

/** A node name not in the workflow. */
function freshName(wf: Wf, base: string): string {
  const names = new Set(wf.nodes.map((n) => n.name));
  let name = base;
  for (let i = 2; names.has(name); i++) name = `${base} ${i}`;
  return name;
}

/** Every string inside a value, with its path (keys may hold dots, spaces or brackets: a path is a list). */
function strings(value: unknown, path: ParamPath): { path: ParamPath; value: string }[] {
  if (typeof value === 'string') return [{ path, value }];
  const out: { path: ParamPath; value: string }[] = [];
  if (Array.isArray(value)) value.forEach((v, i) => out.push(...strings(v, [...path, i])));
  else if (isObj(value)) for (const [k, v] of Object.entries(value)) out.push(...strings(v, [...path, k]));
  return out;
}

/** Set the value at a path inside a node's parameters. */
function setAtPath(root: Record<string, unknown>, path: ParamPath, value: unknown): void {
  let at: any = root;
  for (const p of path.slice(0, -1)) at = at[p];
  at[path.at(-1)!] = value;
}

const count = (s: string, sub: string) => s.split(sub).length - 1;

/** References to other nodes inside an expression: $('Name'), $node["Name"], $node.Name, $items("Name"). */
const REFERENCE = /\$\(\s*(['"`])((?:(?!\1).)+)\1\s*\)|\$node\[\s*(['"])((?:(?!\3).)+)\3\s*\]|\$node\.([A-Za-z_$][\w$]*)|\$items\(\s*(['"])((?:(?!\6).)+)\6/g;

export function nodeReferences(expr: string): { name: string; start: number; end: number }[] {
  const out: { name: string; start: number; end: number }[] = [];
  for (const m of expr.matchAll(REFERENCE)) {
    const name = m[2] ?? m[4] ?? m[5] ?? m[7]!;
    const start = m.index! + m[0].indexOf(name, m[0].startsWith('$node.') ? 6 : 0);
    out.push({ name, start, end: start + name.length });
  }
  return out;
}

const LETTERS = 'abcdefghijklmnopqrstuvwxyz';

/** One letter off, as a person mistypes: a letter dropped, doubled, two neighbours swapped, or one replaced. */
export function letterOff(word: string, r: () => number, taken: ReadonlySet<string>): string {
  for (;;) {
    const at = Math.floor(r() * word.length);
    const letter = LETTERS[Math.floor(r() * LETTERS.length)]!;
    const edits = [
      word.slice(0, at) + word.slice(at + 1),
      word.slice(0, at + 1) + word.slice(at),
      at + 1 < word.length ? word.slice(0, at) + word[at + 1] + word[at] + word.slice(at + 2) : word.slice(0, at) + letter,
      word.slice(0, at) + letter + word.slice(at + 1),
    ];
    const typo = pick(edits, r);
    if (typo.length > 0 && typo !== word && !taken.has(typo)) return typo;
  }
}

/**
 * A wrong value for `current`: half the time one letter off, else one of `madeUp` that is not allowed
 * (`known` decides); null when neither gives one.
 */
function wrongValue(
  current: string,
  madeUp: readonly string[],
  known: (v: string) => boolean,
  r: () => number,
): { value: string; how: 'typo' | 'made up' } | null {
  const fresh = madeUp.filter((v) => v !== current && !known(v));
  if (r() < 0.5 || fresh.length === 0) {
    const taken = new Set<string>();
    for (let tries = 0; tries < 20; tries++) {
      const typo = letterOff(current, r, taken);
      if (!known(typo)) return { value: typo, how: 'typo' };
      taken.add(typo);
    }
    return fresh.length ? { value: pick(fresh, r), how: 'made up' } : null;
  }
  return { value: pick(fresh, r), how: 'made up' };
}

/** The value at a path inside a node's parameters. */
function atPath(root: unknown, path: ParamPath): unknown {
  let at: unknown = root;
  for (const k of path) at = isObj(at) || Array.isArray(at) ? (at as any)[k] : undefined;
  return at;
}
const showPath = (path: ParamPath) => path.map((k) => (typeof k === 'number' ? `[${k}]` : `.${k}`)).join('');

/** Filter values (n8n's FilterValue: `conditions` with `operator`s and a `combinator`) anywhere in a node's parameters. */
function filterValues(
  parameters: Record<string, unknown>,
): { path: ParamPath; value: { conditions: { operator: { type: string; operation: string } }[]; combinator: unknown } }[] {
  const out: ReturnType<typeof filterValues> = [];
  const walk = (v: unknown, path: ParamPath) => {
    if (Array.isArray(v)) v.forEach((x, i) => walk(x, [...path, i]));
    else if (isObj(v)) {
      if (
        Array.isArray(v.conditions) &&
        'combinator' in v &&
        v.conditions.every((c) => isObj(c) && isObj(c.operator) && typeof c.operator.type === 'string' && typeof c.operator.operation === 'string')
      )
        out.push({ path, value: v as any });
      else for (const [k, x] of Object.entries(v)) walk(x, [...path, k]);
    }
  };
  walk(parameters, []);
  return out;
}

/** Assignments (Edit Fields' assignmentCollection entries: name, value, type) anywhere in a node's parameters. */
function assignments(parameters: Record<string, unknown>): { path: ParamPath; type: string; name: string }[] {
  const out: ReturnType<typeof assignments> = [];
  const walk = (v: unknown, path: ParamPath) => {
    if (Array.isArray(v)) v.forEach((x, i) => walk(x, [...path, i]));
    else if (isObj(v)) {
      if (Array.isArray(v.assignments))
        v.assignments.forEach((a, i) => {
          if (isObj(a) && typeof a.type === 'string' && typeof a.name === 'string' && 'value' in a)
            out.push({ path: [...path, 'assignments', i], type: a.type, name: a.name });
        });
      else for (const [k, x] of Object.entries(v)) walk(x, [...path, k]);
    }
  };
  walk(parameters, []);
  return out;
}

const WEBHOOK = 'n8n-nodes-base.webhook';
const RESPOND = 'n8n-nodes-base.respondToWebhook';
/** What n8n's Webhook node puts in an item's json (its webhook method); `body` holds the request's fields. */
const WEBHOOK_ITEM_FIELDS = new Set(['headers', 'params', 'query', 'body', 'webhookUrl', 'executionMode']);
const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** A pattern for another node's item json in an expression: `$('Name').item.json` (or first(), last()), `$node["Name"].json`. */
const namedItemJson = (name: string) =>
  `\\$\\(\\s*(?<q1>['"\`])${escapeRegExp(name)}\\k<q1>\\s*\\)\\.(?:item|first\\(\\)|last\\(\\))\\.json|\\$node\\[\\s*(?<q2>['"])${escapeRegExp(name)}\\k<q2>\\s*\\]\\.json`;

/** Names of the nodes reachable from `start` over main connections. */
function reachable(wf: Wf, start: string): Set<string> {
  const seen = new Set<string>();
  const next = [start];
  const out = edges(wf.connections).filter((e) => e.type === 'main');
  while (next.length) {
    const at = next.pop()!;
    for (const e of out) {
      if (e.from !== at || seen.has(e.to)) continue;
      seen.add(e.to);
      next.push(e.to);
    }
  }
  return seen;
}

// ---------------------------------------------------------------------------------------------
// The generator

export function generateMutants(original: Wf, oracle: MutationOracle, options: MutateOptions = {}): Mutant[] {
  const kinds = options.kinds ?? ALL_MUTANT_KINDS;
  const mutants: Mutant[] = [];
  for (const kind of kinds) {
    const r = rng(hash32(`${options.seed ?? 1}:${options.id ?? ''}:${kind}`));
    const m = MAKERS[kind](original, oracle, r);
    if (m) mutants.push({ kind, ...m });
  }
  return mutants;
}

type Maker = (wf: Wf, oracle: MutationOracle, r: () => number) => Omit<Mutant, 'kind'> | null;

/** Nodes a defect may be put on: not sticky notes, not disabled. */
const live = (wf: Wf) => wf.nodes.map((node, i) => ({ node, i })).filter(({ node }) => node.type !== STICKY && node.disabled !== true);

/** Proposed wrong values; the oracle keeps only those n8n does not know where the mutant goes. */
const NO_SUCH_TYPE = 'noSuchOperatorType';
const OPERATIONS_MADE_UP = [
  'contains',
  'notContains',
  'gt',
  'lt',
  'after',
  'before',
  'lengthEquals',
  'true',
  'regex',
  'equal',
  'isEqual',
  'greaterThan',
  'matches',
  'between',
  'is',
  'includes',
];
const TYPES_MADE_UP = ['text', 'integer', 'date', 'bool', 'list', 'json', 'float', 'str', 'int', 'any'];
const COMBINATORS_MADE_UP = ['all', 'any', 'AND', 'OR', 'both', 'either', 'xor', '&&'];
const ASSIGNMENT_TYPES_MADE_UP = ['text', 'integer', 'float', 'date', 'json', 'list', 'bool', 'int', 'str', 'dict'];
const SUBFIELDS_MADE_UP = ['name', 'value', 'key', 'field', 'label', 'data', 'type', 'path', 'text', 'column', 'property'];

/**
 * Every filter condition of the enabled nodes whose operator n8n's filter code evaluates by its type:
 * exists / notExists are evaluated whatever the type, so a wrong type or operation there changes nothing.
 */
function typedConditions(wf: Wf, oracle: MutationOracle) {
  return live(wf).flatMap(({ node, i }) =>
    filterValues(node.parameters ?? {}).flatMap((f) =>
      f.value.conditions
        .map((c, ci) => ({ node, i, path: [...f.path, 'conditions', ci, 'operator'], op: c.operator }))
        .filter((c) => oracle.filterOperatorKnown(c.op.type, c.op.operation) && !oracle.filterOperatorKnown(NO_SUCH_TYPE, c.op.operation)),
    ),
  );
}

const MAKERS: Record<MutantKind, Maker> = {
  unknown_node_type(wf, oracle, r) {
    const candidates = live(wf).filter(({ node }) => oracle.maxVersion(node.type) !== undefined);
    if (candidates.length === 0) return null;
    const { node, i } = pick(candidates, r);
    const dot = node.type.lastIndexOf('.');
    let type: string;
    for (let n = Math.floor(r() * 90) + 10; ; n++) {
      type = `${node.type.slice(0, dot + 1)}${node.type.slice(dot + 1)}Zq${n}`;
      if (oracle.maxVersion(type) === undefined) break;
    }
    const workflow = clone(wf);
    workflow.nodes[i]!.type = type;
    return { node: node.name, description: `type ${node.type} → ${type} (no such node type)`, workflow };
  },

  type_version_too_high(wf, oracle, r) {
    const candidates = live(wf).filter(({ node }) => oracle.maxVersion(node.type) !== undefined);
    if (candidates.length === 0) return null;
    const { node, i } = pick(candidates, r);
    const max = oracle.maxVersion(node.type)!;
    const version = Math.floor(max) + 1;
    const workflow = clone(wf);
    workflow.nodes[i]!.typeVersion = version;
    return { node: node.name, description: `typeVersion ${node.typeVersion ?? 1} → ${version} (highest ${node.type} version is ${max})`, workflow };
  },

  dangling_connection(wf, oracle, r) {
    const candidates = live(wf).filter(({ node }) => (oracle.mainOutputs(node) ?? 0) >= 1);
    if (candidates.length === 0) return null;
    const { node } = pick(candidates, r);
    const missing = freshName(wf, 'Missing Node');
    const workflow = clone(wf);
    addConnection(workflow, node.name, 'main', 0, { node: missing, type: 'main', index: 0 });
    return { node: node.name, description: `connection added from ${node.name} output 0 to "${missing}", which is not in the workflow`, workflow };
  },

  duplicate_node_name(wf, _oracle, r) {
    const candidates = live(wf);
    if (candidates.length === 0) return null;
    const { node, i } = pick(candidates, r);
    const workflow = clone(wf);
    const copy = clone(node);
    if (typeof copy.id === 'string') copy.id = `${copy.id.slice(0, -4)}dup${Math.floor(r() * 10)}`;
    if (Array.isArray(copy.position)) copy.position = [Number(copy.position[0]) + 200, Number(copy.position[1]) + 200];
    workflow.nodes.splice(i + 1, 0, copy);
    return { node: node.name, description: `a second node named "${node.name}" added (a copy of it)`, workflow };
  },

  bad_option_value(wf, oracle, r) {
    const candidates = live(wf).flatMap(({ node, i }) => oracle.optionParameters(node).map((p) => ({ node, i, p })));
    if (candidates.length === 0) return null;
    const { node, i, p } = pick(candidates, r);
    let value = 'notAnOption';
    while (p.values.includes(value)) value += 'X';
    const workflow = clone(wf);
    const before = node.parameters?.[p.name];
    (workflow.nodes[i]!.parameters ??= {})[p.name] = value;
    return {
      node: node.name,
      description: `parameter ${p.name}: ${before === undefined ? '(default)' : JSON.stringify(before)} → "${value}" (allowed: ${p.values.map((v) => JSON.stringify(v)).join(', ')})`,
      workflow,
    };
  },

  broken_expression(wf, _oracle, r) {
    const candidates = live(wf).flatMap(({ node, i }) =>
      strings(node.parameters ?? {}, [])
        .filter((s) => s.value.startsWith('=') && s.value.includes('{{') && s.value.includes('}}') && count(s.value, '{{') === count(s.value, '}}'))
        .map((s) => ({ node, i, s })),
    );
    if (candidates.length === 0) return null;
    const { node, i, s } = pick(candidates, r);
    const at = s.value.lastIndexOf('}}');
    const broken = s.value.slice(0, at) + s.value.slice(at + 2);
    const workflow = clone(wf);
    setAtPath(workflow.nodes[i]!.parameters!, s.path, broken);
    return { node: node.name, description: `parameters${showPath(s.path)}: last "}}" removed, leaving an unclosed "{{"`, workflow };
  },

  missing_node_reference(wf, _oracle, r) {
    const names = new Set(wf.nodes.map((n) => n.name));
    const candidates = live(wf).flatMap(({ node, i }) =>
      strings(node.parameters ?? {}, [])
        .filter((s) => s.value.startsWith('='))
        .flatMap((s) =>
          nodeReferences(s.value)
            .filter((ref) => names.has(ref.name))
            .map((ref) => ({ node, i, s, ref })),
        ),
    );
    if (candidates.length === 0) return null;
    const { node, i, s, ref } = pick(candidates, r);
    // Kept a valid identifier for $node.Name references.
    const missing = s.value.slice(ref.start - 6, ref.start) === '$node.' ? freshName(wf, 'MissingNode').replace(/\s/g, '') : freshName(wf, 'Missing Node');
    const workflow = clone(wf);
    setAtPath(workflow.nodes[i]!.parameters!, s.path, s.value.slice(0, ref.start) + missing + s.value.slice(ref.end));
    return { node: node.name, description: `parameters${showPath(s.path)}: reference to "${ref.name}" → "${missing}", which is not in the workflow`, workflow };
  },

  required_parameter_removed(wf, oracle, r) {
    const candidates = live(wf).flatMap(({ node, i }) => oracle.removableRequired(node).map((name) => ({ node, i, name })));
    if (candidates.length === 0) return null;
    const { node, i, name } = pick(candidates, r);
    const workflow = clone(wf);
    delete workflow.nodes[i]!.parameters![name];
    return { node: node.name, description: `required parameter ${name} removed (was ${JSON.stringify(node.parameters?.[name])?.slice(0, 80)})`, workflow };
  },

  ai_model_as_main(wf, oracle, r) {
    const byName = new Map(wf.nodes.map((n) => [n.name, n]));
    const candidates = edges(wf.connections).filter(
      (e) => e.type === 'ai_languageModel' && byName.has(e.from) && byName.has(e.to) && oracle.mainOutputs(byName.get(e.from)!) === 0,
    );
    if (candidates.length === 0) return null;
    const e = pick(candidates, r);
    const workflow = clone(wf);
    const list = workflow.connections[e.from]!.ai_languageModel![e.output]!;
    list.splice(
      list.findIndex((c) => c.node === e.to && c.type === e.toType && c.index === e.input),
      1,
    );
    if (workflow.connections[e.from]!.ai_languageModel!.every((l) => !l || l.length === 0)) delete workflow.connections[e.from]!.ai_languageModel;
    addConnection(workflow, e.from, 'main', 0, { node: e.to, type: 'main', index: 0 });
    return {
      node: e.from,
      description: `language model ${e.from} → ${e.to} connected as main instead of ai_languageModel (the model has no main output)`,
      workflow,
    };
  },

  agent_without_model(wf, oracle, r) {
    const byName = new Map(wf.nodes.map((n) => [n.name, n]));
    const fed = [
      ...new Set(
        edges(wf.connections)
          .filter((e) => e.type === 'ai_languageModel' && byName.has(e.from))
          .map((e) => e.to),
      ),
    ];
    const candidates = fed.filter((name) => byName.has(name) && byName.get(name)!.disabled !== true && oracle.requiresLanguageModel(byName.get(name)!));
    if (candidates.length === 0) return null;
    const target = pick(candidates.sort(), r);
    const workflow = clone(wf);
    const removed: string[] = [];
    for (const [from, byType] of Object.entries(workflow.connections)) {
      const outputs = byType.ai_languageModel;
      if (!outputs) continue;
      outputs.forEach((list, o) => {
        if (!list) return;
        const kept = list.filter((c) => c.node !== target);
        if (kept.length !== list.length) removed.push(from);
        outputs[o] = kept;
      });
      if (outputs.every((l) => !l || l.length === 0)) delete byType.ai_languageModel;
      if (Object.keys(byType).length === 0) delete workflow.connections[from];
    }
    return { node: target, description: `language model connection(s) from ${removed.join(', ')} to ${target} removed; ${target} requires a model`, workflow };
  },

  output_index_out_of_range(wf, oracle, r) {
    const candidates = live(wf).filter(({ node }) => {
      const n = oracle.mainOutputs(node);
      return n !== undefined && n >= 1 && (wf.connections[node.name]?.main?.length ?? 0) <= n;
    });
    if (candidates.length === 0) return null;
    const { node } = pick(candidates, r);
    const outputs = oracle.mainOutputs(node)!;
    const existing = edges(wf.connections)
      .filter((e) => e.from === node.name && e.type === 'main')
      .map((e) => e.to);
    const others = live(wf)
      .filter(({ node: n }) => n.name !== node.name && (oracle.mainInputs(n) ?? 0) >= 1)
      .map(({ node: n }) => n.name);
    const targets = existing.length > 0 ? existing : others;
    if (targets.length === 0) return null;
    const to = pick(targets, r);
    const workflow = clone(wf);
    addConnection(workflow, node.name, 'main', outputs, { node: to, type: 'main', index: 0 });
    return {
      node: node.name,
      description: `connection from ${node.name} output ${outputs} (it has ${outputs} main output${outputs === 1 ? '' : 's'}: 0..${outputs - 1}) to ${to}`,
      workflow,
    };
  },

  self_connection(wf, oracle, r) {
    const candidates = live(wf).filter(({ node }) => (oracle.mainOutputs(node) ?? 0) >= 1 && (oracle.mainInputs(node) ?? 0) >= 1);
    if (candidates.length === 0) return null;
    const { node } = pick(candidates, r);
    const workflow = clone(wf);
    addConnection(workflow, node.name, 'main', 0, { node: node.name, type: 'main', index: 0 });
    return { node: node.name, description: `${node.name} output 0 connected to its own input 0`, workflow };
  },

  /**
   * A filter condition's operation (IF v2+, Filter v2+, Switch v3 rules, any FilterValue) set to one n8n's
   * filter code has no case for under its operator type: executeFilterCondition warns and answers false.
   * Conditions whose operation is evaluated whatever the type (exists, notExists) are left alone.
   */
  filter_operation_wrong(wf, oracle, r) {
    const candidates = typedConditions(wf, oracle);
    if (candidates.length === 0) return null;
    const { node, i, path, op } = pick(candidates, r);
    const wrong = wrongValue(op.operation, OPERATIONS_MADE_UP, (v) => oracle.filterOperatorKnown(op.type, v), r);
    if (!wrong) return null;
    const workflow = clone(wf);
    (atPath(workflow.nodes[i]!.parameters, path) as Record<string, unknown>).operation = wrong.value;
    return {
      node: node.name,
      description: `parameters${showPath(path)}.operation: "${op.operation}" → "${wrong.value}" (${wrong.how}; n8n's filter has no ${op.type} operation of that name)`,
      workflow,
    };
  },

  /** A condition's operator type set to one under which n8n's filter code has no such operation (same oracle). */
  filter_operator_type_wrong(wf, oracle, r) {
    const candidates = typedConditions(wf, oracle);
    if (candidates.length === 0) return null;
    const { node, i, path, op } = pick(candidates, r);
    const wrong = wrongValue(op.type, TYPES_MADE_UP, (v) => oracle.filterOperatorKnown(v, op.operation), r);
    if (!wrong) return null;
    const workflow = clone(wf);
    const operator = atPath(workflow.nodes[i]!.parameters, path) as Record<string, unknown>;
    operator.type = wrong.value;
    return {
      node: node.name,
      description: `parameters${showPath(path)}.type: "${op.type}" → "${wrong.value}" (${wrong.how}; n8n's filter evaluates no "${wrong.value}:${op.operation}")`,
      workflow,
    };
  },

  /** A filter's combinator set to neither "and" nor "or": executeFilter warns and answers false for every item. */
  filter_combinator_wrong(wf, oracle, r) {
    const candidates = live(wf).flatMap(({ node, i }) =>
      filterValues(node.parameters ?? {})
        .filter((f) => typeof f.value.combinator === 'string' && oracle.filterCombinatorKnown(f.value.combinator))
        .map((f) => ({ node, i, f })),
    );
    if (candidates.length === 0) return null;
    const { node, i, f } = pick(candidates, r);
    const before = f.value.combinator as string;
    const wrong = wrongValue(before, COMBINATORS_MADE_UP, (v) => oracle.filterCombinatorKnown(v), r);
    if (!wrong) return null;
    const workflow = clone(wf);
    (atPath(workflow.nodes[i]!.parameters, f.path) as Record<string, unknown>).combinator = wrong.value;
    return {
      node: node.name,
      description: `parameters${showPath([...f.path, 'combinator'])}: "${before}" → "${wrong.value}" (${wrong.how}; n8n's filter knows "and" and "or")`,
      workflow,
    };
  },

  /**
   * An assignment's type (Edit Fields 3.3+, assignmentCollection) set to one validateFieldType does not
   * know: n8n neither converts nor checks the value, so "12.5" stays text where a number was meant.
   */
  assignment_type_wrong(wf, oracle, r) {
    const candidates = live(wf).flatMap(({ node, i }) =>
      assignments(node.parameters ?? {})
        .filter((a) => oracle.assignmentTypeKnown(a.type))
        .map((a) => ({ node, i, a })),
    );
    if (candidates.length === 0) return null;
    const { node, i, a } = pick(candidates, r);
    const wrong = wrongValue(a.type, ASSIGNMENT_TYPES_MADE_UP, (v) => oracle.assignmentTypeKnown(v), r);
    if (!wrong) return null;
    const workflow = clone(wf);
    (atPath(workflow.nodes[i]!.parameters, a.path) as Record<string, unknown>).type = wrong.value;
    return {
      node: node.name,
      description: `parameters${showPath(a.path)} ("${a.name}").type: "${a.type}" → "${wrong.value}" (${wrong.how}; n8n's validateFieldType neither converts nor checks it)`,
      workflow,
    };
  },

  /**
   * A sub-field of a fixed-collection entry renamed to a name its option does not list: n8n's
   * getNodeParameters (which the Workflow runs on every node) keeps only the listed ones, so the value is lost.
   */
  fixed_collection_unknown_subfield(wf, oracle, r) {
    const candidates = live(wf).flatMap(({ node, i }) =>
      oracle.fixedCollectionEntries(node).flatMap((e) => {
        const entry = atPath(node.parameters, e.path);
        return isObj(entry)
          ? Object.keys(entry)
              .filter((k) => e.subFields.includes(k))
              .map((key) => ({ node, i, e, key }))
          : [];
      }),
    );
    if (candidates.length === 0) return null;
    const { node, i, e, key } = pick(candidates, r);
    const known = new Set(e.subFields);
    const wrong = wrongValue(key, SUBFIELDS_MADE_UP, (v) => known.has(v), r);
    if (!wrong) return null;
    const workflow = clone(wf);
    const entry = atPath(workflow.nodes[i]!.parameters, e.path) as Record<string, unknown>;
    // Renamed in place, the other keys keep their order.
    const renamed = Object.fromEntries(Object.entries(entry).map(([k, v]) => [k === key ? wrong.value : k, v]));
    setAtPath(workflow.nodes[i]!.parameters!, e.path, renamed);
    return {
      node: node.name,
      description: `parameters${showPath(e.path)}: sub-field "${key}" → "${wrong.value}" (${wrong.how}; n8n reads ${e.subFields.map((f) => `"${f}"`).join(', ')} there and drops the rest)`,
      workflow,
    };
  },

  /** A set sub-field of a fixed-collection entry removed where getNodeParametersIssues then flags the node. */
  fixed_collection_required_subfield_removed(wf, oracle, r) {
    const candidates = live(wf).flatMap(({ node, i }) => oracle.removableRequiredSubFields(node).map((s) => ({ node, i, s })));
    if (candidates.length === 0) return null;
    const { node, i, s } = pick(candidates, r);
    const workflow = clone(wf);
    const entry = atPath(workflow.nodes[i]!.parameters, s.path) as Record<string, unknown>;
    const before = entry[s.name];
    delete entry[s.name];
    return {
      node: node.name,
      description: `parameters${showPath(s.path)}: required sub-field "${s.name}" removed (was ${JSON.stringify(before)?.slice(0, 80)})`,
      workflow,
    };
  },

  /**
   * No oracle: the rule is the Webhook node's own output (its webhook method puts the request's fields
   * under `body`, beside headers, params, query, webhookUrl and executionMode, unless binaryData is on).
   * ".body" dropped from a read of a body field: `$json` in a node whose every main input is the Webhook,
   * or `$('Webhook').item|first()|last().json` / `$node["Webhook"].json` anywhere.
   */
  webhook_json_without_body(wf, _oracle, r) {
    const incoming = edges(wf.connections).filter((e) => e.type === 'main');
    const webhooks = live(wf).filter(({ node }) => node.type === WEBHOOK && !(isObj(node.parameters?.options) && node.parameters.options.binaryData === true));
    const candidates = webhooks.flatMap(({ node: hook }) => {
      // Right after the Webhook (every main input from it), $json is its item; further on, only $('Webhook') is.
      const next = new Set(incoming.filter((e) => e.from === hook.name).map((e) => e.to));
      const onlyFromHook = (name: string) => next.has(name) && incoming.filter((e) => e.to === name).every((e) => e.from === hook.name);
      const named = namedItemJson(hook.name);
      // $('Webhook') names the Webhook's item wherever it is read, connected or not.
      return live(wf).flatMap(({ node, i }) => {
        const prefix = onlyFromHook(node.name) ? `\\$json|${named}` : named;
        const pattern = new RegExp(
          `(?<![\\w$])(?<prefix>${prefix})(?<body>\\.body|\\[\\s*(?<q3>['"])body\\k<q3>\\s*\\])(?:\\.(?<dot>[A-Za-z_$][\\w$]*)|\\[\\s*(?<q4>['"])(?<bracket>(?:(?!\\k<q4>).)+)\\k<q4>\\s*\\])`,
          'g',
        );
        return strings(node.parameters ?? {}, [])
          .filter((s) => s.value.startsWith('='))
          .flatMap((s) =>
            [...s.value.matchAll(pattern)]
              .filter((m) => !WEBHOOK_ITEM_FIELDS.has(m.groups!.dot ?? m.groups!.bracket!))
              .map((m) => ({
                hook: hook.name,
                node,
                i,
                s,
                at: m.index! + m.groups!.prefix!.length,
                body: m.groups!.body!,
                field: m.groups!.dot ?? m.groups!.bracket!,
              })),
          );
      });
    });
    if (candidates.length === 0) return null;
    const { hook, node, i, s, at, body, field } = pick(candidates, r);
    const workflow = clone(wf);
    setAtPath(workflow.nodes[i]!.parameters!, s.path, s.value.slice(0, at) + s.value.slice(at + body.length));
    return {
      node: node.name,
      description: `parameters${showPath(s.path)}: "${body}" dropped before "${field}": ${hook}'s item has ${field} under body, not at the top`,
      workflow,
    };
  },

  /**
   * No oracle: the rule is n8n's execution order (a node runs only when an item reaches it). A Respond to
   * Webhook that a Webhook in responseNode mode reaches loses every main connection into it.
   */
  respond_to_webhook_unreachable(wf, _oracle, r) {
    const byName = new Map(wf.nodes.map((n) => [n.name, n]));
    const candidates = live(wf)
      .filter(({ node }) => node.type === WEBHOOK && node.parameters?.responseMode === 'responseNode')
      .flatMap(({ node }) =>
        [...reachable(wf, node.name)]
          .filter((name) => byName.get(name)?.type === RESPOND && byName.get(name)!.disabled !== true)
          .map((respond) => ({ hook: node.name, respond })),
      );
    if (candidates.length === 0) return null;
    const { hook, respond } = pick(candidates, r);
    const workflow = clone(wf);
    const cut: string[] = [];
    for (const [from, byType] of Object.entries(workflow.connections)) {
      const outputs = byType.main;
      if (!outputs) continue;
      outputs.forEach((list, o) => {
        if (!list) return;
        const kept = list.filter((c) => c.node !== respond);
        if (kept.length !== list.length) cut.push(`${from}[${o}]`);
        outputs[o] = kept;
      });
    }
    return {
      node: respond,
      description: `main connection(s) into ${respond} removed (from ${cut.join(', ')}): no path reaches it, though ${hook} waits for a Respond to Webhook node`,
      workflow,
    };
  },

  /**
   * No oracle: the rule is n8n's execution order (a node given no items does not run, nor anything after
   * it). A node that can put out no items put between a Webhook in responseNode mode (one main output)
   * and everything after it: a Filter passing only requests with a body or a JSON content type, or a
   * Split Out of a list in the request (all other fields kept, so what later nodes read stays): a
   * request it drops, or an empty list, reaches no Respond to Webhook node.
   */
  items_run_out_before_respond(wf, _oracle, r) {
    const byName = new Map(wf.nodes.map((n) => [n.name, n]));
    const out = edges(wf.connections).filter((e) => e.type === 'main');
    const hooks = live(wf).filter(
      ({ node }) =>
        node.type === WEBHOOK &&
        node.parameters?.responseMode === 'responseNode' &&
        out.some((e) => e.from === node.name) &&
        out.every((e) => e.from !== node.name || e.output === 0) &&
        [...reachable(wf, node.name)].some((name) => byName.get(name)?.type === RESPOND && byName.get(name)!.disabled !== true),
    );
    if (hooks.length === 0) return null;
    const { node: hook } = pick(hooks, r);
    const workflow = clone(wf);
    const splits = r() < 0.5;
    const name = freshName(workflow, splits ? 'Each entry' : 'Only with a body');
    const condition = pick(
      [
        { leftValue: '={{ $json.body }}', rightValue: '', operator: { type: 'object', operation: 'notEmpty', singleValue: true } },
        { leftValue: "={{ $json.headers['content-type'] }}", rightValue: 'json', operator: { type: 'string', operation: 'contains' } },
      ],
      r,
    );
    const list = pick(['body.items', 'body.entries', 'body.records'], r);
    const at = Array.isArray(hook.position) ? (hook.position as number[]) : [0, 0];
    workflow.nodes.push({
      id: `mutant-${name.replace(/\W/g, '-').toLowerCase()}`,
      name,
      position: [at[0]! + 100, at[1]! + 100],
      ...(splits
        ? { type: 'n8n-nodes-base.splitOut', typeVersion: 1, parameters: { fieldToSplitOut: list, include: 'allOtherFields', options: {} } }
        : {
            type: 'n8n-nodes-base.filter',
            typeVersion: 2.2,
            parameters: {
              conditions: {
                options: { caseSensitive: true, leftValue: '', typeValidation: 'strict', version: 2 },
                conditions: [{ id: 'b7c1e2d4-0000-4000-8000-000000000040', ...condition }],
                combinator: 'and',
              },
              options: {},
            },
          }),
    });
    workflow.connections[name] = { main: workflow.connections[hook.name]!.main ?? [] };
    workflow.connections[hook.name] = { ...workflow.connections[hook.name], main: [[{ node: name, type: 'main', index: 0 }]] };
    const what = splits ? `a Split Out of ${list}` : `a Filter (${condition.leftValue} ${condition.operator.operation})`;
    return {
      node: name,
      description: `${what} put between ${hook.name} (responseNode) and the nodes after it: ${splits ? 'an empty or missing list' : 'a request it drops'} reaches no Respond to Webhook node`,
      workflow,
    };
  },

  /**
   * No oracle: the rule is Edit Fields' source (from 3.3 it puts out only the fields it assigns, unless
   * includeOtherFields; the old Set with keepOnlySet). A read of an assigned field from that node's
   * items (`$json.x` in a node it alone feeds, `$('Set').item.json.x` anywhere) changed to a field it
   * does not put out: one letter off, or, right after a Webhook, the request's field the Set dropped
   * (`$json.body.x`).
   */
  field_read_not_put_out(wf, _oracle, r) {
    const incoming = edges(wf.connections).filter((e) => e.type === 'main');
    const byName = new Map(wf.nodes.map((n) => [n.name, n]));
    const candidates = live(wf).flatMap(({ node: set }) => {
      const fields = onlyFieldsSet(set);
      if (!fields) return [];
      const parents = incoming.filter((e) => e.to === set.name).map((e) => byName.get(e.from));
      const afterWebhook = parents.length > 0 && parents.every((p) => p?.type === WEBHOOK);
      const next = new Set(incoming.filter((e) => e.from === set.name).map((e) => e.to));
      const onlyFromSet = (name: string) => next.has(name) && incoming.filter((e) => e.to === name).every((e) => e.from === set.name);
      const named = namedItemJson(set.name);
      return live(wf).flatMap(({ node, i }) => {
        const prefix = onlyFromSet(node.name) ? `\\$json|${named}` : named;
        const pattern = new RegExp(`(?<![\\w$])(?<prefix>${prefix})\\.(?<field>[A-Za-z_$][\\w$]*)(?![\\w$(])`, 'g');
        return strings(node.parameters ?? {}, [])
          .filter((s) => s.value.startsWith('='))
          .flatMap((s) =>
            [...s.value.matchAll(pattern)]
              .filter((m) => fields.has(m.groups!.field!))
              .map((m) => ({ set, fields, afterWebhook, node, i, s, at: m.index! + m.groups!.prefix!.length + 1, field: m.groups!.field! })),
          );
      });
    });
    if (candidates.length === 0) return null;
    const { set, fields, afterWebhook, node, i, s, at, field } = pick(candidates, r);
    const instead = afterWebhook && r() < 0.5 ? `body.${field}` : letterOff(field, r, fields);
    const workflow = clone(wf);
    setAtPath(workflow.nodes[i]!.parameters!, s.path, s.value.slice(0, at) + instead + s.value.slice(at + field.length));
    return {
      node: node.name,
      description: `parameters${showPath(s.path)}: reads ${instead} where it read ${field}: ${set.name} puts out only ${[...fields].join(', ')}`,
      workflow,
    };
  },

  /**
   * A boolean or options parameter (top level or in `options`) changed so that getNodeOutputs gives the
   * node fewer main outputs (Switch's fallback output, Respond to Webhook's response output, a Text
   * Classifier's "other", a Webhook's second method…) while a connection from a removed output stays.
   */
  removed_output_wired(wf, oracle, r) {
    const out = edges(wf.connections).filter((e) => e.type === 'main');
    const changes = live(wf)
      .filter(({ node }) => node.onError !== 'continueErrorOutput')
      .flatMap(({ node, i }) =>
        oracle.outputReducingChanges(node).map((c) => ({ node, i, c, cut: out.filter((e) => e.from === node.name && e.output >= c.outputs) })),
      );
    if (changes.length === 0) return null;
    // Where the output to be removed is wired already, only the option changes; where it is not, it is
    // first wired (to a node this one already feeds, else to any node with an input), as a builder does
    // who connects the fallback output before turning the option off.
    const wired = changes.filter((c) => c.cut.length > 0);
    const { node, i, c, cut } = pick(wired.length ? wired : changes, r);
    const workflow = clone(wf);
    if (cut.length === 0) {
      const fed = out.filter((e) => e.from === node.name).map((e) => e.to);
      const targets = fed.length
        ? fed
        : live(wf)
            .filter(({ node: n }) => n.name !== node.name && (oracle.mainInputs(n) ?? 0) >= 1)
            .map(({ node: n }) => n.name);
      if (targets.length === 0) return null;
      const to = pick(targets, r);
      addConnection(workflow, node.name, 'main', c.outputs, { node: to, type: 'main', index: 0 });
      cut.push({ from: node.name, type: 'main', output: c.outputs, to, toType: 'main', input: 0 });
    }
    const params = (workflow.nodes[i]!.parameters ??= {});
    const before = atPath(params, c.path);
    if (c.value === undefined) delete (atPath(params, c.path.slice(0, -1)) as Record<string, unknown>)[c.path.at(-1)!];
    else if (c.path.length > 1 && !isObj(atPath(params, c.path.slice(0, -1)))) params[c.path[0] as string] = { [c.path[1]!]: c.value };
    else setAtPath(params, c.path, c.value);
    return {
      node: node.name,
      description: `parameters${showPath(c.path)}: ${JSON.stringify(before) ?? '(default)'} → ${c.value === undefined ? '(removed)' : JSON.stringify(c.value)}: ${c.outputs} main output(s) left, output ${[...new Set(cut.map((e) => e.output))].join(', ')} still connected (to ${[...new Set(cut.map((e) => e.to))].join(', ')})${wired.length ? '' : '; that connection added first'}`,
      workflow,
    };
  },
};

/**
 * The fields an Edit Fields node puts out when that is all it puts out (n8n's Set source: from 3.3 only
 * the assigned fields unless includeOtherFields; the old Set with keepOnlySet), each a plain name; null
 * where it keeps its input's fields, a name is an expression or a path, or the node is in raw mode.
 */
function onlyFieldsSet(node: WfNode): Set<string> | null {
  if (node.type !== 'n8n-nodes-base.set') return null;
  const p = node.parameters ?? {};
  const version = node.typeVersion ?? 1;
  let names: unknown[];
  if (version >= 3.3) {
    if (p.includeOtherFields === true || (p.mode !== undefined && p.mode !== 'manual')) return null;
    names = isObj(p.assignments) && Array.isArray(p.assignments.assignments) ? p.assignments.assignments.map((a) => (isObj(a) ? a.name : undefined)) : [];
  } else if (version < 3) {
    if (p.keepOnlySet !== true || !isObj(p.values)) return null;
    const values = p.values;
    names = ['string', 'number', 'boolean'].flatMap((t) =>
      Array.isArray(values[t]) ? (values[t] as unknown[]).map((v) => (isObj(v) ? v.name : undefined)) : [],
    );
  } else return null;
  if (names.length === 0 || !names.every((n) => typeof n === 'string' && /^[A-Za-z_$][\w$]*$/.test(n))) return null;
  return new Set(names as string[]);
}

// ---------------------------------------------------------------------------------------------
// n8n's own logic as the oracle (loaded lazily: nothing here runs when the module is imported)

interface RawDescription {
  name: string;
  version: number | number[];
  properties: RawProperty[];
  inputs: unknown;
  outputs: unknown;
  [k: string]: unknown;
}
interface RawProperty {
  name: string;
  type: string;
  required?: boolean;
  default?: unknown;
  options?: { value?: unknown; name?: string }[];
  typeOptions?: Record<string, unknown>;
  displayOptions?: unknown;
}

export const DESCRIPTION_FILES: Record<string, string> = {
  'n8n-nodes-base': '.catalog/cache/n8n-nodes-base@2.41.2/package/dist/types/nodes.json',
  '@n8n/n8n-nodes-langchain': '.catalog/cache/@n8n+n8n-nodes-langchain@2.41.1/package/dist/types/nodes.json',
};
export const ORACLE_DIR = '.eval/oracle';

const isEmptyDefault = (v: unknown) =>
  v === undefined || v === null || v === '' || (Array.isArray(v) && v.length === 0) || (isObj(v) && Object.keys(v).length === 0);

const countType = (ports: unknown, type: string) => (Array.isArray(ports) ? ports.filter((p) => p === type || (isObj(p) && p.type === type)).length : 0);

export function loadN8nOracle(root = '.'): MutationOracle & { describe(type: string, version?: number): RawDescription | undefined } {
  const entry = resolve(root, ORACLE_DIR, 'node_modules/n8n-workflow');
  if (!existsSync(entry)) throw new Error(`n8n-workflow is not installed: npm i --prefix ${ORACLE_DIR} --ignore-scripts n8n-workflow@2.41.0`);
  const require = createRequire(resolve(root, ORACLE_DIR, 'package.json'));
  const nw = require('n8n-workflow') as any;
  const { NodeHelpers, Workflow } = nw;

  const byType = new Map<string, RawDescription[]>();
  for (const [pkg, file] of Object.entries(DESCRIPTION_FILES)) {
    const path = resolve(root, file);
    if (!existsSync(path)) throw new Error(`${file} is missing: npm run catalog:build`);
    for (const d of JSON.parse(readFileSync(path, 'utf8')) as RawDescription[]) {
      const type = `${pkg}.${d.name}`;
      const list = byType.get(type) ?? [];
      list.push({ ...d, name: type });
      byType.set(type, list);
    }
  }
  const versions = (d: RawDescription) => (Array.isArray(d.version) ? d.version : [d.version]);
  const describe = (type: string, version = 1) => byType.get(type)?.find((d) => versions(d).includes(version));

  // A Workflow only to evaluate the inputs/outputs expressions of one node, with n8n's expression engine.
  const nodeTypes = {
    getByName: (type: string) => ({ description: byType.get(type)?.[0] }),
    getByNameAndVersion: (type: string, version?: number) => ({ description: describe(type, version) }),
    getKnownTypes: () => ({}),
  };
  const full = (node: WfNode, desc: RawDescription, parameters = node.parameters ?? {}) => {
    const n = { ...node, typeVersion: node.typeVersion ?? 1, parameters };
    return NodeHelpers.getNodeParameters(desc.properties, parameters, true, false, n, desc) ?? {};
  };
  const asNode = (node: WfNode, desc: RawDescription, parameters?: Record<string, unknown>) => ({
    id: 'x',
    position: [0, 0],
    ...node,
    typeVersion: node.typeVersion ?? 1,
    parameters: full(node, desc, parameters),
  });
  const ports = (node: WfNode, which: 'inputs' | 'outputs'): unknown[] | undefined => {
    const desc = describe(node.type, node.typeVersion ?? 1);
    if (!desc) return undefined;
    const n = asNode(node, desc);
    const workflow = new Workflow({ nodes: [n], connections: {}, active: false, nodeTypes });
    const got = which === 'inputs' ? NodeHelpers.getNodeInputs(workflow, n, desc) : NodeHelpers.getNodeOutputs(workflow, n, desc);
    return Array.isArray(got) ? got : undefined;
  };
  const issues = (node: WfNode, desc: RawDescription, parameters?: Record<string, unknown>): Record<string, unknown> =>
    NodeHelpers.getNodeParametersIssues(desc.properties, asNode(node, desc, parameters), desc)?.parameters ?? {};
  /** n8n's warnings while `run` runs (its filter code warns, and returns false, on what it cannot evaluate). */
  const warnings: string[] = [];
  const quiet = () => {};
  nw.LoggerProxy.init({ error: quiet, info: quiet, debug: quiet, warn: (message: string) => void warnings.push(message) });
  const warnsOf = (run: () => unknown): string[] => {
    warnings.length = 0;
    try {
      run();
    } catch {
      // A thrown error is not the warning asked about.
    }
    return [...warnings];
  };
  const displayedTopLevel = (node: WfNode, desc: RawDescription) => {
    const values = full(node, desc);
    const n = asNode(node, desc);
    return desc.properties.filter((p) => (node.parameters ?? {})[p.name] !== undefined && NodeHelpers.displayParameter(values, p, n, desc));
  };
  /** Fixed-collection entries under these properties (nested ones too), with the sub-field names n8n reads and those marked required. */
  const entriesOf = (props: RawProperty[], values: unknown, path: ParamPath): { path: ParamPath; subFields: string[]; required: string[] }[] => {
    if (!isObj(values)) return [];
    return props.flatMap((p) => {
      const v = values[p.name];
      if (p.type === 'collection' && isObj(v)) return entriesOf((p.options ?? []) as RawProperty[], v, [...path, p.name]);
      if (p.type !== 'fixedCollection' || !isObj(v)) return [];
      return ((p.options ?? []) as { name?: string; values?: RawProperty[] }[]).flatMap((o) => {
        const list = v[o.name!];
        const fields = o.values ?? [];
        const entries: [unknown, ParamPath][] = Array.isArray(list)
          ? list.map((e, i) => [e, [...path, p.name, o.name!, i]])
          : isObj(list)
            ? [[list, [...path, p.name, o.name!]]]
            : [];
        return entries.flatMap(([e, at]) =>
          isObj(e)
            ? [
                {
                  path: at,
                  subFields: [...new Set(fields.map((f) => f.name))],
                  required: [...new Set(fields.filter((f) => f.required === true).map((f) => f.name))],
                },
                ...entriesOf(fields, e, at),
              ]
            : [],
        );
      });
    });
  };

  return {
    describe,
    maxVersion(type) {
      const list = byType.get(type);
      return list ? Math.max(...list.flatMap(versions)) : undefined;
    },
    removableRequired(node) {
      const desc = describe(node.type, node.typeVersion ?? 1);
      const params = node.parameters ?? {};
      if (!desc || node.disabled) return [];
      const before = issues(node, desc);
      const names = new Set<string>();
      for (const p of desc.properties) {
        if (p.required !== true || !isEmptyDefault(p.default) || !(p.name in params) || isEmptyDefault(params[p.name]) || p.name in before) continue;
        const { [p.name]: _removed, ...rest } = params;
        if (p.name in issues(node, desc, rest)) names.add(p.name);
      }
      return [...names];
    },
    optionParameters(node) {
      const desc = describe(node.type, node.typeVersion ?? 1);
      if (!desc) return [];
      const values = full(node, desc);
      const n = asNode(node, desc);
      const out: { name: string; values: unknown[] }[] = [];
      const seen = new Set<string>();
      for (const p of desc.properties) {
        if (p.type !== 'options' || !Array.isArray(p.options) || p.options.length === 0) continue;
        if (p.typeOptions?.loadOptionsMethod || p.typeOptions?.loadOptions || p.typeOptions?.loadOptionsDependsOn) continue;
        if (seen.has(p.name) || !NodeHelpers.displayParameter(values, p, n, desc)) continue;
        const allowed = p.options.map((o) => o.value);
        const current = values[p.name];
        if (typeof current === 'string' && current.startsWith('=')) continue;
        if (!allowed.includes(current)) continue;
        seen.add(p.name);
        out.push({ name: p.name, values: allowed });
      }
      return out;
    },
    mainOutputs(node) {
      const out = ports(node, 'outputs');
      return out && countType(out, 'main');
    },
    mainInputs(node) {
      const inp = ports(node, 'inputs');
      return inp && countType(inp, 'main');
    },
    requiresLanguageModel(node) {
      const inp = ports(node, 'inputs') ?? [];
      return inp.some((p) => isObj(p) && p.type === 'ai_languageModel' && p.required === true);
    },
    filterOperatorKnown(type, operation) {
      // dateTime gives up on missing values before it looks at the operation; the others look first.
      const probe = type === 'dateTime' ? { leftValue: '2024-01-01', rightValue: '2024-01-02' } : { leftValue: undefined, rightValue: undefined };
      return !warnsOf(() =>
        nw.executeFilterCondition({ id: 'probe', ...probe, operator: { type, operation } }, { caseSensitive: true, typeValidation: 'loose', version: 2 }),
      ).some((w) => w.startsWith('Unknown filter parameter operator'));
    },
    filterCombinatorKnown(combinator) {
      return !warnsOf(() => nw.executeFilter({ combinator, conditions: [], options: { caseSensitive: true, typeValidation: 'loose', version: 2 } })).some((w) =>
        w.startsWith('Unknown filter combinator'),
      );
    },
    assignmentTypeKnown(type) {
      // validateFieldType's default branch hands every value back unchecked; each type it knows converts or refuses one of these.
      return [{}, 'text', 1].some((value) => {
        const got = nw.validateFieldType('probe', value, type);
        return !got.valid || got.newValue !== value;
      });
    },
    fixedCollectionEntries(node) {
      const desc = describe(node.type, node.typeVersion ?? 1);
      if (!desc || node.disabled) return [];
      return displayedTopLevel(node, desc).flatMap((p) => entriesOf([p], node.parameters ?? {}, []));
    },
    removableRequiredSubFields(node) {
      const desc = describe(node.type, node.typeVersion ?? 1);
      if (!desc || node.disabled) return [];
      const before = JSON.stringify(issues(node, desc));
      const out: { path: ParamPath; name: string }[] = [];
      for (const e of displayedTopLevel(node, desc).flatMap((p) => entriesOf([p], node.parameters ?? {}, []))) {
        const entry = atPath(node.parameters, e.path) as Record<string, unknown>;
        for (const field of e.required) {
          if (!(field in entry) || isEmptyDefault(entry[field])) continue;
          const parameters = structuredClone(node.parameters ?? {});
          delete (atPath(parameters, e.path) as Record<string, unknown>)[field];
          if (JSON.stringify(issues(node, desc, parameters)) !== before) out.push({ path: e.path, name: field });
        }
      }
      return out;
    },
    outputReducingChanges(node) {
      const desc = describe(node.type, node.typeVersion ?? 1);
      if (!desc || node.disabled || typeof desc.outputs !== 'string') return [];
      const now = this.mainOutputs(node);
      if (now === undefined) return [];
      const params = node.parameters ?? {};
      const changes: { path: ParamPath; value: unknown }[] = [];
      const propose = (p: RawProperty, path: ParamPath, current: unknown) => {
        if (current !== undefined && path.length > 1) changes.push({ path, value: undefined });
        if (p.type === 'boolean') changes.push({ path, value: !(current ?? p.default) });
        if (p.type === 'options' && !p.typeOptions?.loadOptionsMethod)
          for (const o of p.options ?? []) if (o.value !== (current ?? p.default)) changes.push({ path, value: o.value });
      };
      for (const p of displayedTopLevel(node, desc)) {
        if (p.type === 'boolean') propose(p, [p.name], params[p.name]);
        if (p.type === 'collection' && p.name === 'options')
          for (const o of (p.options ?? []) as RawProperty[]) propose(o, [p.name, o.name], isObj(params.options) ? params.options[o.name] : undefined);
      }
      return changes.flatMap((c) => {
        const parameters = structuredClone(params);
        if (c.value === undefined) delete (parameters.options as Record<string, unknown>)[c.path[1] as string];
        else if (c.path.length === 1) parameters[c.path[0] as string] = c.value;
        else parameters.options = { ...(isObj(parameters.options) ? parameters.options : {}), [c.path[1] as string]: c.value };
        const outputs = this.mainOutputs({ ...node, parameters });
        return outputs !== undefined && outputs < now ? [{ ...c, outputs }] : [];
      });
    },
  };
}

// ---------------------------------------------------------------------------------------------
// CLI

export interface MutantEntry {
  id: string;
  workflow: string;
  split: string;
  kind: MutantKind;
  node: string;
  description: string;
}

if (import.meta.main) {
  const { values } = parseArgs({ options: { corpus: { type: 'string', default: '.eval/workflows' }, seed: { type: 'string', default: '1' } } });
  const corpus = values.corpus!;
  const manifest = JSON.parse(readFileSync(join(corpus, 'manifest.json'), 'utf8')) as { workflows: { id: string; split: string }[] };
  const oracle = loadN8nOracle();
  const outDir = join(corpus, 'mutants');
  rmSync(outDir, { recursive: true, force: true });
  mkdirSync(outDir, { recursive: true });
  const entries: MutantEntry[] = [];
  const warn = console.warn;
  console.warn = () => {}; // n8n-workflow warns on inputs/outputs expressions it cannot evaluate
  for (const w of manifest.workflows) {
    const wf = JSON.parse(readFileSync(join(corpus, 'real', `${w.id}.json`), 'utf8')) as Wf;
    for (const m of generateMutants(wf, oracle, { seed: values.seed, id: w.id })) {
      const id = `${w.id}--${m.kind}`;
      writeFileSync(join(outDir, `${id}.json`), JSON.stringify(m.workflow, null, 2));
      entries.push({ id, workflow: w.id, split: w.split, kind: m.kind, node: m.node, description: m.description });
    }
  }
  console.warn = warn;
  const perKind = Object.fromEntries(ALL_MUTANT_KINDS.map((k) => [k, entries.filter((e) => e.kind === k).length]));
  writeFileSync(
    join(outDir, 'manifest.json'),
    JSON.stringify({ date: new Date().toISOString(), seed: values.seed, workflows: manifest.workflows.length, perKind, mutants: entries }, null, 2),
  );
  console.log(`${entries.length} mutants of ${manifest.workflows.length} workflows (seed ${values.seed}):`);
  for (const [k, n] of Object.entries(perKind)) console.log(`  ${k.padEnd(28)} ${n}`);
  console.log(`wrote ${join(outDir, 'manifest.json')} (${readdirSync(outDir).length - 1} mutant files)`);
}
