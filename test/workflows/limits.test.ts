import { describe, expect, it } from 'vitest';
import { LIMITS, nodeOverLimit, valueOverLimit, workflowOverLimit } from '../../src/workflows/limits';

const fixtures = import.meta.glob<unknown>('../fixtures/workflows/*.json', { eager: true, import: 'default' });

const set = (name: string, parameters: Record<string, unknown> = {}) => ({ name, type: 'n8n-nodes-base.set', typeVersion: 3.4, parameters });
/** `n` nodes, each connected to the next. */
function chain(n: number) {
  const names = Array.from({ length: n }, (_, i) => `Node ${i}`);
  return {
    nodes: names.map((name) => set(name)),
    connections: Object.fromEntries(names.slice(0, -1).map((name, i) => [name, { main: [[{ node: names[i + 1], type: 'main', index: 0 }]] }])),
  };
}
const nested = (depth: number, leaf: unknown = 'x'): unknown => {
  let value = leaf;
  for (let i = 0; i < depth; i++) value = { a: value };
  return value;
};

describe('what one call may carry', () => {
  it('lets real workflows through', () => {
    expect(Object.keys(fixtures)).toHaveLength(40);
    for (const [file, workflow] of Object.entries(fixtures)) expect(workflowOverLimit(workflow), file).toBeNull();
    expect(workflowOverLimit(chain(LIMITS.nodes))).toBeNull();
  });

  it('names the limit, its value and what the workflow has', () => {
    expect(workflowOverLimit(chain(30_000))).toBe('This workflow has 30,000 nodes; the tools check at most 2,500.');
    expect(workflowOverLimit(chain(3_000), 'Workflow 7')).toBe('Workflow 7 has 3,000 nodes; the tools check at most 2,500.');
    const fan = { nodes: [set('A')], connections: { A: { main: [Array.from({ length: 5_001 }, () => ({ node: 'B', type: 'main', index: 0 }))] } } };
    expect(workflowOverLimit(fan)).toBe('This workflow has 5,001 connections; the tools check at most 5,000.');
    const many = { nodes: [set('A', Object.fromEntries(Array.from({ length: LIMITS.values }, (_, i) => [`p${i}`, i])))] };
    expect(workflowOverLimit(many)).toBe(
      'This workflow holds more than 100,000 values (texts, numbers, objects, lists…) in its nodes and connections; the tools check at most 100,000.',
    );
  });

  it('holds names to nameLength and other texts to textLength, saying where', () => {
    const long = 'n'.repeat(LIMITS.nameLength + 1);
    expect(workflowOverLimit({ nodes: [set(long)] })).toBe('The name at nodes[0].name is 1,001 characters long; the tools take names of at most 1,000.');
    expect(workflowOverLimit({ nodes: [{ ...set('A'), type: long }] })).toMatch(/^The name at nodes\[0\]\.type is 1,001 characters long/);
    expect(workflowOverLimit({ nodes: [], connections: { A: { main: [[{ node: long }]] } } })).toMatch(
      /^The name at connections\.A\.main\[0\]\[0\]\.node is 1,001/,
    );
    expect(workflowOverLimit({ nodes: [], connections: { [long]: {} } })).toBe(
      'A key in connections is 1,001 characters long; the tools take names and keys of at most 1,000.',
    );
    expect(workflowOverLimit({ nodes: [set('A', { [long]: 1 })] })).toMatch(/^A key in nodes\[0\]\.parameters is 1,001 characters long/);
    // A parameter's value may be as long as a Code node's code gets.
    expect(workflowOverLimit({ nodes: [set('A', { text: long })] })).toBeNull();
    expect(workflowOverLimit({ nodes: [set('A', { jsCode: 'x'.repeat(LIMITS.textLength + 1) })] })).toBe(
      'The text at nodes[0].parameters.jsCode is 1,500,001 characters long; the tools take texts of at most 1,500,000.',
    );
  });

  it('refuses nesting deeper than depth, however deep, without running out of stack', () => {
    expect(workflowOverLimit({ nodes: [set('A', { deep: nested(LIMITS.depth - 5) })] })).toBeNull();
    const message = workflowOverLimit({ nodes: [set('A', { deep: nested(200_000) })] });
    expect(message).toMatch(
      /^nodes\[0\]\.parameters\.deep\.a\.a.*\.a holds objects and lists more than 150 deep within each other; the tools take at most 150\.$/,
    );
    expect(message!.length).toBeLessThan(2_000);
  });

  it('holds a single node and edit operations to the same limits', () => {
    expect(nodeOverLimit(set('A', { deep: nested(200) }))).toMatch(/^parameters\.deep\.a.* holds objects and lists more than 150 deep/);
    expect(nodeOverLimit({ ...set('A'), name: 'x'.repeat(1_001) })).toMatch(/^The name at name is 1,001 characters long/);
    expect(nodeOverLimit(set('A', { ok: 'fine' }))).toBeNull();
    expect(valueOverLimit([{ type: 'updateNode', changes: { parameters: nested(300) } }], 'operations')).toMatch(
      /^operations\[0\]\.changes\.parameters\.a.* more than 150 deep/,
    );
    expect(valueOverLimit([{ type: 'renameNode', newName: 'x' }], 'operations')).toBeNull();
  });
});
