/**
 * The workflow's shape: something that starts it, nodes nothing reaches, loops nothing leaves. These
 * are warnings: n8n saves and runs such workflows, but they rarely do what was meant.
 */
import type { Connection, Endpoint } from './connections';
import type { Findings } from './findings';

/** A node that starts a run: a trigger, the old Start node, or a node with no inputs and a main output. */
export function startsRun(e: Endpoint, nodeType: string | undefined): boolean {
  if (nodeType === 'TRIGGER_NODE' || e.node.type === 'n8n-nodes-base.start') return true;
  const ports = e.ports;
  return !!ports?.inputs && ports.inputs.length === 0 && !!ports.outputs?.some((p) => p.type === 'main');
}

export function checkGraph(connections: Connection[], byName: Map<string, Endpoint>, starters: Set<string>, out: Findings): void {
  const active = [...byName.values()].filter((e) => !e.node.disabled).map((e) => e.node.name);
  if (active.length === 0) return;
  if (starters.size === 0) {
    out.warning(null, 'no_trigger', 'No trigger: nothing starts this workflow. Add one (Manual Trigger to run it by hand, Webhook, Schedule Trigger, an app trigger…).');
    return;
  }
  const edges = connections.filter((c) => byName.has(c.source) && byName.has(c.target) && !byName.get(c.source)!.node.disabled);
  const reached = new Set(starters);
  // Data flows along connections from the triggers; a sub-node is reached when what it serves is.
  for (let changed = true; changed; ) {
    changed = false;
    for (const c of edges) {
      const from = c.outputType === 'main' ? c.source : c.target;
      const to = c.outputType === 'main' ? c.target : c.source;
      if (reached.has(from) && !reached.has(to)) {
        reached.add(to);
        changed = true;
      }
    }
  }
  for (const name of active) {
    if (!reached.has(name)) out.warning(name, 'unreachable_node', `No trigger reaches "${name}": it never runs. Connect it to the flow or remove it.`);
  }
  for (const loop of closedLoops(active, edges.filter((c) => c.outputType === 'main'))) {
    out.warning(loop[0]!, 'loop_without_exit', `${loop.map((n) => `"${n}"`).join(' → ')} form a loop with no connection out of it: it ends only when a node in it outputs no items.`);
  }
}

/** Strongly connected groups of two or more nodes with no connection leaving the group (Tarjan). */
function closedLoops(names: string[], edges: Connection[]): string[][] {
  const next = new Map<string, string[]>();
  for (const c of edges) next.set(c.source, [...(next.get(c.source) ?? []), c.target]);
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const groups: string[][] = [];
  let counter = 0;
  const visit = (v: string) => {
    index.set(v, counter);
    low.set(v, counter++);
    stack.push(v);
    onStack.add(v);
    for (const w of next.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) === index.get(v)) {
      const group: string[] = [];
      for (let w = ''; w !== v; ) {
        w = stack.pop()!;
        onStack.delete(w);
        group.push(w);
      }
      if (group.length > 1) groups.push(group.reverse());
    }
  };
  for (const v of names) if (!index.has(v)) visit(v);
  return groups.filter((group) => {
    const members = new Set(group);
    return !edges.some((c) => members.has(c.source) && !members.has(c.target));
  });
}
