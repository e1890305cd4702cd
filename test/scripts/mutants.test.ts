import { describe, expect, it } from 'vitest';
import { edges, generateMutants, MUTANT_KINDS, nodeReferences, type MutantKind, type MutationOracle, type Wf, type WfNode } from '../../scripts/eval/workflows/mutants';

/** A tiny hand-written workflow: trigger → HTTP Request → IF → AI Agent, a chat model feeding the agent, a sticky note. */
const workflow: Wf = {
  name: 'tiny',
  nodes: [
    { id: 'a1', name: 'Manual Trigger', type: 'n8n-nodes-base.manualTrigger', typeVersion: 1, position: [0, 0], parameters: {} },
    {
      id: 'a2',
      name: 'HTTP Request',
      type: 'n8n-nodes-base.httpRequest',
      typeVersion: 4.2,
      position: [200, 0],
      parameters: { method: 'GET', url: "={{ $('Manual Trigger').item.json.url }}" },
    },
    { id: 'a3', name: 'IF', type: 'n8n-nodes-base.if', typeVersion: 2, position: [400, 0], parameters: {} },
    { id: 'a4', name: 'AI Agent', type: '@n8n/n8n-nodes-langchain.agent', typeVersion: 1.7, position: [600, 0], parameters: { text: 'plain text' } },
    { id: 'a5', name: 'Chat Model', type: '@n8n/n8n-nodes-langchain.lmChatOpenAi', typeVersion: 1, position: [600, 200], parameters: {} },
    { id: 'a6', name: 'Note', type: 'n8n-nodes-base.stickyNote', typeVersion: 1, position: [0, 300], parameters: { content: '={{ not an expression }}' } },
  ],
  connections: {
    'Manual Trigger': { main: [[{ node: 'HTTP Request', type: 'main', index: 0 }]] },
    'HTTP Request': { main: [[{ node: 'IF', type: 'main', index: 0 }]] },
    IF: { main: [[{ node: 'AI Agent', type: 'main', index: 0 }], []] },
    'Chat Model': { ai_languageModel: [[{ node: 'AI Agent', type: 'ai_languageModel', index: 0 }]] },
  },
};

/** A simple stand-in for n8n's logic: a fixed table per type. */
const TABLE: Record<string, { max: number; inputs: number; outputs: number; required?: string[]; options?: Record<string, string[]>; needsModel?: boolean }> = {
  'n8n-nodes-base.manualTrigger': { max: 1, inputs: 0, outputs: 1 },
  'n8n-nodes-base.httpRequest': { max: 4.2, inputs: 1, outputs: 1, required: ['url'], options: { method: ['GET', 'POST'] } },
  'n8n-nodes-base.if': { max: 2.2, inputs: 1, outputs: 2 },
  '@n8n/n8n-nodes-langchain.agent': { max: 1.9, inputs: 1, outputs: 1, needsModel: true },
  '@n8n/n8n-nodes-langchain.lmChatOpenAi': { max: 1.2, inputs: 0, outputs: 0 },
  'n8n-nodes-base.stickyNote': { max: 1, inputs: 0, outputs: 0 },
};
const oracle: MutationOracle = {
  maxVersion: (type) => TABLE[type]?.max,
  removableRequired: (node: WfNode) => (TABLE[node.type]?.required ?? []).filter((p) => node.parameters?.[p] !== undefined),
  optionParameters: (node: WfNode) => Object.entries(TABLE[node.type]?.options ?? {}).map(([name, values]) => ({ name, values })),
  mainOutputs: (node) => TABLE[node.type]?.outputs,
  mainInputs: (node) => TABLE[node.type]?.inputs,
  requiresLanguageModel: (node) => TABLE[node.type]?.needsModel === true,
};

/** Paths of the leaves that differ between two JSON values. */
function leafDiff(a: unknown, b: unknown, path = ''): string[] {
  if (typeof a === 'object' && a !== null && typeof b === 'object' && b !== null && Array.isArray(a) === Array.isArray(b)) {
    const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
    return [...keys].flatMap((k) => leafDiff((a as any)[k], (b as any)[k], `${path}.${k}`));
  }
  return JSON.stringify(a) === JSON.stringify(b) ? [] : [path];
}

const edgeKey = (e: ReturnType<typeof edges>[number]) => `${e.from}|${e.type}|${e.output}|${e.to}|${e.toType}|${e.input}`;

/** What a mutant changed: per node (by position) the leaf paths; nodes added; connections added and removed. */
function change(mutant: Wf) {
  const before = new Set(edges(workflow.connections).map(edgeKey));
  const after = new Set(edges(mutant.connections).map(edgeKey));
  const common = Math.min(workflow.nodes.length, mutant.nodes.length);
  const nodeDiffs: { index: number; paths: string[] }[] = [];
  // A node inserted in the middle: compare each original node with its match by id in the mutant.
  if (mutant.nodes.length === workflow.nodes.length) {
    for (let i = 0; i < common; i++) {
      const paths = leafDiff(workflow.nodes[i], mutant.nodes[i]);
      if (paths.length) nodeDiffs.push({ index: i, paths });
    }
  }
  return {
    nodeDiffs,
    addedNodes: mutant.nodes.filter((n) => !workflow.nodes.some((o) => o.id === n.id)),
    removedNodes: workflow.nodes.filter((o) => !mutant.nodes.some((n) => n.id === o.id)),
    addedEdges: [...after].filter((k) => !before.has(k)),
    removedEdges: [...before].filter((k) => !after.has(k)),
  };
}

const snapshot = JSON.stringify(workflow);
const mutants = generateMutants(workflow, oracle, { seed: 7, id: 'tiny' });
const only = (kind: MutantKind) => {
  const found = mutants.filter((m) => m.kind === kind);
  expect(found).toHaveLength(1);
  return { ...found[0]!, ...change(found[0]!.workflow) };
};
const names = workflow.nodes.map((n) => n.name);

describe('workflow mutants', () => {
  it('makes one mutant of every kind for a workflow that allows each, and leaves the original alone', () => {
    expect(mutants.map((m) => m.kind).sort()).toEqual([...MUTANT_KINDS].sort());
    expect(JSON.stringify(workflow)).toBe(snapshot);
    for (const m of mutants) {
      expect(m.node).not.toBe('Note');
      expect(m.description.length).toBeGreaterThan(0);
    }
  });

  it('is deterministic for a seed and workflow id', () => {
    expect(JSON.stringify(generateMutants(workflow, oracle, { seed: 7, id: 'tiny' }))).toBe(JSON.stringify(mutants));
  });

  it('unknown node type: only that node’s type changes, to one n8n does not know', () => {
    const m = only('unknown_node_type');
    expect(m.nodeDiffs).toHaveLength(1);
    expect(m.nodeDiffs[0]!.paths).toEqual(['.type']);
    const node = m.workflow.nodes[m.nodeDiffs[0]!.index]!;
    expect(node.name).toBe(m.node);
    expect(oracle.maxVersion(node.type)).toBeUndefined();
    expect([m.addedEdges, m.removedEdges, m.addedNodes]).toEqual([[], [], []]);
  });

  it('typeVersion too high: only typeVersion changes, above the highest version', () => {
    const m = only('type_version_too_high');
    expect(m.nodeDiffs).toHaveLength(1);
    expect(m.nodeDiffs[0]!.paths).toEqual(['.typeVersion']);
    const node = m.workflow.nodes[m.nodeDiffs[0]!.index]!;
    expect(node.typeVersion!).toBeGreaterThan(oracle.maxVersion(node.type)!);
    expect([m.addedEdges, m.removedEdges, m.addedNodes]).toEqual([[], [], []]);
  });

  it('dangling connection: one connection added, to a name not in the workflow', () => {
    const m = only('dangling_connection');
    expect(m.nodeDiffs).toEqual([]);
    expect(m.removedEdges).toEqual([]);
    expect(m.addedEdges).toHaveLength(1);
    const [from, , , to] = m.addedEdges[0]!.split('|');
    expect(from).toBe(m.node);
    expect(names).not.toContain(to);
  });

  it('duplicate node name: one node added whose name another node has', () => {
    const m = only('duplicate_node_name');
    expect(m.addedNodes).toHaveLength(1);
    expect(m.removedNodes).toEqual([]);
    expect(m.addedNodes[0]!.name).toBe(m.node);
    expect(m.workflow.nodes.filter((n) => n.name === m.node)).toHaveLength(2);
    expect([m.addedEdges, m.removedEdges]).toEqual([[], []]);
  });

  it('bad option value: one options parameter set outside its list', () => {
    const m = only('bad_option_value');
    expect(m.nodeDiffs).toEqual([{ index: 1, paths: ['.parameters.method'] }]);
    expect(['GET', 'POST']).not.toContain(m.workflow.nodes[1]!.parameters!.method);
    expect([m.addedEdges, m.removedEdges, m.addedNodes]).toEqual([[], [], []]);
  });

  it('broken expression: one expression string left with unbalanced {{ }}', () => {
    const m = only('broken_expression');
    expect(m.nodeDiffs).toHaveLength(1);
    expect(m.nodeDiffs[0]!.paths).toHaveLength(1);
    const [path] = m.nodeDiffs[0]!.paths;
    const value = path!.split('.').slice(1).reduce((at: any, k) => at[k], m.workflow.nodes[m.nodeDiffs[0]!.index]) as string;
    expect(value.startsWith('=')).toBe(true);
    expect(value.split('{{').length).not.toBe(value.split('}}').length);
    expect([m.addedEdges, m.removedEdges, m.addedNodes]).toEqual([[], [], []]);
  });

  it('reference to a missing node: one $(…) name changed to a node that does not exist', () => {
    const m = only('missing_node_reference');
    expect(m.nodeDiffs).toEqual([{ index: 1, paths: ['.parameters.url'] }]);
    const refs = nodeReferences(m.workflow.nodes[1]!.parameters!.url as string);
    expect(refs).toHaveLength(1);
    expect(names).not.toContain(refs[0]!.name);
    expect([m.addedEdges, m.removedEdges, m.addedNodes]).toEqual([[], [], []]);
  });

  it('required parameter removed: exactly that parameter is gone', () => {
    const m = only('required_parameter_removed');
    expect(m.nodeDiffs).toEqual([{ index: 1, paths: ['.parameters.url'] }]);
    expect('url' in m.workflow.nodes[1]!.parameters!).toBe(false);
    expect([m.addedEdges, m.removedEdges, m.addedNodes]).toEqual([[], [], []]);
  });

  it('AI model connected as main: the ai_languageModel connection becomes a main one', () => {
    const m = only('ai_model_as_main');
    expect(m.nodeDiffs).toEqual([]);
    expect(m.removedEdges).toEqual(['Chat Model|ai_languageModel|0|AI Agent|ai_languageModel|0']);
    expect(m.addedEdges).toEqual(['Chat Model|main|0|AI Agent|main|0']);
    expect(m.node).toBe('Chat Model');
  });

  it('agent without a model: the agent’s language-model connection is removed, nothing else', () => {
    const m = only('agent_without_model');
    expect(m.nodeDiffs).toEqual([]);
    expect(m.addedEdges).toEqual([]);
    expect(m.removedEdges).toEqual(['Chat Model|ai_languageModel|0|AI Agent|ai_languageModel|0']);
    expect(m.node).toBe('AI Agent');
  });

  it('output index out of range: one connection from an output the node does not have', () => {
    const m = only('output_index_out_of_range');
    expect(m.nodeDiffs).toEqual([]);
    expect(m.removedEdges).toEqual([]);
    expect(m.addedEdges).toHaveLength(1);
    const [from, type, output, to] = m.addedEdges[0]!.split('|');
    expect(from).toBe(m.node);
    expect(type).toBe('main');
    expect(names).toContain(to);
    expect(Number(output)).toBeGreaterThanOrEqual(TABLE[workflow.nodes.find((n) => n.name === from)!.type]!.outputs);
  });

  it('node connected to itself: one main connection from a node to itself', () => {
    const m = only('self_connection');
    expect(m.nodeDiffs).toEqual([]);
    expect(m.removedEdges).toEqual([]);
    expect(m.addedEdges).toEqual([`${m.node}|main|0|${m.node}|main|0`]);
    expect(TABLE[workflow.nodes.find((n) => n.name === m.node)!.type]!.inputs).toBeGreaterThan(0);
  });

  it('makes no mutant where the defect would not be genuine', () => {
    const plain: Wf = { nodes: [workflow.nodes[0]!, workflow.nodes[2]!], connections: { 'Manual Trigger': { main: [[{ node: 'IF', type: 'main', index: 0 }]] } } };
    const kinds = generateMutants(plain, oracle, { seed: 1 }).map((m) => m.kind);
    for (const k of ['bad_option_value', 'broken_expression', 'missing_node_reference', 'required_parameter_removed', 'ai_model_as_main', 'agent_without_model'] as const) {
      expect(kinds).not.toContain(k);
    }
    // A node n8n does not know gets no type, version, connection or output mutant: only a duplicate.
    const unknown: Wf = { nodes: [{ name: 'X', type: 'n8n-nodes-base.nope', typeVersion: 1, parameters: {} }], connections: {} };
    expect(generateMutants(unknown, oracle, { seed: 1 }).map((m) => m.kind)).toEqual(['duplicate_node_name']);
  });
});
