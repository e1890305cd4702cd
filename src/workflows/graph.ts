/**
 * The workflow's shape: something that starts it, nodes nothing reaches, loops nothing leaves. These
 * are warnings: n8n saves and runs such workflows, but they rarely do what was meant. Each check is
 * one pass over the nodes and connections, without recursion: a chain of thousands of nodes costs
 * what its length does and needs no deeper stack than a short one.
 */
import type { Connection, Endpoint } from './connections';
import { quote, type Findings } from './findings';

/** A node that starts a run: a trigger, the old Start node, or a node with no inputs and a main output. */
export function startsRun(e: Endpoint, nodeType: string | undefined): boolean {
  if (nodeType === 'TRIGGER_NODE' || e.node.type === 'n8n-nodes-base.start') return true;
  const ports = e.ports;
  return !!ports?.inputs && ports.inputs.length === 0 && !!ports.outputs?.some((p) => p.type === 'main');
}

/** Names a loop's warning lists before it says how many nodes there are in all. */
const LOOP_NAMES_SHOWN = 5;

export function checkGraph(connections: Connection[], byName: Map<string, Endpoint>, starters: Set<string>, out: Findings): void {
  const active = [...byName.values()].filter((e) => !e.node.disabled).map((e) => e.node.name);
  if (active.length === 0) return;
  if (starters.size === 0) {
    out.warning(
      null,
      'no_trigger',
      'No trigger: nothing starts this workflow. Add one (Manual Trigger to run it by hand, Webhook, Schedule Trigger, an app trigger…).',
    );
    return;
  }
  const edges = connections.filter((c) => byName.has(c.source) && byName.has(c.target) && !byName.get(c.source)!.node.disabled);
  // Data flows along connections from the triggers; a sub-node is reached when what it serves is.
  const flow = adjacency(edges.map((c) => (c.outputType === 'main' ? [c.source, c.target] : [c.target, c.source])));
  const reached = new Set([...starters, ...reach(starters, flow)]);
  for (const name of active) {
    if (!reached.has(name)) out.warning(name, 'unreachable_node', `No trigger reaches ${quote(name)}: it never runs. Connect it to the flow or remove it.`);
  }
  for (const loop of closedLoops(
    active,
    edges.filter((c) => c.outputType === 'main'),
  )) {
    const shown = loop.slice(0, LOOP_NAMES_SHOWN).map(quote).join(' → ');
    const members = loop.length > LOOP_NAMES_SHOWN ? `${shown} → … (${loop.length.toLocaleString('en-US')} nodes)` : shown;
    out.warning(loop[0]!, 'loop_without_exit', `${members} form a loop with no connection out of it: it ends only when a node in it outputs no items.`);
  }
}

/** Every node reachable from `starts` along `next`, breadth first (a start itself only when on a loop back to one). */
export function reach(starts: Iterable<string>, next: Map<string, string[]>): Set<string> {
  const seen = new Set<string>();
  const queue = [...starts];
  for (let i = 0; i < queue.length; i++) {
    for (const n of next.get(queue[i]!) ?? []) {
      if (seen.has(n)) continue;
      seen.add(n);
      queue.push(n);
    }
  }
  return seen;
}

/** Each node's next nodes, in the order of the pairs. */
export function adjacency(pairs: [string, string][]): Map<string, string[]> {
  const next = new Map<string, string[]>();
  for (const [from, to] of pairs) {
    const list = next.get(from);
    if (list) list.push(to);
    else next.set(from, [to]);
  }
  return next;
}

/**
 * Strongly connected groups of two or more nodes with no connection leaving the group: Tarjan's
 * algorithm, with an explicit stack of (node, next edge to follow) instead of recursion.
 */
function closedLoops(names: string[], edges: Connection[]): string[][] {
  const next = adjacency(edges.map((c) => [c.source, c.target]));
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const groups: string[][] = [];
  let counter = 0;
  const open = (v: string) => {
    index.set(v, counter);
    low.set(v, counter++);
    stack.push(v);
    onStack.add(v);
  };
  for (const root of names) {
    if (index.has(root)) continue;
    open(root);
    const path: { v: string; edge: number }[] = [{ v: root, edge: 0 }];
    while (path.length > 0) {
      const frame = path.at(-1)!;
      const targets = next.get(frame.v) ?? [];
      if (frame.edge < targets.length) {
        const w = targets[frame.edge++]!;
        if (!index.has(w)) {
          open(w);
          path.push({ v: w, edge: 0 });
        } else if (onStack.has(w)) low.set(frame.v, Math.min(low.get(frame.v)!, index.get(w)!));
        continue;
      }
      path.pop();
      const parent = path.at(-1);
      if (parent) low.set(parent.v, Math.min(low.get(parent.v)!, low.get(frame.v)!));
      if (low.get(frame.v) !== index.get(frame.v)) continue;
      const group: string[] = [];
      for (let w = ''; w !== frame.v;) {
        w = stack.pop()!;
        onStack.delete(w);
        group.push(w);
      }
      if (group.length > 1) groups.push(group.reverse());
    }
  }
  const groupOf = new Map(groups.flatMap((group, i) => group.map((name) => [name, i] as const)));
  const leaves = new Set(edges.filter((c) => groupOf.has(c.source) && groupOf.get(c.source) !== groupOf.get(c.target)).map((c) => groupOf.get(c.source)!));
  return groups.filter((_, i) => !leaves.has(i));
}
