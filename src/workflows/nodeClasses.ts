/**
 * What a node may do beyond turning items into items: reach the n8n host (run commands, read and write
 * its files, read its environment), run code the caller wrote, or use a stored credential. The classes
 * are named from n8n's own node descriptions ("Executes a command on the host", "Read or write files
 * from the computer that runs n8n", "Run custom JavaScript or Python code") and n8n 2.x's defaults,
 * which exclude Execute Command and Local File Trigger (NODES_EXCLUDE), block `$env` and
 * `process.env` (N8N_BLOCK_ENV_ACCESS_IN_NODE) and restrict file access (N8N_RESTRICT_FILE_ACCESS_TO).
 *
 * Pure: which nodes of a change or a run are classed, and why. Who may put them into n8n or run them
 * is the gate's (src/tools/n8n/nodeGate.ts), by scope and by the operator's policy (src/auth/nodePolicy.ts).
 */
import { own } from '../lib/ownKeys';
import { connectionMap, isTarget, targetLists, targetsOf } from './connectionMap';
import { expressionParts, liveCode, strings } from './expressions';
import { adjacency, reach } from './graph';
import { N8N_PREFIXES } from './validateNode';
import { isExpression, isPlainObject, type Values } from './values';

export const NODE_CLASSES = ['host', 'code', 'credentials'] as const;
export type NodeClass = (typeof NODE_CLASSES)[number];

export const isNodeClass = (value: string): value is NodeClass => (NODE_CLASSES as readonly string[]).includes(value);

/** A class a node is in, and why, in words an agent and an operator read. */
export interface Classed {
  class: NodeClass;
  why: string;
}

/** A node type's class: always, or only when its parameters say so (`when`). */
interface TypeRule extends Classed {
  when?: (parameters: Values) => boolean;
}

const host = (why: string, when?: TypeRule['when']): TypeRule => ({ class: 'host', why, ...(when ? { when } : {}) });
const code = (why: string): TypeRule => ({ class: 'code', why });

/** n8n's own node types that are classed, with what their descriptions say they do. */
const TYPE_RULES: ReadonlyMap<string, TypeRule> = new Map<string, TypeRule>([
  ['n8n-nodes-base.executeCommand', host('runs shell commands on the n8n host')],
  ['n8n-nodes-base.ssh', host('runs shell commands on a server over SSH')],
  ['n8n-nodes-base.readWriteFile', host('reads and writes files on the disk of the n8n host')],
  ['n8n-nodes-base.readBinaryFile', host('reads files from the disk of the n8n host')],
  ['n8n-nodes-base.readBinaryFiles', host('reads files from the disk of the n8n host')],
  ['n8n-nodes-base.writeBinaryFile', host('writes files to the disk of the n8n host')],
  ['n8n-nodes-base.localFileTrigger', host('watches files on the disk of the n8n host')],
  ['n8n-nodes-base.git', host('runs git in folders of the n8n host')],
  ['n8n-nodes-base.debugHelper', host('uses up the n8n host’s memory (category "Out Of Memory")', (p) => p.category === 'oom' || isExpression(p.category))],
  ['n8n-nodes-base.code', code('runs the JavaScript or Python it is given')],
  ['n8n-nodes-base.function', code('runs the JavaScript it is given')],
  ['n8n-nodes-base.functionItem', code('runs the JavaScript it is given')],
  ['n8n-nodes-base.aiTransform', code('runs the code a model writes from its instructions')],
  ['@n8n/n8n-nodes-langchain.code', code('runs the JavaScript it is given (LangChain Code)')],
  ['@n8n/n8n-nodes-langchain.toolCode', code('runs the JavaScript or Python it is given, as an AI tool')],
]);

/** The node types classed by their type (test/e2e checks the catalog serves each: a misspelt one would class nothing). */
export const CLASSED_TYPES: readonly string[] = [...TYPE_RULES.keys()];

/**
 * The operator's changes to the classes (NODE_CLASS_OVERRIDES): a node type, or a package's types
 * (`package.*`), put into a class or out of every class (`none`).
 */
export type ClassOverrides = ReadonlyMap<string, NodeClass | 'none'>;

/** An override for a type: its own entry, else its package's (`n8n-nodes-foo.*`). */
function overrideOf(type: string, overrides: ClassOverrides): NodeClass | 'none' | undefined {
  const exact = overrides.get(type);
  if (exact !== undefined) return exact;
  const dot = type.lastIndexOf('.');
  return dot > 0 ? overrides.get(`${type.slice(0, dot)}.*`) : undefined;
}

/** The class a node's type puts it in, if any: the operator's word first, then n8n's own types (a tool variant as its node), then community nodes. */
function typeClass(type: string, parameters: Values, overrides: ClassOverrides): Classed | null {
  const override = overrideOf(type, overrides) ?? (type.endsWith('Tool') ? overrideOf(type.slice(0, -4), overrides) : undefined);
  if (override === 'none') return null;
  if (override !== undefined) return { class: override, why: `is classed "${override}" by this deployment's NODE_CLASS_OVERRIDES` };
  const rule = TYPE_RULES.get(type) ?? (type.endsWith('Tool') ? TYPE_RULES.get(type.slice(0, -4)) : undefined);
  if (rule) return rule.when && !rule.when(parameters) ? null : { class: rule.class, why: rule.why };
  if (!N8N_PREFIXES.some((p) => type.startsWith(p))) {
    return { class: 'host', why: 'is a community or custom node: this server cannot tell what it does on the n8n host' };
  }
  return null;
}

/** What an expression's code reaches that the item's data does not: the host's environment, external secrets, the runtime itself. */
const REACHES: readonly (Classed & { pattern: RegExp })[] = [
  { pattern: /\$env\b|\bprocess\s*\??\.\s*env\b/, class: 'host', why: 'reads the n8n host’s environment ($env)' },
  { pattern: /\$secrets\b/, class: 'credentials', why: 'reads external secrets ($secrets)' },
  {
    // The runtime's own names where they stand alone (`$json.process` is a field), and the prototype chain anywhere.
    pattern: /(?<![.\w$])(?:process|require|globalThis|global|Function|eval|import)\b|\b(?:constructor|__proto__|prototype)\b/,
    class: 'code',
    why: 'has an expression that reaches past the item’s data (process, require, constructor, eval…)',
  },
];

/** Code parameters whose whole text is code (a Code node's), where `$env` and `process.env` read the environment too. */
const CODE_PARAMETERS = new Set(['jsCode', 'pythonCode', 'functionCode', 'code']);

/** The classes a node's expressions (and code) put it in: what they reach beyond the items. */
function expressionClasses(parameters: Values): Classed[] {
  const found = new Map<NodeClass, Classed>();
  for (const { value, top } of strings(parameters, 'parameters')) {
    const parts = isExpression(value) ? expressionParts(value).code : CODE_PARAMETERS.has(top) ? [value] : [];
    for (const part of parts) {
      const live = liveCode(part);
      for (const { pattern, ...classed } of REACHES) {
        // Code parameters run code anyway: only the environment is read from them.
        if (!isExpression(value) && classed.class !== 'host') continue;
        if (!found.has(classed.class) && pattern.test(live)) found.set(classed.class, classed);
      }
    }
  }
  return [...found.values()];
}

/** The stored credentials a node names (`{slackApi: {id, name}}`), in words. */
function credentialsOf(node: Values): Classed | null {
  if (!isPlainObject(node.credentials)) return null;
  const names = Object.entries(node.credentials).map(([type, ref]) => {
    const named = isPlainObject(ref) ? (ref.name ?? ref.id) : ref;
    return typeof named === 'string' ? `${type} "${named}"` : type;
  });
  return names.length ? { class: 'credentials', why: `uses the stored credential${names.length > 1 ? 's' : ''} ${names.join(', ')}` } : null;
}

/**
 * The classes of one node by what it is and what it holds (its type, its expressions, its
 * credentials), one entry per class; the workflows it calls are the caller's to resolve (workflowCall).
 */
export function nodeClasses(node: Values, overrides: ClassOverrides): Classed[] {
  const parameters = isPlainObject(node.parameters) ? node.parameters : {};
  const found = new Map<NodeClass, Classed>();
  const add = (c: Classed | null) => c && !found.has(c.class) && found.set(c.class, c);
  add(typeClass(typeof node.type === 'string' ? node.type : '', parameters, overrides));
  expressionClasses(parameters).forEach(add);
  add(credentialsOf(node));
  return [...found.values()];
}

/** What a node that runs another workflow runs: a saved workflow by id, a workflow given inline, or one this server cannot know. */
export type WorkflowCall = { id: string } | { inline: unknown } | { unknown: string; host?: true };

const CALLS_WORKFLOWS = new Set(['n8n-nodes-base.executeWorkflow', '@n8n/n8n-nodes-langchain.toolWorkflow']);

/** The workflow an Execute Workflow (or Call n8n Workflow Tool) node runs; null for any other node. */
export function workflowCall(node: Values): WorkflowCall | null {
  if (typeof node.type !== 'string' || !CALLS_WORKFLOWS.has(node.type)) return null;
  const parameters = isPlainObject(node.parameters) ? node.parameters : {};
  switch (parameters.source ?? 'database') {
    case 'database': {
      const id = isPlainObject(parameters.workflowId) ? parameters.workflowId.value : parameters.workflowId;
      if (typeof id === 'string' && id !== '' && !isExpression(id)) return { id };
      return { unknown: 'the workflow it runs is chosen when it runs' };
    }
    case 'parameter': {
      const json = parameters.workflowJson;
      if (isPlainObject(json)) return { inline: json };
      if (typeof json === 'string' && !isExpression(json)) {
        try {
          return { inline: JSON.parse(json) as unknown };
        } catch {
          return { inline: {} };
        }
      }
      return { unknown: 'the workflow it runs is given by an expression' };
    }
    case 'localFile':
      return { unknown: 'it runs a workflow read from a file of the n8n host', host: true };
    default:
      return { unknown: 'it runs a workflow loaded from a URL' };
  }
}

/** The settings key naming the workflow n8n runs when this one fails. */
export const errorWorkflowOf = (workflow: unknown): string | null => {
  const settings = isPlainObject(workflow) && isPlainObject(workflow.settings) ? workflow.settings : {};
  return typeof settings.errorWorkflow === 'string' && settings.errorWorkflow !== '' ? settings.errorWorkflow : null;
};

/** What of a node decides what it does: all of it but its name, id, place on the canvas and notes. */
const COSMETIC = new Set(['name', 'id', 'position', 'notes', 'notesInFlow', 'color']);

/** A node's behaviour as one string, keys sorted, to tell an unchanged node from a changed one wherever it sits. */
function behaviour(node: Values): string {
  const sorted = (value: unknown): unknown => {
    if (Array.isArray(value)) return value.map(sorted);
    if (!isPlainObject(value)) return value;
    return Object.keys(value)
      .sort()
      .map((key) => [key, sorted(own(value, key))]);
  };
  return JSON.stringify(sorted(Object.entries(node).filter(([key]) => !COSMETIC.has(key) && !(key === 'disabled' && node.disabled !== true))));
}

const nodesOf = (workflow: unknown): (Values & { name: string })[] =>
  isPlainObject(workflow) && Array.isArray(workflow.nodes)
    ? workflow.nodes.filter((n): n is Values & { name: string } => isPlainObject(n) && typeof n.name === 'string')
    : [];

/** A connection as data flows along it: main from source to target; an AI sub-node serves its root, which calls it with what it was given. */
function flows(workflow: unknown): { from: string; to: string; line: string }[] {
  const edges: { from: string; to: string; line: string }[] = [];
  for (const list of targetLists(connectionMap(isPlainObject(workflow) ? workflow.connections : undefined))) {
    for (const t of targetsOf(list)) {
      if (!isTarget(t)) continue;
      const line = JSON.stringify([list.source, list.type, list.output, t.node, t.type, t.index]);
      edges.push(list.type === 'main' ? { from: list.source, to: t.node, line } : { from: t.node, to: list.source, line });
    }
  }
  return edges;
}

/** Whether a node acts on what its input says: an expression in its parameters, or it hands its items to another workflow. */
const steered = (node: Values): boolean =>
  workflowCall(node) !== null || [...strings(isPlainObject(node.parameters) ? node.parameters : {}, 'parameters')].some((s) => isExpression(s.value));

/**
 * The nodes of `after` that a change from `before` (null: nothing, as for a run) brings into play:
 * each enabled node whose behaviour no node of `before` has (new, or changed in what it does), and
 * each enabled node that acts on its input (an expression; a workflow call) and is fed, along the
 * connections, by a changed node or by a connection that is new. A node that only moved, was renamed
 * or was disabled is not in play; one that is still what it was and is fed as it was stays as the
 * workflow's owner left it. `before` may hold several versions' nodes (what a call found, and n8n's
 * copy now): a node found in any is not new.
 */
export function nodesInPlay(before: readonly unknown[], after: unknown): (Values & { name: string })[] {
  const known = new Set(before.flatMap((w) => nodesOf(w).map(behaviour)));
  const enabled = nodesOf(after).filter((n) => n.disabled !== true);
  const changed = new Set(enabled.filter((n) => !known.has(behaviour(n))).map((n) => n.name));
  const oldLines = new Set(before.flatMap((w) => flows(w).map((e) => e.line)));
  const edges = flows(after);
  const entered = new Set([...changed, ...edges.filter((e) => !oldLines.has(e.line)).map((e) => e.to)]);
  const fed = reach(entered, adjacency(edges.map((e) => [e.from, e.to])));
  return enabled.filter((n) => changed.has(n.name) || ((entered.has(n.name) || fed.has(n.name)) && steered(n)));
}
