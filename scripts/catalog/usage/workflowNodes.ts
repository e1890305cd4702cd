/** A step of a workflow: its node type and the name its builder gave it ("Wait for approval"). */
export interface WorkflowNode {
  type: string;
  name: string;
}

/**
 * The workflows in one JSON document, each as its raw "nodes" array: a workflow export (`{nodes: [...]}`),
 * an array of them, or a wrapper around either (`{workflow}`, `{workflows}`, `{data}`).
 */
export function workflowsIn(document: unknown): unknown[][] {
  if (Array.isArray(document)) return document.flatMap(workflowsIn);
  if (typeof document !== 'object' || document === null) return [];
  const record = document as Record<string, unknown>;
  if (Array.isArray(record.nodes)) return [record.nodes];
  return ['workflow', 'workflows', 'data'].flatMap((key) => (key in record ? workflowsIn(record[key]) : []));
}

/**
 * The nodes of the workflows in one JSON document (see workflowsIn). Documents that hold no workflow
 * give none.
 */
export function workflowNodes(document: unknown): WorkflowNode[][] {
  return workflowsIn(document).flatMap((raw) => {
    const nodes = raw.flatMap((node) => {
      const { type, name } = (node ?? {}) as { type?: unknown; name?: unknown };
      return typeof type === 'string' && type.includes('.') ? [{ type, name: typeof name === 'string' ? name : '' }] : [];
    });
    return nodes.length > 0 ? [nodes] : [];
  });
}

/** A node's type and name as one string, for sets of them. */
const key = (type: string, name: string) => `${type}\t${name}`;

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
    const copy = JSON.stringify(nodes.map((n) => key(n.type, n.name)).sort());
    if (seen.has(copy)) return false;
    seen.add(copy);
    return true;
  });
}

/** How many workflows use each node type, most used first. */
export function countUsage(workflows: string[][]): Record<string, number> {
  return sortedCounts(workflows.flat());
}

/** A sticky note's name heads a note about the steps around it, not about the note. */
const NOT_A_STEP = new Set(['n8n-nodes-base.stickyNote']);

/**
 * Per node type, the names builders give it and how many workflows use each: the words people use
 * for what a node does ("Generate UUID" for Crypto, "Take top 10" for Limit). n8n numbers a copy of a
 * node by appending to its name ("Wait1"); a number is taken for such a counter only where the name
 * without it is also given to that type ("Wait"), so "AWS S3" and "SIGNL4" keep theirs. Names and
 * types are ordered most used first (JSON lists names that are numbers first whatever their count).
 */
export function countNames(workflows: WorkflowNode[][]): Record<string, Record<string, number>> {
  const steps = workflows.map((nodes) => nodes.filter((n) => n.name.trim() && !NOT_A_STEP.has(n.type)));
  const given = new Set(steps.flat().map((n) => key(n.type, spaced(n.name))));
  const names = new Map<string, string[]>();
  for (const nodes of steps) {
    for (const once of new Set(nodes.map((n) => key(n.type, unnumbered(n.type, spaced(n.name), given))))) {
      const [type, name] = once.split('\t') as [string, string];
      const list = names.get(type) ?? [];
      names.set(type, list);
      list.push(name);
    }
  }
  return Object.fromEntries([...names].sort((a, b) => byText(a[0], b[0])).map(([type, list]) => [type, sortedCounts(list)]));
}

const spaced = (name: string) => name.replace(/\s+/g, ' ').trim();

function unnumbered(type: string, name: string, given: Set<string>): string {
  const bare = name.replace(/(?<=[A-Za-z)])\d+$/, '');
  return bare !== name && given.has(key(type, bare)) ? bare : name;
}

/** Counts of each value, most used first, ties in code-point order (the same on every machine). */
function sortedCounts(values: string[]): Record<string, number> {
  const counts = new Map<string, number>();
  for (const value of values) counts.set(value, (counts.get(value) ?? 0) + 1);
  return Object.fromEntries([...counts].sort((a, b) => b[1] - a[1] || byText(a[0], b[0])));
}

const byText = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
