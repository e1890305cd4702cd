import { describe, expect, it } from 'vitest';
import { readConnections, readWorkflow, STICKY_NOTE, type ViewEdge } from '../../src/view/workflow';
import { allFixtures, execution, fixture, type Json } from './answers';

/** Every connection of n8n's map, one per target, in n8n's own words. */
function targetsOf(connections: Json): ViewEdge[] {
  const edges: ViewEdge[] = [];
  for (const [from, byType] of Object.entries(connections))
    for (const [type, outputs] of Object.entries(byType as Json))
      (outputs as ({ node: string; index: number }[] | null)[]).forEach((targets, output) => {
        for (const target of targets ?? []) edges.push({ from, type, output, to: target.node, input: target.index });
      });
  return edges;
}

const byKey = (edges: ViewEdge[]) => edges.map((e) => `${e.from} ${e.type}[${e.output}] → ${e.to} [${e.input}]`).sort();

describe('readWorkflow on real n8n workflows', () => {
  it.each(allFixtures().map(({ file, workflow }) => [file, workflow] as const))('%s: every node and every connection', (_file, workflow) => {
    const read = readWorkflow(workflow)!;
    expect(read.nodes.map((n) => n.name)).toEqual((workflow.nodes as Json[]).map((n) => n.name));
    for (const node of workflow.nodes as Json[]) {
      const seen = read.nodes.find((n) => n.name === node.name)!;
      expect(seen).toMatchObject({
        type: node.type,
        typeVersion: node.typeVersion,
        position: node.position,
        parameters: node.parameters,
        disabled: node.disabled === true,
      });
    }
    // These fixtures connect only nodes that exist: nothing is dropped.
    expect(byKey(read.edges)).toEqual(byKey(targetsOf(workflow.connections)));
  });

  it('tells the outputs of an IF apart: true is output 0, false output 1', () => {
    const { edges } = readWorkflow(fixture('04'))!;
    expect(edges.filter((e) => e.from === 'Big Customer?')).toEqual([
      { from: 'Big Customer?', type: 'main', output: 0, to: 'Mark Priority', input: 0 },
      { from: 'Big Customer?', type: 'main', output: 1, to: 'Mark Standard', input: 0 },
    ]);
  });

  it('tells the inputs of a Merge apart (three inputs; input 1 of a two-input Merge)', () => {
    const { edges } = readWorkflow(fixture('11'))!;
    expect(
      edges
        .filter((e) => e.to === 'All Leads')
        .map((e) => [e.from, e.input])
        .sort(),
    ).toEqual([
      ['CRM Contacts', 0],
      ['Newsletter Subscribers', 1],
      ['Webinar Attendees', 2],
    ]);
    expect(edges.filter((e) => e.to === 'Attach CRM Owner').map((e) => [e.from, e.input])).toContainEqual(['CRM Contacts', 1]);
    // One output feeding several inputs: one edge each.
    expect(edges.filter((e) => e.from === 'Webhook')).toHaveLength(3);
  });

  it('keeps the AI connections with their port type', () => {
    const { edges } = readWorkflow(fixture('34'))!;
    expect(edges.filter((e) => e.to === 'Shop Assistant' && e.type !== 'main').map((e) => [e.from, e.type])).toEqual([
      ['OpenAI Chat Model', 'ai_languageModel'],
      ['Conversation Memory', 'ai_memory'],
      ['Shipping Cost', 'ai_tool'],
      ['Order Status API', 'ai_tool'],
      ['Product Search', 'ai_tool'],
    ]);
  });

  it('keeps sticky notes with their text and size, and the deactivated flag of a node', () => {
    const workflow = fixture('29');
    const read = readWorkflow(workflow)!;
    const stickies = read.nodes.filter((n) => n.type === STICKY_NOTE);
    expect(stickies.map((n) => [n.name, n.parameters.width, n.parameters.height])).toEqual([
      ['Sticky Note', 460, 200],
      ['Sticky Note1', 320, 160],
    ]);
    expect(stickies[0]!.parameters.content).toBe((workflow.nodes as Json[])[0]!.parameters.content);
    expect(read.nodes.filter((n) => n.disabled).map((n) => n.name)).toEqual(['Push To CRM']);
  });

  it('reads the workflow an execution ran (get_execution’s workflowData), with its id and name', () => {
    const run = execution('failed');
    const read = readWorkflow(run.workflowData)!;
    expect(read).toMatchObject({ id: run.workflowData.id, name: 'Execution report fixture' });
    expect(read.edges.map((e) => `${e.from}→${e.to}`)).toEqual(['Hook→Split', 'Split→Check', 'Check→Keep', 'Keep→Respond']);
  });

  it('keeps notes, and leaves out empty ones', () => {
    const workflow = fixture('03');
    (workflow.nodes as Json[])[1]!.notes = 'why this node is here';
    (workflow.nodes as Json[])[2]!.notes = '';
    const read = readWorkflow(workflow)!;
    expect(read.nodes[1]!.notes).toBe('why this node is here');
    expect(read.nodes[2]).not.toHaveProperty('notes');
  });
});

describe('readWorkflow, leniently', () => {
  it('is undefined for what holds no nodes list', () => {
    for (const value of [undefined, null, 42, 'workflow', [], {}, { nodes: 'x' }, { nodes: { a: 1 } }]) expect(readWorkflow(value)).toBeUndefined();
    expect(readWorkflow({ nodes: [] })).toEqual({ nodes: [], edges: [] });
  });

  it('skips junk nodes and a second node of the same name (the first stands)', () => {
    const workflow = fixture('01');
    const [hook, set] = workflow.nodes as Json[];
    workflow.nodes = [
      null,
      7,
      'Webhook',
      [hook],
      { type: 'n8n-nodes-base.set' },
      { name: 12 },
      hook,
      { ...set, name: hook!.name, type: 'n8n-nodes-base.code' },
      set,
    ];
    const read = readWorkflow(workflow)!;
    expect(read.nodes.map((n) => [n.name, n.type])).toEqual([
      [hook!.name, hook!.type],
      [set!.name, set!.type],
    ]);
    expect(read.edges).toHaveLength(1);
  });

  it('draws what it can of a node: no type, no position, odd numbers, parameters that are not an object', () => {
    const read = readWorkflow({
      nodes: [
        { name: 'Bare' },
        { name: 'Odd', type: 5, typeVersion: '2', position: ['1', Number.NaN], parameters: ['x'], disabled: 'yes' },
        { name: 'Far', type: 'n8n-nodes-base.noOp', position: [Infinity, -40.5] },
      ],
    })!;
    expect(read.nodes).toEqual([
      { name: 'Bare', type: '', position: [0, 0], parameters: {}, disabled: false },
      { name: 'Odd', type: '', position: [0, 0], parameters: {}, disabled: false },
      { name: 'Far', type: 'n8n-nodes-base.noOp', position: [0, -40.5], parameters: {}, disabled: false },
    ]);
    expect(read).not.toHaveProperty('id');
  });

  it('drops connections from or to nodes that do not exist, and lists n8n leaves empty or null', () => {
    const workflow = fixture('04');
    workflow.connections.Ghost = { main: [[{ node: 'Big Customer?', type: 'main', index: 0 }]] };
    workflow.connections['Mark Standard'] = {
      main: [null, [], [{ node: 'Nowhere', type: 'main', index: 0 }], 'junk', [null, 3, { node: 'EU Desk', type: 'main', index: 1.7 }]],
    };
    workflow.connections['UK Desk'] = { main: 'junk', ai_tool: null };
    const read = readWorkflow(workflow)!;
    const names = new Set(read.nodes.map((n) => n.name));
    expect(read.edges.every((e) => names.has(e.from) && names.has(e.to))).toBe(true);
    expect(read.edges.filter((e) => e.from === 'Mark Standard')).toEqual([{ from: 'Mark Standard', type: 'main', output: 4, to: 'EU Desk', input: 1 }]);
    expect(read.edges.filter((e) => e.from === 'Ghost')).toEqual([]);
  });

  it('reads an input index n8n would not write as 0 (negative, missing, not a number)', () => {
    const names = new Set(['A', 'B']);
    const edges = readConnections({ A: { main: [[{ node: 'B', index: -2 }, { node: 'B' }, { node: 'B', index: '1' }]] } }, names);
    expect(edges.map((e) => e.input)).toEqual([0, 0, 0]);
    expect(readConnections(null, names)).toEqual([]);
    expect(readConnections([], names)).toEqual([]);
  });
});
