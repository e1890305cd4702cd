import { describe, expect, it } from 'vitest';
import {
  edges,
  FLOW_MUTANT_KINDS,
  generateMutants,
  letterOff,
  MUTANT_KINDS,
  nodeReferences,
  PARAMETER_MUTANT_KINDS,
  type MutantKind,
  type MutationOracle,
  type Wf,
  type WfNode,
} from '../../scripts/eval/workflows/mutants';

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

const HTML = 'n8n-nodes-base.html';
const SWITCH = 'n8n-nodes-base.switch';
const HTML_SUBFIELDS = ['key', 'cssSelector', 'returnValue', 'skipSelectors'];
const FILTER_OPERATIONS: Record<string, string[]> = { string: ['equals', 'notEquals', 'contains'], number: ['equals', 'gt', 'lt'] };
const switchOutputs = (node: WfNode) =>
  ((node.parameters?.rules as any)?.values?.length ?? 0) + ((node.parameters?.options as any)?.fallbackOutput === 'extra' ? 1 : 0);

/** A simple stand-in for n8n's logic: a fixed table per type. */
const TABLE: Record<string, { max: number; inputs: number; outputs: number; required?: string[]; options?: Record<string, string[]>; needsModel?: boolean }> = {
  'n8n-nodes-base.manualTrigger': { max: 1, inputs: 0, outputs: 1 },
  'n8n-nodes-base.httpRequest': { max: 4.2, inputs: 1, outputs: 1, required: ['url'], options: { method: ['GET', 'POST'] } },
  'n8n-nodes-base.if': { max: 2.2, inputs: 1, outputs: 2 },
  '@n8n/n8n-nodes-langchain.agent': { max: 1.9, inputs: 1, outputs: 1, needsModel: true },
  '@n8n/n8n-nodes-langchain.lmChatOpenAi': { max: 1.2, inputs: 0, outputs: 0 },
  'n8n-nodes-base.stickyNote': { max: 1, inputs: 0, outputs: 0 },
  'n8n-nodes-base.webhook': { max: 2.1, inputs: 0, outputs: 1 },
  'n8n-nodes-base.set': { max: 3.4, inputs: 1, outputs: 1 },
  'n8n-nodes-base.respondToWebhook': { max: 1.5, inputs: 1, outputs: 1 },
  [HTML]: { max: 1.2, inputs: 1, outputs: 1 },
  [SWITCH]: { max: 3.4, inputs: 1, outputs: 0 },
};
const oracle: MutationOracle = {
  maxVersion: (type) => TABLE[type]?.max,
  removableRequired: (node: WfNode) => (TABLE[node.type]?.required ?? []).filter((p) => node.parameters?.[p] !== undefined),
  optionParameters: (node: WfNode) => Object.entries(TABLE[node.type]?.options ?? {}).map(([name, values]) => ({ name, values })),
  mainOutputs: (node) => (node.type === SWITCH ? switchOutputs(node) : TABLE[node.type]?.outputs),
  mainInputs: (node) => TABLE[node.type]?.inputs,
  requiresLanguageModel: (node) => TABLE[node.type]?.needsModel === true,
  filterOperatorKnown: (type, operation) => ['exists', 'notExists'].includes(operation) || (FILTER_OPERATIONS[type]?.includes(operation) ?? false),
  filterCombinatorKnown: (combinator) => combinator === 'and' || combinator === 'or',
  assignmentTypeKnown: (type) => ['string', 'number', 'boolean', 'array', 'object'].includes(type),
  fixedCollectionEntries: (node) =>
    node.type === HTML
      ? ((node.parameters?.extractionValues as any)?.values ?? []).map((_: unknown, i: number) => ({
          path: ['extractionValues', 'values', i],
          subFields: HTML_SUBFIELDS,
        }))
      : [],
  removableRequiredSubFields: (node) =>
    node.type === HTML
      ? ((node.parameters?.extractionValues as any)?.values ?? []).flatMap((e: Record<string, unknown>, i: number) =>
          ['key', 'cssSelector'].filter((f) => f in e).map((name) => ({ path: ['extractionValues', 'values', i], name })),
        )
      : [],
  outputReducingChanges: (node) =>
    node.type === SWITCH && (node.parameters?.options as any)?.fallbackOutput === 'extra'
      ? [{ path: ['options', 'fallbackOutput'], value: undefined, outputs: switchOutputs(node) - 1 }]
      : [],
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
    const value = path!
      .split('.')
      .slice(1)
      .reduce((at: any, k) => at[k], m.workflow.nodes[m.nodeDiffs[0]!.index]) as string;
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

  it('reaches values under keys holding dots, spaces and brackets', () => {
    const odd: Wf = structuredClone(workflow);
    odd.nodes[1]!.parameters = { method: 'GET', url: 'https://example.com', headers: { 'a. b[0]': { "x'y": "={{ $('Manual Trigger').item.json.url }}" } } };
    const [broken] = generateMutants(odd, oracle, { seed: 1, kinds: ['broken_expression'] });
    expect((broken!.workflow.nodes[1]!.parameters!.headers as any)['a. b[0]']["x'y"]).toBe("={{ $('Manual Trigger').item.json.url ");
    const [missing] = generateMutants(odd, oracle, { seed: 1, kinds: ['missing_node_reference'] });
    expect((missing!.workflow.nodes[1]!.parameters!.headers as any)['a. b[0]']["x'y"]).toBe("={{ $('Missing Node').item.json.url }}");
  });

  it('makes no mutant where the defect would not be genuine', () => {
    const plain: Wf = {
      nodes: [workflow.nodes[0]!, workflow.nodes[2]!],
      connections: { 'Manual Trigger': { main: [[{ node: 'IF', type: 'main', index: 0 }]] } },
    };
    const kinds = generateMutants(plain, oracle, { seed: 1 }).map((m) => m.kind);
    for (const k of [
      'bad_option_value',
      'broken_expression',
      'missing_node_reference',
      'required_parameter_removed',
      'ai_model_as_main',
      'agent_without_model',
    ] as const) {
      expect(kinds).not.toContain(k);
    }
    // A node n8n does not know gets no type, version, connection or output mutant: only a duplicate.
    const unknown: Wf = { nodes: [{ name: 'X', type: 'n8n-nodes-base.nope', typeVersion: 1, parameters: {} }], connections: {} };
    expect(generateMutants(unknown, oracle, { seed: 1 }).map((m) => m.kind)).toEqual(['duplicate_node_name']);
  });
});

/** A webhook workflow with the parameters issue 30 is about: a filter, assignments, a fixed collection, a Switch fallback, a Respond node. */
const webhookWorkflow: Wf = {
  nodes: [
    {
      id: 'b1',
      name: 'Webhook',
      type: 'n8n-nodes-base.webhook',
      typeVersion: 2,
      position: [0, 0],
      parameters: { path: 'p', httpMethod: 'POST', responseMode: 'responseNode', options: {} },
    },
    {
      id: 'b2',
      name: 'Check',
      type: 'n8n-nodes-base.if',
      typeVersion: 2,
      position: [200, 0],
      parameters: {
        conditions: {
          options: { caseSensitive: true, typeValidation: 'strict' },
          conditions: [{ id: 'c1', leftValue: '={{ $json.body.email }}', rightValue: '', operator: { type: 'string', operation: 'contains' } }],
          combinator: 'and',
        },
      },
    },
    {
      id: 'b3',
      name: 'Set',
      type: 'n8n-nodes-base.set',
      typeVersion: 3.4,
      position: [400, 0],
      parameters: { assignments: { assignments: [{ id: 'a1', name: 'total', value: "={{ $('Webhook').item.json.body.amount }}", type: 'number' }] } },
    },
    {
      id: 'b4',
      name: 'HTML',
      type: HTML,
      typeVersion: 1.2,
      position: [600, 0],
      parameters: { operation: 'extractHtmlContent', extractionValues: { values: [{ key: 'title', cssSelector: 'h1' }] } },
    },
    {
      id: 'b5',
      name: 'Switch',
      type: SWITCH,
      typeVersion: 3,
      position: [800, 0],
      parameters: { rules: { values: [{ outputKey: 'a' }, { outputKey: 'b' }] }, options: { fallbackOutput: 'extra' } },
    },
    { id: 'b6', name: 'Respond', type: 'n8n-nodes-base.respondToWebhook', typeVersion: 1.1, position: [1000, 0], parameters: {} },
  ],
  connections: {
    Webhook: { main: [[{ node: 'Check', type: 'main', index: 0 }]] },
    Check: { main: [[{ node: 'Set', type: 'main', index: 0 }], []] },
    Set: { main: [[{ node: 'HTML', type: 'main', index: 0 }]] },
    HTML: { main: [[{ node: 'Switch', type: 'main', index: 0 }]] },
    Switch: {
      main: [[{ node: 'Respond', type: 'main', index: 0 }], [{ node: 'Respond', type: 'main', index: 0 }], [{ node: 'Respond', type: 'main', index: 0 }]],
    },
  },
};

describe('mutants inside parameters (issue 30)', () => {
  const snapshotWebhook = JSON.stringify(webhookWorkflow);
  /** The one mutant of a kind for a seed, with what it changed. */
  const one = (kind: MutantKind, seed: number | string = 3) => {
    const [m, ...rest] = generateMutants(webhookWorkflow, oracle, { seed, id: 'webhook', kinds: [kind] });
    expect(rest).toEqual([]);
    expect(m?.kind).toBe(kind);
    const before = JSON.stringify(webhookWorkflow);
    return {
      ...m!,
      diff: m!.workflow.nodes.flatMap((n, i) => leafDiff(webhookWorkflow.nodes[i], n).map((p) => `${n.name}${p}`)),
      edgesBefore: edges(webhookWorkflow.connections).map(edgeKey),
      edgesAfter: edges(m!.workflow.connections).map(edgeKey),
      before,
    };
  };
  const value = (wf: Wf, node: string, path: (string | number)[]) =>
    path.reduce(
      (at: any, k) => at?.[k],
      wf.nodes.find((n) => n.name === node),
    );
  const seeds = Array.from({ length: 40 }, (_, i) => i);

  it('makes one mutant of every parameter kind where each is possible, and leaves the original alone', () => {
    const kinds = generateMutants(webhookWorkflow, oracle, { seed: 1, id: 'webhook', kinds: PARAMETER_MUTANT_KINDS }).map((m) => m.kind);
    expect(kinds.sort()).toEqual([...PARAMETER_MUTANT_KINDS].sort());
    expect(JSON.stringify(webhookWorkflow)).toBe(snapshotWebhook);
  });

  it('a letter off: one edit away, never the word itself or a value already taken', () => {
    let state = 1;
    const r = () => (state = (state * 48271) % 2147483647) / 2147483647;
    for (let n = 0; n < 200; n++) {
      const typo = letterOff('equals', r, new Set(['equal']));
      expect(typo).not.toBe('equals');
      expect(typo).not.toBe('equal');
      expect(Math.abs(typo.length - 'equals'.length)).toBeLessThanOrEqual(1);
    }
  });

  it('wrong filter operation: only that operation changes, to one the filter does not evaluate for its type; typos and made-up values both occur', () => {
    const hows = new Set<string>();
    for (const seed of seeds) {
      const m = one('filter_operation_wrong', seed);
      expect(m.diff).toEqual(['Check.parameters.conditions.conditions.0.operator.operation']);
      const op = value(m.workflow, 'Check', ['parameters', 'conditions', 'conditions', 0, 'operator']);
      expect(oracle.filterOperatorKnown('string', op.operation)).toBe(false);
      hows.add(m.description.includes('(typo') ? 'typo' : 'made up');
      expect(m.edgesAfter).toEqual(m.edgesBefore);
    }
    expect([...hows].sort()).toEqual(['made up', 'typo']);
  });

  it('wrong operator type: only the type changes, to one that has no such operation', () => {
    for (const seed of seeds.slice(0, 10)) {
      const m = one('filter_operator_type_wrong', seed);
      expect(m.diff).toEqual(['Check.parameters.conditions.conditions.0.operator.type']);
      expect(oracle.filterOperatorKnown(value(m.workflow, 'Check', ['parameters', 'conditions', 'conditions', 0, 'operator', 'type']), 'contains')).toBe(false);
    }
  });

  it('wrong combinator: only the combinator changes, to neither "and" nor "or"', () => {
    const m = one('filter_combinator_wrong');
    expect(m.diff).toEqual(['Check.parameters.conditions.combinator']);
    expect(['and', 'or']).not.toContain(value(m.workflow, 'Check', ['parameters', 'conditions', 'combinator']));
  });

  it('wrong assignment type: only the type changes, to one n8n does not know', () => {
    const m = one('assignment_type_wrong');
    expect(m.diff).toEqual(['Set.parameters.assignments.assignments.0.type']);
    expect(oracle.assignmentTypeKnown(value(m.workflow, 'Set', ['parameters', 'assignments', 'assignments', 0, 'type']))).toBe(false);
  });

  it('unknown fixed-collection sub-field: one key renamed to a name n8n does not read there, its value and the other keys kept', () => {
    const m = one('fixed_collection_unknown_subfield');
    const entry = value(m.workflow, 'HTML', ['parameters', 'extractionValues', 'values', 0]) as Record<string, unknown>;
    const renamed = Object.keys(entry).filter((k) => !HTML_SUBFIELDS.includes(k));
    expect(renamed).toHaveLength(1);
    expect(Object.values(entry).sort()).toEqual(['h1', 'title']);
    expect(Object.keys(entry)).toHaveLength(2);
  });

  it('required sub-field removed: exactly that sub-field is gone from its entry', () => {
    const m = one('fixed_collection_required_subfield_removed');
    expect(m.diff).toHaveLength(1);
    expect(m.diff[0]).toMatch(/^HTML\.parameters\.extractionValues\.values\.0\.(key|cssSelector)$/);
  });

  it('$json after a Webhook: ".body" dropped from one read of a body field, right after the Webhook or through $(\'Webhook\')', () => {
    const seen = new Set<string>();
    for (const seed of seeds) {
      const m = one('webhook_json_without_body', seed);
      expect(m.diff).toHaveLength(1);
      const [where] = m.diff;
      seen.add(where!);
      const after = where === 'Check.parameters.conditions.conditions.0.leftValue' ? '={{ $json.email }}' : "={{ $('Webhook').item.json.amount }}";
      expect(value(m.workflow, where!.split('.')[0]!, where!.split('.').slice(1))).toBe(after);
    }
    expect(seen.size).toBe(2);
  });

  it('$json is not mutated further on than right after the Webhook', () => {
    const later: Wf = structuredClone(webhookWorkflow);
    later.nodes[2]!.parameters = { assignments: { assignments: [{ id: 'a1', name: 'total', value: '={{ $json.body.amount }}', type: 'number' }] } };
    later.nodes[1]!.parameters = {};
    expect(generateMutants(later, oracle, { seed: 1, kinds: ['webhook_json_without_body'] })).toEqual([]);
  });

  it('Respond to Webhook no path reaches: every main connection into it removed, nothing else', () => {
    const m = one('respond_to_webhook_unreachable');
    expect(m.node).toBe('Respond');
    expect(m.diff).toEqual([]);
    expect(m.edgesAfter).toEqual(m.edgesBefore.filter((e) => !e.includes('|Respond|')));
  });

  it('an output removed by options but still wired: the fallback option removed, the connections kept', () => {
    const m = one('removed_output_wired');
    expect(m.diff).toEqual(['Switch.parameters.options.fallbackOutput']);
    expect(m.edgesAfter).toEqual(m.edgesBefore);
    expect(oracle.mainOutputs(m.workflow.nodes[4]!)).toBe(2);
    expect(m.description).toContain('output 2 still connected');
  });

  it('an output removed by options, not wired yet: wired first (to a node it feeds), then the option removed', () => {
    const unwired: Wf = structuredClone(webhookWorkflow);
    unwired.connections.Switch = { main: [[{ node: 'Respond', type: 'main', index: 0 }]] };
    const [m] = generateMutants(unwired, oracle, { seed: 1, kinds: ['removed_output_wired'] });
    expect(
      edges(m!.workflow.connections)
        .filter((e) => e.from === 'Switch')
        .map(edgeKey),
    ).toEqual(['Switch|main|0|Respond|main|0', 'Switch|main|2|Respond|main|0']);
    expect((m!.workflow.nodes[4]!.parameters!.options as Record<string, unknown>).fallbackOutput).toBeUndefined();
    expect(m!.description).toContain('that connection added first');
  });

  it('makes none of these where the defect would not be genuine', () => {
    const plain: Wf = structuredClone(webhookWorkflow);
    plain.nodes[0]!.parameters = { path: 'p', responseMode: 'lastNode' }; // no Respond node waited for
    plain.nodes[1]!.parameters = {
      conditions: { conditions: [{ leftValue: '={{ $json.email }}', operator: { type: 'string', operation: 'exists' } }], combinator: 'andd' },
    }; // exists: any type; combinator already wrong
    plain.nodes[2]!.parameters = { assignments: { assignments: [{ id: 'a1', name: 'total', value: 1, type: 'numbr' }] } }; // type already unknown
    plain.nodes[3]!.parameters = { operation: 'extractHtmlContent', extractionValues: { values: [{ returnValue: 'text' }] } }; // nothing required set
    plain.nodes[4]!.parameters = { rules: { values: [{ outputKey: 'a' }] } }; // no fallback output
    const kinds = generateMutants(plain, oracle, { seed: 1, kinds: PARAMETER_MUTANT_KINDS }).map((m) => m.kind);
    expect(kinds).toEqual(['fixed_collection_unknown_subfield']);
  });
});

describe('mutants of what flows between nodes (issue 40)', () => {
  /** The webhook workflow with a read of the Set's field ($json.total) in the HTML node it alone feeds. */
  const reading: Wf = structuredClone(webhookWorkflow);
  (reading.nodes[3]!.parameters!.extractionValues as { values: { cssSelector: string }[] }).values[0]!.cssSelector = '={{ $json.total }}';
  const snapshotReading = JSON.stringify(reading);
  const mutantOf = (wf: Wf, kind: MutantKind, seed: number) => generateMutants(wf, oracle, { seed, id: 'flow', kinds: [kind] })[0];
  const seeds = Array.from({ length: 40 }, (_, i) => i);

  it('makes one mutant of each flow kind where each is possible, and leaves the original alone', () => {
    const kinds = generateMutants(reading, oracle, { seed: 1, id: 'flow', kinds: FLOW_MUTANT_KINDS }).map((m) => m.kind);
    expect(kinds.sort()).toEqual([...FLOW_MUTANT_KINDS].sort());
    expect(JSON.stringify(reading)).toBe(snapshotReading);
  });

  it('items that run out before the Respond node: a Filter or a Split Out between the Webhook and all it fed, every other connection kept', () => {
    const types = new Set<string>();
    for (const seed of seeds) {
      const m = mutantOf(reading, 'items_run_out_before_respond', seed)!;
      types.add(m.workflow.nodes.find((n) => n.name === m.node)!.type);
      expect(m.workflow.nodes.slice(0, reading.nodes.length)).toEqual(reading.nodes);
      const before = edges(reading.connections).map(edgeKey);
      const after = edges(m.workflow.connections).map(edgeKey);
      expect(after.sort()).toEqual(
        [...before.filter((e) => !e.startsWith('Webhook|')), `Webhook|main|0|${m.node}|main|0`, `${m.node}|main|0|Check|main|0`].sort(),
      );
    }
    expect([...types].sort()).toEqual(['n8n-nodes-base.filter', 'n8n-nodes-base.splitOut']);
  });

  it('a field the node before does not put out: only that read changes, one letter off, or the request field the Set dropped right after a Webhook', () => {
    const at = (wf: Wf) => (wf.nodes[3]!.parameters!.extractionValues as { values: { cssSelector: string }[] }).values[0]!.cssSelector;
    for (const seed of seeds) {
      const m = mutantOf(reading, 'field_read_not_put_out', seed)!;
      expect(m.node).toBe('HTML');
      const read = at(m.workflow).match(/^=\{\{ \$json\.(\w+) \}\}$/)![1]!;
      expect(read).not.toBe('total');
      expect(letterOffOf(read, 'total')).toBe(true);
      expect(m.workflow.nodes.filter((n, i) => JSON.stringify(n) !== JSON.stringify(reading.nodes[i]))).toHaveLength(1);
    }
    // Right after the Webhook, half the mutants read the request's field the Set did not keep.
    const direct: Wf = structuredClone(reading);
    direct.connections.Webhook = { main: [[{ node: 'Set', type: 'main', index: 0 }]] };
    delete direct.connections.Check;
    const reads = new Set(seeds.map((seed) => at(mutantOf(direct, 'field_read_not_put_out', seed)!.workflow)));
    expect(reads).toContain('={{ $json.body.total }}');
    expect([...reads].some((r) => !r.includes('body'))).toBe(true);
  });

  it('makes none where the defect would not be genuine: a Set that keeps its input, a Webhook that answers itself', () => {
    const keeps: Wf = structuredClone(reading);
    keeps.nodes[2]!.parameters!.includeOtherFields = true;
    expect(generateMutants(keeps, oracle, { seed: 1, kinds: ['field_read_not_put_out'] })).toEqual([]);
    const answers: Wf = structuredClone(reading);
    answers.nodes[0]!.parameters!.responseMode = 'onReceived';
    expect(generateMutants(answers, oracle, { seed: 1, kinds: ['items_run_out_before_respond'] })).toEqual([]);
    // A Webhook with a second output (two methods): the node put between would have one.
    const twoMethods: Wf = structuredClone(reading);
    twoMethods.connections.Webhook = { main: [[{ node: 'Check', type: 'main', index: 0 }], [{ node: 'Check', type: 'main', index: 0 }]] };
    expect(generateMutants(twoMethods, oracle, { seed: 1, kinds: ['items_run_out_before_respond'] })).toEqual([]);
  });
});

/** Whether `a` is one edit (a letter dropped, doubled, swapped with its neighbour, or replaced) from `b`. */
function letterOffOf(a: string, b: string): boolean {
  if (Math.abs(a.length - b.length) > 1) return false;
  const [short, long] = a.length <= b.length ? [a, b] : [b, a];
  let i = 0;
  while (i < short.length && short[i] === long[i]) i++;
  if (short.length < long.length) return short.slice(i) === long.slice(i + 1);
  return short.slice(i + 1) === long.slice(i + 1) || (short[i] === long[i + 1] && short[i + 1] === long[i] && short.slice(i + 2) === long.slice(i + 2));
}
