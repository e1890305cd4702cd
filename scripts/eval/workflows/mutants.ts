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
export type MutantKind = (typeof MUTANT_KINDS)[number];

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
}

export interface MutateOptions {
  seed?: number | string;
  /** Part of the seed, so each workflow gets its own choices. */
  id?: string;
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

/** Every string inside a value, with its path. */
function strings(value: unknown, path: string): { path: string; value: string }[] {
  if (typeof value === 'string') return [{ path, value }];
  const out: { path: string; value: string }[] = [];
  if (Array.isArray(value)) value.forEach((v, i) => out.push(...strings(v, `${path}[${i}]`)));
  else if (isObj(value)) for (const [k, v] of Object.entries(value)) out.push(...strings(v, `${path}.${k}`));
  return out;
}

/** Set the value at a path made by `strings` (relative to the node). */
function setAtPath(root: Record<string, unknown>, path: string, value: unknown): void {
  const parts = [...path.matchAll(/\.([^.[\]]+)|\[(\d+)\]/g)].map((m) => (m[1] !== undefined ? m[1] : Number(m[2])));
  let at: any = root;
  for (const p of parts.slice(0, -1)) at = at[p as any];
  at[parts.at(-1) as any] = value;
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

// ---------------------------------------------------------------------------------------------
// The generator

export function generateMutants(original: Wf, oracle: MutationOracle, options: MutateOptions = {}): Mutant[] {
  const kinds = options.kinds ?? MUTANT_KINDS;
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

const MAKERS: Record<MutantKind, Maker> = {
  unknown_node_type(wf, oracle, r) {
    const candidates = live(wf).filter(({ node }) => oracle.maxVersion(node.type) !== undefined);
    if (candidates.length === 0) return null;
    const { node, i } = pick(candidates, r);
    const dot = node.type.lastIndexOf('.');
    let type = '';
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
      strings(node.parameters ?? {}, '')
        .filter((s) => s.value.startsWith('=') && s.value.includes('{{') && s.value.includes('}}') && count(s.value, '{{') === count(s.value, '}}'))
        .map((s) => ({ node, i, s })),
    );
    if (candidates.length === 0) return null;
    const { node, i, s } = pick(candidates, r);
    const at = s.value.lastIndexOf('}}');
    const broken = s.value.slice(0, at) + s.value.slice(at + 2);
    const workflow = clone(wf);
    setAtPath(workflow.nodes[i]!.parameters!, s.path, broken);
    return { node: node.name, description: `parameters${s.path}: last "}}" removed, leaving an unclosed "{{"`, workflow };
  },

  missing_node_reference(wf, _oracle, r) {
    const names = new Set(wf.nodes.map((n) => n.name));
    const candidates = live(wf).flatMap(({ node, i }) =>
      strings(node.parameters ?? {}, '')
        .filter((s) => s.value.startsWith('='))
        .flatMap((s) => nodeReferences(s.value).filter((ref) => names.has(ref.name)).map((ref) => ({ node, i, s, ref }))),
    );
    if (candidates.length === 0) return null;
    const { node, i, s, ref } = pick(candidates, r);
    // Kept a valid identifier for $node.Name references.
    const missing = s.value.slice(ref.start - 6, ref.start) === '$node.' ? freshName(wf, 'MissingNode').replace(/\s/g, '') : freshName(wf, 'Missing Node');
    const workflow = clone(wf);
    setAtPath(workflow.nodes[i]!.parameters!, s.path, s.value.slice(0, ref.start) + missing + s.value.slice(ref.end));
    return { node: node.name, description: `parameters${s.path}: reference to "${ref.name}" → "${missing}", which is not in the workflow`, workflow };
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
    const candidates = edges(wf.connections).filter((e) => e.type === 'ai_languageModel' && byName.has(e.from) && byName.has(e.to) && oracle.mainOutputs(byName.get(e.from)!) === 0);
    if (candidates.length === 0) return null;
    const e = pick(candidates, r);
    const workflow = clone(wf);
    const list = workflow.connections[e.from]!.ai_languageModel![e.output]!;
    list.splice(list.findIndex((c) => c.node === e.to && c.type === e.toType && c.index === e.input), 1);
    if (workflow.connections[e.from]!.ai_languageModel!.every((l) => !l || l.length === 0)) delete workflow.connections[e.from]!.ai_languageModel;
    addConnection(workflow, e.from, 'main', 0, { node: e.to, type: 'main', index: 0 });
    return { node: e.from, description: `language model ${e.from} → ${e.to} connected as main instead of ai_languageModel (the model has no main output)`, workflow };
  },

  agent_without_model(wf, oracle, r) {
    const byName = new Map(wf.nodes.map((n) => [n.name, n]));
    const fed = [...new Set(edges(wf.connections).filter((e) => e.type === 'ai_languageModel' && byName.has(e.from)).map((e) => e.to))];
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
    const existing = edges(wf.connections).filter((e) => e.from === node.name && e.type === 'main').map((e) => e.to);
    const others = live(wf).filter(({ node: n }) => n.name !== node.name && (oracle.mainInputs(n) ?? 0) >= 1).map(({ node: n }) => n.name);
    const targets = existing.length > 0 ? existing : others;
    if (targets.length === 0) return null;
    const to = pick(targets, r);
    const workflow = clone(wf);
    addConnection(workflow, node.name, 'main', outputs, { node: to, type: 'main', index: 0 });
    return { node: node.name, description: `connection from ${node.name} output ${outputs} (it has ${outputs} main output${outputs === 1 ? '' : 's'}: 0..${outputs - 1}) to ${to}`, workflow };
  },

  self_connection(wf, oracle, r) {
    const candidates = live(wf).filter(({ node }) => (oracle.mainOutputs(node) ?? 0) >= 1 && (oracle.mainInputs(node) ?? 0) >= 1);
    if (candidates.length === 0) return null;
    const { node } = pick(candidates, r);
    const workflow = clone(wf);
    addConnection(workflow, node.name, 'main', 0, { node: node.name, type: 'main', index: 0 });
    return { node: node.name, description: `${node.name} output 0 connected to its own input 0`, workflow };
  },
};

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

const countType = (ports: unknown, type: string) =>
  Array.isArray(ports) ? ports.filter((p) => p === type || (isObj(p) && p.type === type)).length : 0;

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
  const perKind = Object.fromEntries(MUTANT_KINDS.map((k) => [k, entries.filter((e) => e.kind === k).length]));
  writeFileSync(join(outDir, 'manifest.json'), JSON.stringify({ date: new Date().toISOString(), seed: values.seed, workflows: manifest.workflows.length, perKind, mutants: entries }, null, 2));
  console.log(`${entries.length} mutants of ${manifest.workflows.length} workflows (seed ${values.seed}):`);
  for (const [k, n] of Object.entries(perKind)) console.log(`  ${k.padEnd(28)} ${n}`);
  console.log(`wrote ${join(outDir, 'manifest.json')} (${readdirSync(outDir).length - 1} mutant files)`);
}
