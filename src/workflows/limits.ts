/**
 * What one call of the workflow tools may carry, checked before any rule runs: past these, a call is
 * refused with the limit named, instead of running for seconds or answering megabytes. The values are
 * about ten times the largest seen in real workflows: the 2,061 community workflows of
 * github.com/Zie619/n8n-workflows and the 40 of test/fixtures/workflows. bench/hostileWorkflows.ts
 * measures the worst a call can cost within them. Pure: a value in, a sentence or null out.
 */
import { own } from '../lib/ownKeys';
import { clip } from './findings';

export const LIMITS = {
  /** Nodes in a workflow (largest real: 246). */
  nodes: 2_500,
  /** Connections, one per target (largest real: 305). */
  connections: 5_000,
  /**
   * Characters in a name: of a node, of a connection's source, target or type, of a parameter or any
   * other key (largest real: 87, a node's). Findings quote names, so this bounds an answer's size.
   */
  nameLength: 1_000,
  /** Characters in any other text: a parameter's value, a Code node's code (largest real: 137,714). */
  textLength: 1_500_000,
  /** Objects and lists within each other, from the workflow down (largest real: 14). */
  depth: 150,
  /**
   * Values (texts, numbers, objects, lists…) in a workflow's nodes and connections, at any depth: what
   * the rules go through one by one (largest real: 5,382; a request's 4 MiB could hold two million).
   * Room for the nodes and connections above with as many values each as the largest real workflow's.
   */
  values: 100_000,
} as const;

const count = (n: number) => n.toLocaleString('en-US');

/** Where a value sits, kept as a chain so that a path is spelt out only for the value a message names. */
interface Place {
  parent: Place | null;
  key: string | number;
}

function pathOf(place: Place | null): string {
  const parts: string[] = [];
  for (let at = place; at; at = at.parent) parts.push(typeof at.key === 'number' ? `[${at.key}]` : `.${clip(at.key, 40)}`);
  return parts.reverse().join('').slice(1) || 'the workflow';
}

/** An object or list being walked: its keys (none for a list), the next one to look at, and whether its values count. */
interface Frame {
  container: object;
  keys: string[] | null;
  next: number;
  place: Place | null;
  depth: number;
  counted: boolean;
}

/** What a walk is told about the value it walks. */
interface Rules {
  /** How messages name the value: "This workflow", "The node", "The operations"; and where its values count. */
  what: string;
  where: string;
  /** Which texts are names (held to nameLength, not textLength). */
  isName(place: Place): boolean;
  /** Where the values start that count towards LIMITS.values (those the rules will go through). */
  counts(place: Place | null): boolean;
}

/**
 * The first text, key, nesting or count of values in `value` past its limit. Walked with a stack of
 * the objects and lists it is in, not recursion (a value may be nested deeper than the call stack
 * goes), and without a copy of a long list.
 */
function overLimit(value: unknown, root: Place | null, rules: Rules): string | null {
  const frames: Frame[] = [];
  let values = 0;
  const visit = (v: unknown, place: Place | null, depth: number, counted: boolean): string | null => {
    if (counted && ++values > LIMITS.values)
      return `${rules.what} holds more than ${count(LIMITS.values)} values (texts, numbers, objects, lists…) ${rules.where}; the tools check at most ${count(LIMITS.values)}.`;
    if (typeof v === 'string') {
      if (place && rules.isName(place)) {
        return v.length > LIMITS.nameLength
          ? `The name at ${pathOf(place)} is ${count(v.length)} characters long; the tools take names of at most ${count(LIMITS.nameLength)}.`
          : null;
      }
      return v.length > LIMITS.textLength
        ? `The text at ${pathOf(place)} is ${count(v.length)} characters long; the tools take texts of at most ${count(LIMITS.textLength)}.`
        : null;
    }
    if (typeof v !== 'object' || v === null) return null;
    if (depth >= LIMITS.depth)
      return `${pathOf(place)} holds objects and lists more than ${count(LIMITS.depth)} deep within each other; the tools take at most ${count(LIMITS.depth)}.`;
    frames.push({ container: v, keys: Array.isArray(v) ? null : Object.keys(v), next: 0, place, depth, counted });
    return null;
  };
  let problem = visit(value, root, 0, rules.counts(root));
  while (problem === null && frames.length > 0) {
    const frame = frames.at(-1)!;
    const list = Array.isArray(frame.container) ? (frame.container as unknown[]) : null;
    if (frame.next >= (frame.keys ?? list!).length) {
      frames.pop();
      continue;
    }
    const i = frame.next++;
    const key = frame.keys ? frame.keys[i]! : i;
    if (typeof key === 'string' && key.length > LIMITS.nameLength) {
      return `A key in ${pathOf(frame.place)} is ${count(key.length)} characters long; the tools take names and keys of at most ${count(LIMITS.nameLength)}.`;
    }
    const place = { parent: frame.place, key };
    problem = visit(typeof key === 'string' ? own(frame.container, key) : list![key], place, frame.depth + 1, frame.counted || rules.counts(place));
  }
  return problem;
}

/** `nodes[i].name` and `nodes[i].type` of a workflow. */
const isNodeName = (place: Place): boolean =>
  (place.key === 'name' || place.key === 'type') && place.parent?.parent?.key === 'nodes' && place.parent.parent.parent === null;

/** `connections[source][type][output][k].node` of a workflow. */
function isTargetName(place: Place): boolean {
  let at: Place | null = place;
  for (let up = 0; up < 5 && at; up++) at = at.parent;
  return place.key === 'node' && at?.key === 'connections' && at.parent === null;
}

const WORKFLOW: Rules = {
  what: 'This workflow',
  where: 'in its nodes and connections',
  isName: (place) => isNodeName(place) || isTargetName(place),
  counts: (place) => place !== null && place.parent === null && (place.key === 'nodes' || place.key === 'connections'),
};

/**
 * Whether a workflow is within LIMITS: null, or a sentence naming the limit, its value and what the
 * workflow has ("This workflow has 25,000 nodes; the tools check at most 2,500."). `what` names it.
 */
export function workflowOverLimit(workflow: unknown, what = WORKFLOW.what): string | null {
  if (typeof workflow !== 'object' || workflow === null || Array.isArray(workflow)) return null;
  const { nodes, connections } = workflow as { nodes?: unknown; connections?: unknown };
  if (Array.isArray(nodes) && nodes.length > LIMITS.nodes) return `${what} has ${count(nodes.length)} nodes; the tools check at most ${count(LIMITS.nodes)}.`;
  const targets = connectionCount(connections);
  if (targets > LIMITS.connections) return `${what} has ${count(targets)} connections; the tools check at most ${count(LIMITS.connections)}.`;
  return overLimit(workflow, null, { ...WORKFLOW, what });
}

/** A single node (validate_node): its name, type, every text and key, and its values within LIMITS. */
export function nodeOverLimit(node: unknown): string | null {
  return overLimit(node, null, {
    what: 'The node',
    where: 'in all',
    isName: (place) => place.parent === null && (place.key === 'name' || place.key === 'type'),
    counts: () => true,
  });
}

/** Any other value a call carries (edit_workflow's operations), held to LIMITS alike. */
export function valueOverLimit(value: unknown, name: string): string | null {
  return overLimit(value, { parent: null, key: name }, { what: `The ${name}`, where: 'in all', isName: () => false, counts: () => true });
}

/** Connections one per target, as LIMITS counts them; shapes that are not lists count nothing. */
function connectionCount(connections: unknown): number {
  let n = 0;
  if (typeof connections !== 'object' || connections === null) return 0;
  for (const byType of Object.values(connections)) {
    if (typeof byType !== 'object' || byType === null) continue;
    for (const outputs of Object.values(byType)) {
      if (!Array.isArray(outputs)) continue;
      for (const targets of outputs) if (Array.isArray(targets)) n += targets.length;
    }
  }
  return n;
}
