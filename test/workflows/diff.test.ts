import { describe, expect, it } from 'vitest';
import { diffWorkflows } from '../../src/workflows/diff';
import { connect, node } from '../support/n8nCatalog';
import { fromJson } from '../support/specialNames';

const base = () => ({
  name: 'Orders',
  nodes: [
    node('Hook', 'webhook', 2.1, { path: 'in' }),
    node('Check', 'if', 2.3, { conditions: { conditions: [{ leftValue: 'a' }] } }),
    node('Done', 'noOp', 1),
  ],
  connections: connect(['Hook', 'Check'], ['Check', 'Done', 0]),
  settings: { executionOrder: 'v1' },
});

describe('diffWorkflows', () => {
  it('finds two copies of a workflow the same', () => {
    expect(diffWorkflows(base(), base())).toEqual({
      nodes: { added: [], removed: [], changed: [] },
      connections: { added: [], removed: [] },
      settings: [],
      same: true,
    });
  });

  it('names nodes added, removed and changed, with the parameters changed as JSON Pointers and the other fields by name', () => {
    const after = base();
    after.nodes[1]!.parameters = { conditions: { conditions: [{ leftValue: 'b' }] }, 'a/b': 1 };
    (after.nodes[1] as Record<string, unknown>).disabled = true;
    after.nodes.splice(2, 1, node('Reply', 'respondToWebhook', 1.1));
    const diff = diffWorkflows(base(), after);
    expect(diff.nodes).toEqual({
      added: ['Reply'],
      removed: ['Done'],
      changed: [{ node: 'Check', fields: ['disabled'], parameters: ['/conditions/conditions', '/a~1b'] }],
    });
    expect(diff.same).toBe(false);
  });

  it('lists connections added and removed, the name and the settings changed', () => {
    const after = {
      ...base(),
      name: 'Orders v2',
      connections: connect(['Hook', 'Check'], ['Check', 'Done', 1]),
      settings: { executionOrder: 'v1', timezone: 'UTC' },
    };
    const diff = diffWorkflows(base(), after);
    expect(diff.connections).toEqual({ added: ['"Check" main[1] → "Done" main[0]'], removed: ['"Check" main[0] → "Done" main[0]'] });
    expect(diff.name).toEqual({ from: 'Orders', to: 'Orders v2' });
    expect(diff.settings).toEqual(['timezone']);
  });

  it('bounds the parameter paths it lists per node, and says how many more', () => {
    const many = (v: number) => Object.fromEntries(Array.from({ length: 70 }, (_, i) => [`p${i}`, v]));
    const before = { nodes: [node('Set', 'set', 3.4, many(1))], connections: {} };
    const after = { nodes: [node('Set', 'set', 3.4, many(2))], connections: {} };
    const [changed] = diffWorkflows(before, after).nodes.changed;
    expect(changed!.parameters).toHaveLength(50);
    expect(changed!.morePaths).toBe(20);
  });

  it('reads names that mean something to JavaScript objects as names', () => {
    const before = { nodes: [node('__proto__', 'set', 3.4, fromJson([['constructor', 1]]))], connections: {} };
    const after = { nodes: [node('__proto__', 'set', 3.4, fromJson([['constructor', 2]]))], connections: {} };
    expect(diffWorkflows(before, after).nodes.changed).toEqual([{ node: '__proto__', parameters: ['/constructor'] }]);
  });
});
