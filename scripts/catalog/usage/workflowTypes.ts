/**
 * The node types of the workflows in one JSON document: a workflow export (`{nodes: [...]}`), an array
 * of them, or a wrapper around either (`{workflow}`, `{workflows}`, `{data}`). Each workflow's types
 * once each, sorted; documents that hold no workflow give none.
 */
export function workflowTypes(document: unknown): string[][] {
  if (Array.isArray(document)) return document.flatMap(workflowTypes);
  if (typeof document !== 'object' || document === null) return [];
  const record = document as Record<string, unknown>;
  if (Array.isArray(record.nodes)) {
    const types = record.nodes.map((node) => (node as { type?: unknown })?.type).filter((t): t is string => typeof t === 'string' && t.includes('.'));
    return types.length > 0 ? [[...new Set(types)].sort()] : [];
  }
  return ['workflow', 'workflows', 'data'].flatMap((key) => (key in record ? workflowTypes(record[key]) : []));
}

/** How many workflows use each node type, most used first. */
export function countUsage(workflows: string[][]): Record<string, number> {
  const counts = new Map<string, number>();
  for (const types of workflows) for (const type of types) counts.set(type, (counts.get(type) ?? 0) + 1);
  return Object.fromEntries([...counts].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0])));
}
