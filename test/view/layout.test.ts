import { describe, expect, it } from 'vitest';
import { layOut, type EdgePath, type Layout, type NodeBox, type Point } from '../../src/view/layout';
import { readWorkflow, type ViewWorkflow } from '../../src/view/workflow';
import { allFixtures, fixture, type Json } from './answers';

const laidOut = (workflow: Json): { workflow: ViewWorkflow; layout: Layout } => {
  const read = readWorkflow(workflow)!;
  return { workflow: read, layout: layOut(read) };
};
const box = (layout: Layout, name: string): NodeBox => layout.boxes.get(name)!;
const shapes = (layout: Layout) => Object.fromEntries([...layout.boxes].map(([name, b]) => [name, b.shape]));

/** The two ends of an SVG path "M x y C … x y". */
function ends(path: EdgePath): [Point, Point] {
  const numbers = path.d.match(/-?\d+(\.\d+)?/g)!.map(Number);
  return [
    { x: numbers[0]!, y: numbers[1]! },
    { x: numbers.at(-2)!, y: numbers.at(-1)! },
  ];
}

const inside = (p: Point, b: { x: number; y: number; width: number; height: number }) =>
  p.x >= b.x && p.x <= b.x + b.width && p.y >= b.y && p.y <= b.y + b.height;

describe('layOut: shapes', () => {
  it('an AI agent is a root node; what feeds its AI ports are sub-nodes; its trigger is a trigger', () => {
    const { layout } = laidOut(fixture('34'));
    expect(shapes(layout)).toEqual({
      'Ask Endpoint': 'trigger',
      'Shop Assistant': 'root',
      'OpenAI Chat Model': 'subnode',
      'Conversation Memory': 'subnode',
      'Shipping Cost': 'subnode',
      'Order Status API': 'subnode',
      'Product Search': 'subnode',
      Reply: 'node',
    });
    const agent = box(layout, 'Shop Assistant');
    expect(agent.width).toBeGreaterThan(box(layout, 'Reply').width);
    // One AI input per port type, along its bottom edge, in the order they are first connected.
    expect([...agent.aiInputs.keys()]).toEqual(['ai_languageModel', 'ai_memory', 'ai_tool']);
    for (const port of agent.aiInputs.values()) {
      expect(port.y).toBe(agent.y + agent.height);
      expect(port.x).toBeGreaterThan(agent.x);
      expect(port.x).toBeLessThan(agent.x + agent.width);
    }
    const model = box(layout, 'OpenAI Chat Model');
    expect(model.width).toBe(model.height);
    expect(model.aiOutput).toEqual({ x: model.x + model.width / 2, y: model.y });
    expect(model.inputs).toEqual([]);
    expect(model.outputs).toEqual([]);
  });

  it('a RAG workflow: a vector store fed main items and AI ports is a root; a loader that feeds one and takes a splitter is a sub-node', () => {
    const { layout } = laidOut(fixture('36'));
    expect(shapes(layout)).toMatchObject({
      'When clicking ‘Test workflow’': 'trigger',
      'When chat message received': 'trigger',
      'FAQ Articles': 'node',
      'Insert Into Store': 'root',
      'Default Data Loader': 'subnode',
      'Recursive Character Text Splitter': 'subnode',
      'FAQ Agent': 'root',
      'FAQ Search': 'subnode',
      'Embeddings OpenAI1': 'subnode',
    });
    expect([...box(layout, 'Insert Into Store').aiInputs.keys()].sort()).toEqual(['ai_document', 'ai_embedding']);
    expect([...box(layout, 'Default Data Loader').aiInputs.keys()]).toEqual(['ai_textSplitter']);
  });

  it('a node that feeds an AI port and also a main connection stays a node', () => {
    const workflow = fixture('34');
    workflow.connections['Product Search'].main = [[{ node: 'Reply', type: 'main', index: 0 }]];
    const { layout } = laidOut(workflow);
    expect(box(layout, 'Product Search').shape).toBe('node');
    // Its AI connection starts from the middle of its top edge.
    const tool = layout.paths.find((p) => p.edge.from === 'Product Search' && p.ai)!;
    const b = box(layout, 'Product Search');
    expect(ends(tool)[0]).toEqual({ x: b.x + b.width / 2, y: b.y });
  });

  it('the triggers the fixtures use are triggers, with no main input; Respond to Webhook and tool nodes are not', () => {
    const triggers = new Set([
      'n8n-nodes-base.webhook',
      'n8n-nodes-base.scheduleTrigger',
      'n8n-nodes-base.manualTrigger',
      'n8n-nodes-base.executeWorkflowTrigger',
      'n8n-nodes-base.errorTrigger',
      '@n8n/n8n-nodes-langchain.chatTrigger',
    ]);
    const seen = new Set<string>();
    for (const { file, workflow } of allFixtures()) {
      for (const b of laidOut(workflow).layout.boxes.values()) {
        expect(b.shape === 'trigger', `${file}: ${b.node.name}`).toBe(triggers.has(b.node.type));
        if (b.shape === 'trigger') {
          seen.add(b.node.type);
          expect(b.inputs).toEqual([]);
          expect(b.outputs.length).toBeGreaterThan(0);
        }
      }
    }
    expect(seen).toEqual(triggers);
  });
});

describe('layOut: ports and connections', () => {
  it('spreads an IF’s two outputs down its right edge, true above false, and each connection leaves its own', () => {
    const { layout } = laidOut(fixture('04'));
    const branch = box(layout, 'Big Customer?');
    expect(branch.outputs).toHaveLength(2);
    expect(branch.outputs.every((p) => p.x === branch.x + branch.width)).toBe(true);
    expect(branch.outputs[0]!.y).toBeLessThan(branch.outputs[1]!.y);
    expect(branch.outputs.every((p) => inside(p, branch))).toBe(true);
    for (const path of layout.paths.filter((p) => p.edge.from === 'Big Customer?')) {
      expect(ends(path)[0]).toEqual(branch.outputs[path.edge.output]);
    }
  });

  it('spreads a Merge’s three inputs down its left edge, and each connection enters its own', () => {
    const { layout } = laidOut(fixture('11'));
    const merge = box(layout, 'All Leads');
    expect(merge.inputs).toHaveLength(3);
    expect(merge.inputs.every((p) => p.x === merge.x)).toBe(true);
    expect(new Set(merge.inputs.map((p) => p.y)).size).toBe(3);
    const into = layout.paths.filter((p) => p.edge.to === 'All Leads');
    expect(into).toHaveLength(3);
    for (const path of into) expect(ends(path)[1]).toEqual(merge.inputs[path.edge.input]);
    // A two-input Merge fed on input 1 only from one node, on input 0 from another.
    const owner = box(layout, 'Attach CRM Owner');
    expect(owner.inputs).toHaveLength(2);
    const fromCrm = layout.paths.find((p) => p.edge.from === 'CRM Contacts' && p.edge.to === 'Attach CRM Owner')!;
    expect(ends(fromCrm)[1]).toEqual(owner.inputs[1]);
  });

  it('every main connection of every fixture runs from its output port to its input port', () => {
    for (const { file, workflow } of allFixtures()) {
      const { workflow: read, layout } = laidOut(workflow);
      const main = layout.paths.filter((p) => !p.ai);
      expect(main.length, file).toBe(read.edges.filter((e) => e.type === 'main').length);
      for (const path of main) {
        const [start, end] = ends(path);
        expect(start, file).toEqual(box(layout, path.edge.from).outputs[path.edge.output]);
        expect(end, file).toEqual(box(layout, path.edge.to).inputs[path.edge.input]);
        expect(
          inside(path.middle, {
            x: Math.min(start.x, end.x),
            y: Math.min(start.y, end.y),
            width: Math.abs(end.x - start.x),
            height: Math.abs(end.y - start.y),
          }),
        ).toBe(true);
        expect(path.ai).toBe(false);
      }
    }
  });

  it('every AI connection runs up from the sub-node’s top to the root’s port of that type', () => {
    for (const prefix of ['33', '34', '35', '36', '37']) {
      const { workflow: read, layout } = laidOut(fixture(prefix));
      const ai = layout.paths.filter((p) => p.ai);
      expect(ai.length, prefix).toBe(read.edges.filter((e) => e.type !== 'main').length);
      for (const path of ai) {
        const [start, end] = ends(path);
        const from = box(layout, path.edge.from);
        expect(start, `${prefix} ${path.edge.from}`).toEqual(from.aiOutput ?? { x: from.x + from.width / 2, y: from.y });
        expect(end, `${prefix} ${path.edge.to}`).toEqual(box(layout, path.edge.to).aiInputs.get(path.edge.type));
      }
    }
  });

  it('a node with no connections has one input and one output; a deactivated node is laid out as any other', () => {
    const { layout } = laidOut(fixture('29'));
    const lonely = layOut(readWorkflow({ nodes: [{ name: 'Alone', type: 'n8n-nodes-base.set', position: [10, 20] }] })!);
    expect(box(lonely, 'Alone')).toMatchObject({ shape: 'node', x: 10, y: 20, inputs: [{ x: 10, y: 70 }], outputs: [{ x: 110, y: 70 }] });
    const disabled = box(layout, 'Push To CRM');
    expect(disabled).toMatchObject({ shape: 'node', inputs: [expect.any(Object)], outputs: [expect.any(Object)] });
    expect(layout.paths.filter((p) => p.edge.from === 'Push To CRM' || p.edge.to === 'Push To CRM')).toHaveLength(2);
  });
});

describe('layOut: sticky notes and bounds', () => {
  it('sizes sticky notes from their parameters, and a note without a size at n8n’s default', () => {
    const workflow = fixture('29');
    const { layout } = laidOut(workflow);
    for (const node of (workflow.nodes as Json[]).filter((n) => n.type === 'n8n-nodes-base.stickyNote')) {
      expect(box(layout, node.name)).toMatchObject({
        shape: 'sticky',
        x: node.position[0],
        y: node.position[1],
        width: node.parameters.width,
        height: node.parameters.height,
      });
    }
    const plain = layOut(
      readWorkflow({ nodes: [{ name: 'Note', type: 'n8n-nodes-base.stickyNote', position: [0, 0], parameters: { content: 'hi', width: 'wide' } }] })!,
    );
    expect(box(plain, 'Note')).toMatchObject({ width: 240, height: 160 });
  });

  it('draws no connection to or from a sticky note', () => {
    const workflow = fixture('29');
    workflow.connections['Sticky Note'] = { main: [[{ node: 'Score Lead', type: 'main', index: 0 }]] };
    workflow.connections['Lead Form'].main[0].push({ node: 'Sticky Note1', type: 'main', index: 0 });
    const { workflow: read, layout } = laidOut(workflow);
    expect(read.edges.some((e) => e.from === 'Sticky Note')).toBe(true);
    expect(layout.paths.some((p) => p.edge.from.startsWith('Sticky') || p.edge.to.startsWith('Sticky'))).toBe(false);
  });

  it('the bounds hold every box (and the names written under nodes) and nothing more', () => {
    for (const { file, workflow } of allFixtures()) {
      const { layout } = laidOut(workflow);
      const boxes = [...layout.boxes.values()];
      const { bounds } = layout;
      for (const b of boxes) {
        expect(b.x >= bounds.x && b.y >= bounds.y, file).toBe(true);
        expect(b.x + b.width <= bounds.x + bounds.width && b.y + b.height <= bounds.y + bounds.height, file).toBe(true);
      }
      expect(bounds.x).toBe(Math.min(...boxes.map((b) => b.x)));
      expect(bounds.y).toBe(Math.min(...boxes.map((b) => b.y)));
      expect(bounds.x + bounds.width).toBe(Math.max(...boxes.map((b) => b.x + b.width)));
      // Room below the lowest node for its name and type.
      const lowest = Math.max(...boxes.filter((b) => b.shape !== 'sticky').map((b) => b.y + b.height));
      expect(bounds.y + bounds.height).toBeGreaterThanOrEqual(lowest + 30);
    }
    expect(layOut({ nodes: [], edges: [] }).bounds).toEqual({ x: 0, y: 0, width: 0, height: 0 });
  });

  it('is the same every time for the same workflow', () => {
    const workflow = fixture('39');
    const a = laidOut(workflow).layout;
    const b = laidOut(structuredClone(workflow)).layout;
    expect([...b.boxes.entries()]).toEqual([...a.boxes.entries()]);
    expect(b.paths).toEqual(a.paths);
  });
});
