/**
 * The edit language of edit_workflow: a list of operations applied in order to a copy of a workflow.
 * All or nothing: the first operation that cannot apply stops the edit, named with the reason, and
 * the input is never changed. Pure; saving, tags and activation are the tool's (src/tools/n8n).
 */
import { escapeToken, pointerTokens } from '../lib/jsonPointer';
import { deleteOwn, dict, own, setOwn } from '../lib/ownKeys';
import { connectionMap, isDict, isTarget, type ConnectionMap } from './connectionMap';
import { renameReferences, strings } from './expressions';
import { describe } from './findings';
import { isPlainObject, type Values } from './values';

export const OPERATION_TYPES = [
  'addNode',
  'removeNode',
  'updateNode',
  'setParameter',
  'renameNode',
  'moveNode',
  'enableNode',
  'disableNode',
  'addConnection',
  'removeConnection',
  'rewireConnection',
  'updateSettings',
  'updateName',
  'addTag',
  'removeTag',
  'activate',
  'deactivate',
] as const;

type OperationType = (typeof OPERATION_TYPES)[number];

/** One operation; which fields it reads depends on its type (see the tool's description). */
export interface Operation {
  type: OperationType;
  /** The node an operation acts on (by name). */
  name?: string;
  node?: Values;
  /** updateNode: node fields to set; `parameters` merge into the node's: objects key by key, lists replaced whole, null removes a key. */
  changes?: Values;
  /** setParameter: where in the node's parameters, as a JSON Pointer (`/conditions/conditions/0/rightValue`; `-` appends to a list). */
  path?: string;
  /** setParameter: the value to put there; null removes it (a list entry is taken out). */
  value?: unknown;
  newName?: string;
  position?: [number, number];
  source?: string;
  target?: string;
  /** rewireConnection: the target the connection goes to now, and the one it should go to. */
  from?: string;
  to?: string;
  /** main, ai_languageModel, ai_tool…; default main. */
  connectionType?: string;
  sourceOutput?: number;
  targetInput?: number;
  /** IF: "true" (output 0) or "false" (output 1). */
  branch?: 'true' | 'false';
  /** Switch: the rule's output index. */
  case?: number;
  settings?: Values;
  tag?: string;
}

type Node = Values & { name: string };

interface EditedWorkflow {
  /** Nodes that are not objects are kept as they are (validation reports them) and never edited. */
  workflow: Values & { nodes: unknown[]; connections: ConnectionMap };
  /** Lists in a node's parameters that an updateNode replaced whole, as JSON Pointers (setParameter changes one entry). */
  replacedLists: { node: string; path: string }[];
  /** Tag names to add and to remove (n8n sets tags through their own endpoint). */
  tags: { add: string[]; remove: string[] };
  /** The last activate/deactivate asked for. */
  activation?: 'activate' | 'deactivate';
}

export type EditOutcome = ({ ok: true } & EditedWorkflow) | { ok: false; index: number; operation: Operation; message: string };

class OperationError extends Error {}

export function applyOperations(workflow: Values, operations: Operation[], newId: () => string = () => crypto.randomUUID()): EditOutcome {
  const draft = structuredClone(workflow) as EditedWorkflow['workflow'];
  if (!Array.isArray(draft.nodes)) draft.nodes = [];
  draft.connections = connectionMap(draft.connections);
  const edit: EditedWorkflow = { workflow: draft, replacedLists: [], tags: { add: [], remove: [] } };
  const renames = new Renames();
  for (const [index, operation] of operations.entries()) {
    try {
      apply(edit, operation, newId, renames);
    } catch (error) {
      if (!(error instanceof OperationError)) throw error;
      return { ok: false, index, operation, message: error.message };
    }
  }
  for (const node of draft.nodes) renames.bringUpToDate(node);
  renames.bringTargetsUpToDate(draft.connections);
  return { ok: true, ...edit };
}

/**
 * Renames, in order, and how many of them each node's expressions and code, and the connections'
 * targets, already follow. A rename reaches a node's strings when its parameters are next changed, the
 * targets when a connection is next looked up by name, and everything at the end: a hundred renames
 * cost a pass over the workflow, not a hundred.
 */
class Renames {
  private readonly done: [from: string, to: string][] = [];
  private readonly followed = new WeakMap<object, number>();
  private targetsFollow = 0;
  /** The renames since each point, composed once for all the nodes that stand there. */
  private readonly since = new Map<number, Map<string, string>>();

  add(from: string, to: string): void {
    this.done.push([from, to]);
    this.since.clear();
  }

  /** A node added now: its strings name nodes by the names they have now. */
  current(node: object): void {
    this.followed.set(node, this.done.length);
  }

  /** The node's strings made to follow every rename so far. */
  bringUpToDate(node: unknown): void {
    if (!isPlainObject(node)) return;
    const start = this.followed.get(node) ?? 0;
    if (start < this.done.length && isPlainObject(node.parameters)) {
      const renames = this.composedSince(start);
      for (const string of strings(node.parameters, '')) {
        const renamed = renameReferences(string.value, renames);
        if (renamed !== string.value) string.set(renamed);
      }
    }
    this.current(node);
  }

  /** Every connection's target made to follow every rename so far. */
  bringTargetsUpToDate(connections: ConnectionMap): void {
    if (this.targetsFollow === this.done.length) return;
    const renames = this.composedSince(this.targetsFollow);
    forEachTargets(connections, (targets) => {
      for (const t of targets) if (isTarget(t) && renames.has(t.node)) t.node = renames.get(t.node)!;
      return targets;
    });
    this.targetsFollow = this.done.length;
  }

  private composedSince(start: number): Map<string, string> {
    return this.since.get(start) ?? this.since.set(start, composed(this.done.slice(start))).get(start)!;
  }
}

/**
 * Renames made one after the other as one map applied at once: after A→B, B→C a reference to A
 * names C, and so does one to B (which named no node before, and then the renamed one).
 */
function composed(renames: [string, string][]): Map<string, string> {
  const map = new Map<string, string>();
  for (const [from, to] of renames) {
    for (const [name, now] of map) if (now === from) map.set(name, to);
    if (!map.has(from)) map.set(from, to);
  }
  return map;
}

function apply(edit: EditedWorkflow, op: Operation, newId: () => string, renames: Renames): void {
  const w = edit.workflow;
  switch (op.type) {
    case 'addNode': {
      const node = op.node;
      if (!isPlainObject(node) || typeof node.name !== 'string' || node.name === '' || typeof node.type !== 'string') {
        throw new OperationError('addNode needs "node": {name, type, typeVersion, parameters, position?}');
      }
      if (find(w, node.name, false)) throw new OperationError(`a node named "${node.name}" exists already: names must be unique`);
      const added = { id: newId(), parameters: {}, position: nextPosition(w), ...node, name: node.name };
      renames.current(added);
      w.nodes.push(added);
      return;
    }
    case 'removeNode': {
      const node = find(w, need(op, 'name'));
      w.nodes = w.nodes.filter((n) => n !== node);
      delete w.connections[node.name];
      renames.bringTargetsUpToDate(w.connections);
      forEachTargets(w.connections, (targets) => (targets.some(into(node.name)) ? targets.filter((t) => !into(node.name)(t)) : targets));
      return;
    }
    case 'updateNode': {
      const node = find(w, need(op, 'name'));
      if (!isPlainObject(op.changes)) throw new OperationError('updateNode needs "changes": the node fields to set, e.g. {"parameters": {"text": "…"}}');
      const { parameters, name, ...fields } = op.changes;
      if (name !== undefined && name !== node.name) throw new OperationError('a node is renamed with renameNode, so connections and expressions follow');
      if (parameters !== undefined) {
        if (!isPlainObject(parameters)) throw new OperationError('"changes.parameters" must be an object');
        renames.bringUpToDate(node);
        const replaced: string[] = [];
        node.parameters = mergeDeep(isPlainObject(node.parameters) ? node.parameters : {}, parameters, replaced);
        for (const path of replaced) edit.replacedLists.push({ node: node.name, path });
      }
      for (const [key, value] of Object.entries(fields)) {
        if (value === null) deleteOwn(node, key);
        else setOwn(node, key, value);
      }
      return;
    }
    case 'setParameter': {
      const node = find(w, need(op, 'name'));
      const path = need(op, 'path');
      if (!('value' in op)) throw new OperationError('setParameter needs "value": what to put at "path" (null removes it)');
      renames.bringUpToDate(node);
      node.parameters = setAtPointer(isPlainObject(node.parameters) ? node.parameters : {}, path, op.value);
      return;
    }
    case 'renameNode': {
      const node = find(w, need(op, 'name'));
      const newName = need(op, 'newName');
      if (newName === node.name) return;
      if (find(w, newName, false)) throw new OperationError(`a node named "${newName}" exists already`);
      const old = node.name;
      node.name = newName;
      const moved = w.connections[old];
      if (moved !== undefined) {
        w.connections[newName] = moved;
        delete w.connections[old];
      }
      // Connections into the node, and expressions and code that name it, follow it.
      renames.add(old, newName);
      return;
    }
    case 'moveNode': {
      const node = find(w, need(op, 'name'));
      if (!Array.isArray(op.position) || op.position.length !== 2 || !op.position.every((v) => typeof v === 'number')) {
        throw new OperationError('moveNode needs "position": [x, y]');
      }
      node.position = [...op.position];
      return;
    }
    case 'enableNode':
    case 'disableNode': {
      const node = find(w, need(op, 'name'));
      if (op.type === 'disableNode') node.disabled = true;
      else delete node.disabled;
      return;
    }
    case 'addConnection': {
      renames.bringTargetsUpToDate(w.connections);
      const { source, target, type, output, input } = endpoints(w, op);
      const list = targetListFor(w, source, type, output);
      if (list.some((t) => isTarget(t) && t.node === target && t.type === type && t.index === input)) {
        throw new OperationError(`"${source}" output ${output} (${type}) is connected to "${target}" input ${input} already`);
      }
      list.push({ node: target, type, index: input });
      return;
    }
    case 'removeConnection': {
      renames.bringTargetsUpToDate(w.connections);
      const { source, target, type } = endpoints(w, op, false);
      const removed = removeConnections(w, source, target, type, op);
      if (removed === 0) throw new OperationError(`no ${type} connection from "${source}" to "${target}"${outputText(op)}`);
      return;
    }
    case 'rewireConnection': {
      renames.bringTargetsUpToDate(w.connections);
      const source = find(w, need(op, 'source')).name;
      const from = need(op, 'from');
      const to = find(w, need(op, 'to')).name;
      const type = op.connectionType ?? 'main';
      const output = outputIndex(op);
      let moved = 0;
      for (const targets of outputLists(w, source, type, output)) {
        for (const t of targets) {
          if (isTarget(t) && t.node === from) {
            t.node = to;
            moved++;
          }
        }
      }
      if (moved === 0) throw new OperationError(`no ${type} connection from "${source}" to "${from}"${outputText(op)} to rewire`);
      return;
    }
    case 'updateSettings': {
      if (!isPlainObject(op.settings)) throw new OperationError('updateSettings needs "settings": the settings to set, e.g. {"timezone": "Europe/Berlin"}');
      w.settings = mergeDeep(isPlainObject(w.settings) ? w.settings : {}, op.settings);
      return;
    }
    case 'updateName': {
      const name = need(op, 'name');
      w.name = name;
      return;
    }
    case 'addTag':
    case 'removeTag': {
      const tag = need(op, 'tag');
      const [into, from] = op.type === 'addTag' ? [edit.tags.add, edit.tags.remove] : [edit.tags.remove, edit.tags.add];
      if (from.includes(tag)) from.splice(from.indexOf(tag), 1);
      if (!into.includes(tag)) into.push(tag);
      return;
    }
    case 'activate':
    case 'deactivate':
      edit.activation = op.type;
      return;
    default:
      throw new OperationError(`unknown operation type "${(op as { type: unknown }).type}"; known: ${OPERATION_TYPES.join(', ')}`);
  }
}

function need(op: Operation, field: 'name' | 'newName' | 'source' | 'target' | 'from' | 'to' | 'tag' | 'path'): string {
  const value = op[field];
  if (typeof value !== 'string' || value === '') throw new OperationError(`${op.type} needs "${field}"`);
  return value;
}

const isNode = (n: unknown): n is Node => isPlainObject(n) && typeof n.name === 'string';

function find(w: EditedWorkflow['workflow'], name: string, required?: true): Node;
function find(w: EditedWorkflow['workflow'], name: string, required: false): Node | undefined;
function find(w: EditedWorkflow['workflow'], name: string, required = true): Node | undefined {
  const node = w.nodes.find((n): n is Node => isNode(n) && n.name === name);
  if (!node && required) {
    const names = w.nodes
      .filter(isNode)
      .map((n) => `"${n.name}"`)
      .slice(0, 30)
      .join(', ');
    throw new OperationError(`no node named "${name}"${names ? `; the nodes are ${names}` : ''}`);
  }
  return node;
}

/** The output an operation means: `branch` for IF (true 0, false 1), `case` for Switch, else `sourceOutput`. */
function outputIndex(op: Operation): number | undefined {
  if (op.branch !== undefined) {
    if (op.branch !== 'true' && op.branch !== 'false') throw new OperationError('"branch" is "true" or "false"');
    return op.branch === 'true' ? 0 : 1;
  }
  if (op.case !== undefined) {
    if (!Number.isInteger(op.case) || op.case < 0) throw new OperationError('"case" is a Switch output index: 0, 1, …');
    return op.case;
  }
  if (op.sourceOutput !== undefined && (!Number.isInteger(op.sourceOutput) || op.sourceOutput < 0))
    throw new OperationError('"sourceOutput" is an output index: 0, 1, …');
  return op.sourceOutput;
}

function endpoints(w: EditedWorkflow['workflow'], op: Operation, exist = true) {
  const source = exist ? find(w, need(op, 'source')).name : need(op, 'source');
  const target = exist ? find(w, need(op, 'target')).name : need(op, 'target');
  const input = op.targetInput ?? 0;
  if (!Number.isInteger(input) || input < 0) throw new OperationError('"targetInput" is an input index: 0, 1, …');
  return { source, target, type: op.connectionType ?? 'main', output: outputIndex(op) ?? 0, input };
}

/** The list of targets of one output, made where it is missing; one of the wrong shape is not written over. */
function targetListFor(w: EditedWorkflow['workflow'], source: string, type: string, output: number): unknown[] {
  const at = `connections["${source}"]`;
  const byType = (w.connections[source] ??= dict());
  if (!isDict(byType)) throw new OperationError(`${at} is not an object keyed by connection type, so no connection can be added to it`);
  const outputs = (byType[type] ??= []);
  if (!Array.isArray(outputs)) throw new OperationError(`${at}.${type} is not a list of outputs`);
  while (outputs.length <= output) outputs.push([]);
  const list = (outputs[output] ??= []);
  if (!Array.isArray(list)) throw new OperationError(`${at}.${type}[${output}] is not a list of targets`);
  return list;
}

/** The source's lists of targets of this type (only `output`'s when given). */
function outputLists(w: EditedWorkflow['workflow'], source: string, type: string, output: number | undefined): unknown[][] {
  const byType = w.connections[source];
  const outputs = isDict(byType) ? byType[type] : undefined;
  if (!Array.isArray(outputs)) return [];
  return outputs.filter((targets, i): targets is unknown[] => Array.isArray(targets) && (output === undefined || i === output));
}

function removeConnections(w: EditedWorkflow['workflow'], source: string, target: string, type: string, op: Operation): number {
  const byType = w.connections[source];
  const outputs = isDict(byType) ? byType[type] : undefined;
  if (!Array.isArray(outputs)) return 0;
  const output = outputIndex(op);
  let removed = 0;
  outputs.forEach((targets, i) => {
    if (!Array.isArray(targets) || (output !== undefined && i !== output)) return;
    outputs[i] = targets.filter((t) => {
      const match = isTarget(t) && t.node === target && (op.targetInput === undefined || t.index === op.targetInput);
      if (match) removed++;
      return !match;
    });
  });
  return removed;
}

const outputText = (op: Operation) => (outputIndex(op) === undefined ? '' : ` on output ${outputIndex(op)}`);

/** Whether a connection goes into the node named `name`. */
const into = (name: string) => (t: unknown) => isTarget(t) && t.node === name;

/** Every list of targets, replaced by what `change` makes of it. */
function forEachTargets(connections: ConnectionMap, change: (targets: unknown[]) => unknown[]): void {
  for (const byType of Object.values(connections)) {
    if (!isDict(byType)) continue;
    for (const outputs of Object.values(byType)) {
      if (!Array.isArray(outputs)) continue;
      for (let i = 0; i < outputs.length; i++) if (Array.isArray(outputs[i])) outputs[i] = change(outputs[i]);
    }
  }
}

/**
 * Objects merge key by key; null removes a key; anything else, lists included, replaces what was there.
 * A list is replaced whole, not merged entry by entry (no rule pairs entries without ids): the JSON
 * Pointer of each list that stood where a new one went is added to `replacedLists`, for the answer.
 */
export function mergeDeep(base: Values, changes: Values, replacedLists?: string[], at = ''): Values {
  const out: Values = { ...base };
  for (const [key, value] of Object.entries(changes)) {
    const current = own(out, key);
    const path = `${at}/${escapeToken(key)}`;
    if (value === null) deleteOwn(out, key);
    else if (isPlainObject(value) && isPlainObject(current)) setOwn(out, key, mergeDeep(current, value, replacedLists, path));
    else {
      if (Array.isArray(current) && Array.isArray(value)) replacedLists?.push(path);
      setOwn(out, key, structuredClone(value));
    }
  }
  return out;
}

/**
 * A copy of `root` with `value` put at the JSON Pointer `pointer` (RFC 6901: `/a/0/b`, `~1` for a `/` in
 * a name, `~0` for `~`; `-` is the end of a list). Objects missing on the way are made; a list index must
 * exist, or be the list's length (or `-`) to append. null removes the member, or takes the entry out of
 * its list. The parameters as a whole are changed with updateNode, not here.
 */
function setAtPointer(root: Values, pointer: string, value: unknown): Values {
  if (!pointer.startsWith('/')) throw new OperationError(`"path" is a JSON Pointer into the node's parameters, starting with "/": "/${pointer}"?`);
  const tokens = pointerTokens(pointer);
  const out = structuredClone(root);
  let container: Values | unknown[] = out;
  for (const [i, token] of tokens.entries()) {
    const here = `/${tokens
      .slice(0, i + 1)
      .map(escapeToken)
      .join('/')}`;
    const last = i === tokens.length - 1;
    if (Array.isArray(container)) {
      const index = token === '-' ? container.length : /^(0|[1-9]\d*)$/.test(token) ? Number(token) : NaN;
      if (!(index <= container.length) || (!last && index === container.length)) {
        throw new OperationError(
          `${here}: the list has ${container.length} entries; an index is 0 to ${container.length - 1}${last ? `, or ${container.length} or "-" to append` : ''}`,
        );
      }
      if (last) {
        if (value === null) container.splice(index, 1);
        else container[index] = structuredClone(value);
        return out;
      }
      container = descend(container[index], here);
    } else if (last) {
      if (value === null) deleteOwn(container, token);
      else setOwn(container, token, structuredClone(value));
      return out;
    } else {
      const next = own(container, token);
      if (next === undefined) setOwn(container, token, {});
      container = descend(own(container, token), here);
    }
  }
  return out;
}

/** The object or list at `here` on the way down a pointer; anything else cannot hold what comes after it. */
function descend(value: unknown, here: string): Values | unknown[] {
  if (isPlainObject(value) || Array.isArray(value)) return value;
  throw new OperationError(`${here} is ${describe(value)}, not an object or a list, so nothing can be set inside it`);
}

/** Right of the rightmost node, so an added node does not land on another. */
function nextPosition(w: EditedWorkflow['workflow']): [number, number] {
  const positions = w.nodes
    .map((n) => (isPlainObject(n) ? n.position : undefined))
    .filter((p): p is [number, number] => Array.isArray(p) && typeof p[0] === 'number');
  if (positions.length === 0) return [0, 0];
  const right = positions.reduce((a, b) => (b[0] > a[0] ? b : a));
  return [right[0] + 220, right[1]];
}
