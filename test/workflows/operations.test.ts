import { describe, expect, it } from 'vitest';
import { applyOperations, mergeDeep, type EditOutcome, type Operation } from '../../src/workflows/operations';
import { connect, node } from '../support/n8nCatalog';
import { expectOwn, fromJson, withPrototypesUnchanged } from '../support/specialNames';

function workflow() {
  return {
    name: 'Orders',
    nodes: [
      node('Hook', 'webhook', 2.1, { path: 'in' }),
      node('Check', 'if', 2.3),
      node('Big', 'set', 3.4, {
        assignments: { assignments: [{ id: 'a', name: 'who', value: "={{ $('Hook').item.json.name }}", type: 'string' }] },
        options: { dotNotation: true },
      }),
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
const nodes = (outcome: { workflow: { nodes: unknown[] } }) => outcome.workflow.nodes as Record<string, unknown>[];

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
    expect(nodes(out).map((x) => x.name)).toEqual(['Hook', 'Big', 'Small']);
    expect(out.workflow.connections).toEqual({ Hook: { main: [[]] } });
  });

  it('merges parameters deeply, null removing a key, and sets other node fields', () => {
    const out = ok(
      edit([
        {
          type: 'updateNode',
          name: 'Big',
          changes: { parameters: { options: { dotNotation: null, ignoreConversionErrors: true } }, onError: 'continueErrorOutput', notes: 'x' },
        },
      ]),
    );
    expect(out.workflow.nodes[2]).toMatchObject({
      onError: 'continueErrorOutput',
      notes: 'x',
      parameters: { assignments: { assignments: [{ name: 'who' }] }, options: { ignoreConversionErrors: true } },
    });
    expect((nodes(out)[2]!.parameters as { options: object }).options).not.toHaveProperty('dotNotation');
    expect(mergeDeep({ a: [1, 2], b: { c: 1 } }, { a: [3], b: { d: 2 } })).toEqual({ a: [3], b: { c: 1, d: 2 } });
  });

  it('replaces a list in the parameters whole, and names each list it replaced', () => {
    const out = ok(
      edit([{ type: 'updateNode', name: 'Big', changes: { parameters: { assignments: { assignments: [{ name: 'only' }] }, options: { extra: [1] } } } }]),
    );
    expect((nodes(out)[2]!.parameters as { assignments: object }).assignments).toEqual({ assignments: [{ name: 'only' }] });
    // A list that was not there before is added, not replaced.
    expect(out.replacedLists).toEqual([{ node: 'Big', path: '/assignments/assignments' }]);
    const replaced: string[] = [];
    mergeDeep({ 'a/b': { '~': [1] } }, { 'a/b': { '~': [2] } }, replaced);
    expect(replaced).toEqual(['/a~1b/~0']);
  });

  it('sets one value by JSON Pointer, making missing objects, appending with "-", removing with null', () => {
    const out = ok(
      edit([
        { type: 'setParameter', name: 'Big', path: '/assignments/assignments/0/value', value: 'fixed' },
        { type: 'setParameter', name: 'Big', path: '/assignments/assignments/-', value: { id: 'b', name: 'n', value: 1, type: 'number' } },
        { type: 'setParameter', name: 'Big', path: '/options/dotNotation', value: null },
        { type: 'setParameter', name: 'Small', path: '/options/a~1b/c~0d', value: true },
      ]),
    );
    expect(nodes(out)[2]!.parameters).toEqual({
      assignments: {
        assignments: [
          { id: 'a', name: 'who', value: 'fixed', type: 'string' },
          { id: 'b', name: 'n', value: 1, type: 'number' },
        ],
      },
      options: {},
    });
    expect(nodes(out)[3]!.parameters).toMatchObject({ options: { 'a/b': { 'c~d': true } } });
    expect(out.replacedLists).toEqual([]);
    const removed = ok(edit([{ type: 'setParameter', name: 'Big', path: '/assignments/assignments/0', value: null }]));
    expect(nodes(removed)[2]!.parameters).toMatchObject({ assignments: { assignments: [] } });
  });

  it('refuses a pointer that does not lead anywhere, naming where it stops', () => {
    const failure = (op: Partial<Operation>) => {
      const out = edit([{ type: 'setParameter', name: 'Big', ...op } as Operation]);
      if (out.ok) throw new Error('applied');
      return out.message;
    };
    expect(failure({ path: '/assignments/assignments/5/value', value: 1 })).toMatch(
      /^\/assignments\/assignments\/5: the list has 1 entries; an index is 0 to 0$/,
    );
    expect(failure({ path: '/assignments/assignments/x', value: 1 })).toMatch(/or 1 or "-" to append/);
    expect(failure({ path: '/assignments/assignments/0/name/deeper', value: 1 })).toMatch(
      /^\/assignments\/assignments\/0\/name is the text "who", not an object or a list/,
    );
    expect(failure({ path: 'options/dotNotation', value: 1 })).toMatch(/starting with "\/": "\/options\/dotNotation"\?/);
    expect(failure({ path: '/options/dotNotation' })).toMatch(/needs "value"/);
    expect(failure({ value: 1 })).toMatch(/needs "path"/);
  });

  it('renames a node, its connections and every expression that names it following', () => {
    const out = ok(edit([{ type: 'renameNode', name: 'Hook', newName: "Order's hook" }]));
    expect(out.workflow.connections["Order's hook"]).toEqual({ main: [[{ node: 'Check', type: 'main', index: 0 }]] });
    expect(out.workflow.connections).not.toHaveProperty('Hook');
    expect(JSON.stringify(nodes(out)[2]!.parameters)).toContain("$('Order\\\\'s hook')");
    expect(nodes(out)[3]!.parameters).toEqual({ include: `={{ $node['Order\\'s hook'].json.x }} {{ $node["Order's hook"].json.y }}` });
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
    expect((out.workflow.connections.Check as { main: unknown[] }).main[1]).toEqual([{ node: 'Big', type: 'main', index: 0 }]);
    expect(out.workflow).toMatchObject({ name: 'Orders v2', settings: { executionOrder: 'v1', timezone: 'Europe/Berlin' } });
    expect(out.tags).toEqual({ add: ['sales'], remove: ['old'] });
    expect(out.activation).toBe('activate');
  });

  it('stops at the first operation that cannot apply, naming it and why, and changes nothing', () => {
    const input = workflow();
    const snapshot = JSON.stringify(input);
    const cases: [Operation[], number, RegExp][] = [
      [
        [
          { type: 'updateNode', name: 'Big', changes: { notes: 'a' } },
          { type: 'updateNode', name: 'Nope', changes: {} },
        ],
        1,
        /no node named "Nope"; the nodes are "Hook"/,
      ],
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

describe('edit operations on names that mean something to JavaScript objects', () => {
  const special = () => ({
    nodes: [node('Hook', 'webhook', 2.1, { path: 'in' }), node('constructor', 'set', 3.4, fromJson([['__proto__', { a: 1 }]]))],
    connections: fromJson([['Hook', connect(['x', 'constructor'])['x']]]),
    settings: fromJson([['__proto__', { b: 1 }]]),
  });

  it('adds, connects, updates, renames, moves, disables, rewires and removes them like any node', () => {
    const out = ok(
      withPrototypesUnchanged(() =>
        edit(
          [
            { type: 'addNode', node: { name: '__proto__', type: 'n8n-nodes-base.set', typeVersion: 3.4 } },
            { type: 'addNode', node: { name: 'hasOwnProperty', type: 'n8n-nodes-base.set', typeVersion: 3.4 } },
            { type: 'addConnection', source: 'constructor', target: '__proto__' },
            { type: 'addConnection', source: '__proto__', target: 'hasOwnProperty', connectionType: 'main' },
            { type: 'addConnection', source: '__proto__', target: 'constructor', connectionType: '__proto__', targetInput: 1 },
            {
              type: 'updateNode',
              name: 'constructor',
              changes: fromJson([
                [
                  'parameters',
                  fromJson([
                    ['__proto__', { c: 2 }],
                    ['toString', 'x'],
                  ]),
                ],
                ['__proto__', 'field'],
                ['notes', 'n'],
              ]),
            },
            { type: 'updateNode', name: '__proto__', changes: { parameters: fromJson([['constructor', { d: 3 }]]) } },
            { type: 'setParameter', name: '__proto__', path: '/constructor/prototype/polluted', value: true },
            { type: 'setParameter', name: '__proto__', path: '/__proto__/x', value: 1 },
            { type: 'renameNode', name: 'constructor', newName: 'prototype' },
            { type: 'moveNode', name: '__proto__', position: [1, 2] },
            { type: 'disableNode', name: '__proto__' },
            { type: 'enableNode', name: '__proto__' },
            { type: 'rewireConnection', source: '__proto__', from: 'hasOwnProperty', to: 'Hook' },
            { type: 'removeConnection', source: '__proto__', target: 'prototype', connectionType: '__proto__' },
            { type: 'removeNode', name: 'hasOwnProperty' },
            {
              type: 'updateSettings',
              settings: fromJson([
                ['__proto__', { e: 4 }],
                ['constructor', 'x'],
              ]),
            },
            { type: 'updateName', name: '__proto__' },
            { type: 'addTag', tag: '__proto__' },
          ],
          special() as ReturnType<typeof workflow>,
        ),
      ),
    );
    const [hook, renamed, proto] = nodes(out);
    expect(nodes(out).map((n) => n.name)).toEqual(['Hook', 'prototype', '__proto__']);
    expect(Object.getPrototypeOf(renamed)).toBe(Object.prototype);
    expectOwn(renamed, '__proto__', 'field');
    expectOwn(renamed!.parameters, '__proto__', { a: 1, c: 2 });
    expectOwn(renamed!.parameters, 'toString', 'x');
    expectOwn(proto!.parameters, 'constructor', { d: 3, prototype: { polluted: true } });
    expectOwn(proto!.parameters, '__proto__', { x: 1 });
    expect(proto).toMatchObject({ position: [1, 2] });
    expect(proto).not.toHaveProperty('disabled');
    const connections = out.workflow.connections;
    expect(Object.keys(connections)).toEqual(['Hook', '__proto__', 'prototype']);
    expectOwn(connections, 'Hook', connect(['x', 'prototype'])['x']);
    expectOwn(connections, 'prototype', connect(['x', '__proto__'])['x']);
    expectOwn(
      connections,
      '__proto__',
      fromJson([
        ['main', [[{ node: 'Hook', type: 'main', index: 0 }]]],
        ['__proto__', [[]]],
      ]),
    );
    expectOwn(out.workflow.settings, '__proto__', { b: 1, e: 4 });
    expectOwn(out.workflow.settings, 'constructor', 'x');
    expect(out.workflow.name).toBe('__proto__');
    expect(out.tags.add).toEqual(['__proto__']);
    expect(JSON.parse(JSON.stringify(out.workflow))).toEqual(out.workflow);
    expect(hook).toMatchObject({ name: 'Hook' });
  });

  it('refuses, naming the operation, to add a connection into connections of the wrong shape', () => {
    const w = {
      ...special(),
      connections: fromJson([
        ['__proto__', 'main'],
        ['Hook', { main: 'x' }],
      ]),
    };
    for (const [source, message] of [
      ['__proto__', /connections\["__proto__"\] is not an object keyed by connection type/],
      ['Hook', /connections\["Hook"\]\.main is not a list of outputs/],
    ] as const) {
      const outcome = withPrototypesUnchanged(() =>
        edit(
          [
            { type: 'addNode', node: { name: '__proto__', type: 'n8n-nodes-base.set', typeVersion: 3.4 } },
            { type: 'addConnection', source, target: 'constructor' },
          ],
          w as ReturnType<typeof workflow>,
        ),
      );
      expect(outcome).toMatchObject({ ok: false, index: 1, message: expect.stringMatching(message) });
    }
  });
});

describe('renames, however many', () => {
  const expressions = (out: EditedWorkflowOutcome) => nodes(out).map((n) => JSON.stringify(n.parameters));
  type EditedWorkflowOutcome = ReturnType<typeof ok>;

  it('reach every expression and connection as if made one after the other', () => {
    const out = ok(
      edit([
        { type: 'renameNode', name: 'Hook', newName: 'Entry' },
        { type: 'renameNode', name: 'Entry', newName: 'Hook2' },
        { type: 'renameNode', name: 'Check', newName: 'Hook' },
        { type: 'renameNode', name: 'Hook', newName: 'Check2' },
      ]),
    );
    expect(nodes(out).map((n) => n.name)).toEqual(['Hook2', 'Check2', 'Big', 'Small']);
    expect(expressions(out)[2]).toContain("$('Hook2')");
    expect(nodes(out)[3]!.parameters).toEqual({ include: `={{ $node['Hook2'].json.x }} {{ $node.Hook2.json.y }}` });
    expect(out.workflow.connections).toEqual(connect(['Hook2', 'Check2'], ['Check2', 'Big', 0], ['Check2', 'Small', 1]));
  });

  it('leave what an operation writes after them as it is written, and look connections up by the names they have then', () => {
    const out = ok(
      edit([
        { type: 'renameNode', name: 'Hook', newName: 'Entry' },
        { type: 'updateNode', name: 'Small', changes: { parameters: { old: "={{ $('Hook').item.json }}", now: "={{ $('Entry').item.json }}" } } },
        { type: 'addNode', node: { name: 'Late', type: 'n8n-nodes-base.set', typeVersion: 3.4, parameters: { ref: "={{ $('Check').item.json }}" } } },
        { type: 'renameNode', name: 'Check', newName: 'Test' },
        { type: 'removeConnection', source: 'Test', target: 'Big' },
        { type: 'addConnection', source: 'Entry', target: 'Late' },
        { type: 'rewireConnection', source: 'Test', from: 'Small', to: 'Late', branch: 'false' },
        { type: 'removeNode', name: 'Big' },
      ]),
    );
    const [, , small, late] = nodes(out);
    expect(small!.parameters).toMatchObject({
      include: `={{ $node['Entry'].json.x }} {{ $node.Entry.json.y }}`,
      old: "={{ $('Hook').item.json }}",
      now: "={{ $('Entry').item.json }}",
    });
    expect(late!.parameters).toEqual({ ref: "={{ $('Test').item.json }}" });
    expect(out.workflow.connections).toEqual({
      Entry: {
        main: [
          [
            { node: 'Test', type: 'main', index: 0 },
            { node: 'Late', type: 'main', index: 0 },
          ],
        ],
      },
      Test: { main: [[], [{ node: 'Late', type: 'main', index: 0 }]] },
    });
  });
});
