/** A step of a workflow: its node type and the name its builder gave it ("Wait for approval"). */
export interface WorkflowNode {
  type: string;
  name: string;
}

/**
 * The nodes of the workflows in one JSON document: a workflow export (`{nodes: [...]}`), an array of
 * them, or a wrapper around either (`{workflow}`, `{workflows}`, `{data}`). Documents that hold no
 * workflow give none.
 */
export function workflowNodes(document: unknown): WorkflowNode[][] {
  if (Array.isArray(document)) return document.flatMap(workflowNodes);
  if (typeof document !== 'object' || document === null) return [];
  const record = document as Record<string, unknown>;
  if (Array.isArray(record.nodes)) {
    const nodes = record.nodes.flatMap((node) => {
      const { type, name } = (node ?? {}) as { type?: unknown; name?: unknown };
      return typeof type === 'string' && type.includes('.') ? [{ type, name: typeof name === 'string' ? name : '' }] : [];
    });
    return nodes.length > 0 ? [nodes] : [];
  }
  return ['workflow', 'workflows', 'data'].flatMap((key) => (key in record ? workflowNodes(record[key]) : []));
}

/** A workflow's node types, each once, sorted. */
export const workflowTypes = (nodes: WorkflowNode[]): string[] => [...new Set(nodes.map((n) => n.type))].sort();

/**
 * The workflows without copies: collections of templates hold the same workflow many times over
 * (in several folders, in several repositories), and a copy is not another user's choice. A copy has
 * the same nodes under the same names, wherever they sit on the canvas. Workflows known only by their
 * types (no names) cannot be told from another with the same types, and are all kept.
 */
export function distinctWorkflows(workflows: WorkflowNode[][]): WorkflowNode[][] {
  const seen = new Set<string>();
  return workflows.filter((nodes) => {
    if (nodes.every((n) => !n.name)) return true;
    const key = JSON.stringify(nodes.map((n) => `${n.type}\t${n.name}`).sort());
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/** How many workflows use each node type, most used first. */
export function countUsage(workflows: string[][]): Record<string, number> {
  return sortedCounts(workflows.flatMap((types) => types));
}

/** A sticky note's name heads a note about the steps around it, not about the note. */
const NOT_A_STEP = new Set(['n8n-nodes-base.stickyNote']);

/**
 * Per node type, the names builders give it and how many workflows use each: the words people use
 * for what a node does ("Generate UUID" for Crypto, "Take top 10" for Limit). n8n numbers copies of
 * a name ("Wait1"); that number is dropped.
 */
export function countNames(workflows: WorkflowNode[][]): Record<string, Record<string, number>> {
  const names = new Map<string, string[]>();
  for (const nodes of workflows) {
    const once = new Set(nodes.filter((n) => n.name && !NOT_A_STEP.has(n.type)).map((n) => `${n.type}\t${baseName(n.name)}`));
    for (const key of once) {
      const [type, name] = key.split('\t') as [string, string];
      if (!name) continue;
      const list = names.get(type) ?? [];
      names.set(type, list);
      list.push(name);
    }
  }
  return Object.fromEntries([...names].sort((a, b) => a[0].localeCompare(b[0])).map(([type, list]) => [type, sortedCounts(list)]));
}

const baseName = (name: string) => name.replace(/(?<=[A-Za-z)])\d+$/, '').replace(/\s+/g, ' ').trim();

function sortedCounts(values: string[]): Record<string, number> {
  const counts = new Map<string, number>();
  for (const value of values) counts.set(value, (counts.get(value) ?? 0) + 1);
  return Object.fromEntries([...counts].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0])));
}
