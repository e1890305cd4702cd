/**
 * A workflow as the view reads it from a tool's arguments or answer: n8n's own JSON (nodes with their
 * positions, connections by source node, output type and index), taken leniently, since any tool's
 * answer may hold a workflow cut short or an agent's draft; what cannot be drawn is left out.
 */

export interface ViewNode {
  name: string;
  type: string;
  typeVersion?: number;
  /** Top-left corner on n8n's canvas. */
  position: [number, number];
  parameters: Record<string, unknown>;
  disabled: boolean;
  notes?: string;
}

/** One connection: an output (its type, `main` or an AI port, and index) of one node to an input of another. */
export interface ViewEdge {
  from: string;
  type: string;
  output: number;
  to: string;
  input: number;
}

export interface ViewWorkflow {
  id?: string;
  name?: string;
  nodes: ViewNode[];
  edges: ViewEdge[];
}

export const STICKY_NOTE = 'n8n-nodes-base.stickyNote';

/** `value` as an object with fields, if it is one (not an array): how the view reads JSON it did not write. */
export const record = (value: unknown): Record<string, unknown> | undefined =>
  typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;

const finite = (value: unknown): number => (typeof value === 'number' && Number.isFinite(value) ? value : 0);

/** A workflow in `value`, or undefined when it holds no nodes list. */
export function readWorkflow(value: unknown): ViewWorkflow | undefined {
  const workflow = record(value);
  if (!workflow || !Array.isArray(workflow.nodes)) return undefined;
  const nodes: ViewNode[] = [];
  const names = new Set<string>();
  for (const item of workflow.nodes) {
    const node = record(item);
    if (!node || typeof node.name !== 'string' || names.has(node.name)) continue;
    names.add(node.name);
    const position = Array.isArray(node.position) ? node.position : [];
    nodes.push({
      name: node.name,
      type: typeof node.type === 'string' ? node.type : '',
      ...(typeof node.typeVersion === 'number' ? { typeVersion: node.typeVersion } : {}),
      position: [finite(position[0]), finite(position[1])],
      parameters: record(node.parameters) ?? {},
      disabled: node.disabled === true,
      ...(typeof node.notes === 'string' && node.notes ? { notes: node.notes } : {}),
    });
  }
  return {
    ...(typeof workflow.id === 'string' ? { id: workflow.id } : {}),
    ...(typeof workflow.name === 'string' ? { name: workflow.name } : {}),
    nodes,
    edges: readConnections(workflow.connections, names),
  };
}

/** n8n's connection map as a list of edges between nodes that exist. */
export function readConnections(value: unknown, names: ReadonlySet<string>): ViewEdge[] {
  const edges: ViewEdge[] = [];
  for (const [from, byType] of Object.entries(record(value) ?? {})) {
    if (!names.has(from)) continue;
    for (const [type, outputs] of Object.entries(record(byType) ?? {})) {
      if (!Array.isArray(outputs)) continue;
      outputs.forEach((targets, output) => {
        if (!Array.isArray(targets)) return;
        for (const target of targets) {
          const to = record(target);
          if (!to || typeof to.node !== 'string' || !names.has(to.node)) continue;
          edges.push({ from, type, output, to: to.node, input: Math.max(0, Math.trunc(finite(to.index))) });
        }
      });
    }
  }
  return edges;
}
