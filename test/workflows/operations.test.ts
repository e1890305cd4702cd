import { describe, expect, it } from 'vitest';
import { applyOperations, mergeDeep, type EditOutcome, type Operation } from '../../src/workflows/operations';
import { connect, node } from '../support/n8nCatalog';

function workflow() {
  return {
    name: 'Orders',
    nodes: [
      node('Hook', 'webhook', 2.1, { path: 'in' }),
      node('Check', 'if', 2.3),
      node('Big', 'set', 3.4, { assignments: { assignments: [{ id: 'a', name: 'who', value: "={{ $('Hook').item.json.name }}", type: 'string' }] }, options: { dotNotation: true } }),
      node('Small', 'set', 3.4, { include: "={{ $node['Hook'].json.x }} {{ $node.Hook.json.y }}" }),
    ],
    connections: connect(['Hook', 'Check'], ['Check', 'Big', 0], ['Check', 'Small', 1]),
    settings: { executionOrder: 'v1' },
  };
}

let n = 0;
const edit = (operations: Operation[], w: ReturnType<typeof workflow> = workflow()) => applyOperations(w, operations, () => `new-${++n}`);
const ok = (outcome: EditOutcome) => {
  if (!outcome.ok) throw new Error(`operation ${outcome.index} failed: ${outcome.message}`);
  return outcome;
};

describe('workflow edit operations', () => {
  it('adds a node with an id and a free position, and connects IF and Switch branches by name', () => {
    const out = ok(
      edit([
        { type: 'addNode', node: { name: 'Route', type: 'n8n-nodes-base.switch', typeVersion: 3.4, parameters: {} } },
        { type: 'removeConnection', source: 'Check', target: 'Small', branch: 'false' },
        { type: 'addConnection', source: 'Check', target: 'Route', branch: 'false' },
        { type: 'addConnection', source: 'Route', target: 'Small', case: 2 },
      ]),
    );
    expect(out.workflow.nodes.at(-1)).toMatchObject({ name: 'Route', id: expect.stringMatching(/^new-/), position: [220, 0] });
    expect(out.workflow.connections.Check).toEqual({ main: [[{ node: 'Big', type: 'main', index: 0 }], [{ node: 'Route', type: 'main', index: 0 }]] });
    expect(out.workflow.connections.Route).toEqual({ main: [[], [], [{ node: 'Small', type: 'main', index: 0 }]] });
  });

  it('connects AI sub-nodes by their connection type', () => {
    const out = ok(
      edit([
        { type: 'addNode', node: { name: 'Agent', type: '@n8n/n8n-nodes-langchain.agent', typeVersion: 3.1 } },
        { type: 'addNode', node: { name: 'Model', type: '@n8n/n8n-nodes-langchain.lmChatOpenAi', typeVersion: 1.3 } },
        { type: 'addConnection', source: 'Model', target: 'Agent', connectionType: 'ai_languageModel' },
      ]),
    );
    expect(out.workflow.connections.Model).toEqual({ ai_languageModel: [[{ node: 'Agent', type: 'ai_languageModel', index: 0 }]] });
  });

  it('removes a node with every connection from and to it', () => {
    const out = ok(edit([{ type: 'removeNode', name: 'Check' }]));
    expect(out.workflow.nodes.map((x) => x.name)).toEqual(['Hook', 'Big', 'Small']);
    expect(out.workflow.connections).toEqual({ Hook: { main: [[]] } });
  });

  it('merges parameters deeply, null removing a key, and sets other node fields', () => {
    const out = ok(edit([{ type: 'updateNode', name: 'Big', changes: { parameters: { options: { dotNotation: null, ignoreConversionErrors: true } }, onError: 'continueErrorOutput', notes: 'x' } }]));
    expect(out.workflow.nodes[2]).toMatchObject({
      onError: 'continueErrorOutput',
      notes: 'x',
      parameters: { assignments: { assignments: [{ name: 'who' }] }, options: { ignoreConversionErrors: true } },
    });
    expect((out.workflow.nodes[2]!.parameters as { options: object }).options).not.toHaveProperty('dotNotation');
    expect(mergeDeep({ a: [1, 2], b: { c: 1 } }, { a: [3], b: { d: 2 } })).toEqual({ a: [3], b: { c: 1, d: 2 } });
  });

  it('renames a node, its connections and every expression that names it following', () => {
    const out = ok(edit([{ type: 'renameNode', name: 'Hook', newName: "Order's hook" }]));
    expect(out.workflow.connections["Order's hook"]).toEqual({ main: [[{ node: 'Check', type: 'main', index: 0 }]] });
    expect(out.workflow.connections).not.toHaveProperty('Hook');
    expect(JSON.stringify(out.workflow.nodes[2]!.parameters)).toContain("$('Order\\\\'s hook')");
    expect(out.workflow.nodes[3]!.parameters).toEqual({ include: `={{ $node['Order\\'s hook'].json.x }} {{ $node["Order's hook"].json.y }}` });
  });

  it('moves, disables and enables nodes, rewires a branch, sets settings, name, tags and activation', () => {
    const out = ok(
      edit([
        { type: 'moveNode', name: 'Big', position: [500, 300] },
        { type: 'disableNode', name: 'Small' },
        { type: 'disableNode', name: 'Big' },
        { type: 'enableNode', name: 'Big' },
        { type: 'rewireConnection', source: 'Check', from: 'Small', to: 'Big', branch: 'false' },
        { type: 'updateSettings', settings: { timezone: 'Europe/Berlin' } },
        { type: 'updateName', name: 'Orders v2' },
        { type: 'addTag', tag: 'sales' },
        { type: 'addTag', tag: 'old' },
        { type: 'removeTag', tag: 'old' },
        { type: 'activate' },
      ]),
    );
    expect(out.workflow.nodes[2]).toMatchObject({ position: [500, 300] });
    expect(out.workflow.nodes[2]).not.toHaveProperty('disabled');
    expect(out.workflow.nodes[3]).toMatchObject({ disabled: true });
    expect(out.workflow.connections.Check!.main![1]).toEqual([{ node: 'Big', type: 'main', index: 0 }]);
    expect(out.workflow).toMatchObject({ name: 'Orders v2', settings: { executionOrder: 'v1', timezone: 'Europe/Berlin' } });
    expect(out.tags).toEqual({ add: ['sales'], remove: ['old'] });
    expect(out.activation).toBe('activate');
  });

  it('stops at the first operation that cannot apply, naming it and why, and changes nothing', () => {
    const input = workflow();
    const snapshot = JSON.stringify(input);
    const cases: [Operation[], number, RegExp][] = [
      [[{ type: 'updateNode', name: 'Big', changes: { notes: 'a' } }, { type: 'updateNode', name: 'Nope', changes: {} }], 1, /no node named "Nope"; the nodes are "Hook"/],
      [[{ type: 'addNode', node: { name: 'Check', type: 'n8n-nodes-base.if' } }], 0, /exists already/],
      [[{ type: 'renameNode', name: 'Big', newName: 'Small' }], 0, /exists already/],
      [[{ type: 'addConnection', source: 'Check', target: 'Big', branch: 'true' }], 0, /connected to "Big" input 0 already/],
      [[{ type: 'removeConnection', source: 'Hook', target: 'Big' }], 0, /no main connection from "Hook" to "Big"/],
      [[{ type: 'updateNode', name: 'Big', changes: { name: 'X' } }], 0, /renameNode/],
      [[{ type: 'moveNode', name: 'Big', position: [1] as unknown as [number, number] }], 0, /\[x, y\]/],
      [[{ type: 'explode' as never }], 0, /unknown operation type "explode"/],
    ];
    for (const [operations, index, message] of cases) {
      const outcome = edit(operations, input);
      expect(outcome.ok).toBe(false);
      if (outcome.ok) continue;
      expect(outcome.index).toBe(index);
      expect(outcome.message).toMatch(message);
    }
    expect(JSON.stringify(input)).toBe(snapshot);
  });
});
