import { describe, expect, it } from 'vitest';
import { validateWorkflow } from '../../src/workflows/validateWorkflow';
import { connect, n8nCatalog, node } from '../support/n8nCatalog';

/** A trigger, then `n` Set nodes one after the other, the last connected back to the first of them (or not). */
function chain(n: number, loop: boolean) {
  const names = Array.from({ length: n }, (_, i) => `Step ${i + 1}`);
  const rows: [string, string][] = [['Start', names[0]!], ...names.slice(0, -1).map((name, i): [string, string] => [name, names[i + 1]!])];
  if (loop) rows.push([names.at(-1)!, names[0]!]);
  return { nodes: [node('Start', 'manualTrigger', 1), ...names.map((name) => node(name, 'set', 3.4))], connections: connect(...rows) };
}

describe('the workflow’s shape', () => {
  it('follows a chain of 30,000 nodes to its end without running out of stack', () => {
    const result = validateWorkflow(chain(30_000, false), n8nCatalog);
    expect(result).toEqual({ valid: true, errors: [], warnings: [] });
    const cut = chain(30_000, false);
    delete (cut.connections as Record<string, unknown>)['Step 15000'];
    expect(validateWorkflow(cut, n8nCatalog)).toMatchObject({ warnings: { length: 100 }, omitted: { warnings: 14_900 } });
  });

  it('finds a loop of 30,000 nodes with no way out, naming the first few of them', () => {
    const { warnings } = validateWorkflow(chain(30_000, true), n8nCatalog);
    expect(warnings).toEqual([
      {
        node: 'Step 1',
        code: 'loop_without_exit',
        message:
          '"Step 1" → "Step 2" → "Step 3" → "Step 4" → "Step 5" → … (30,000 nodes) form a loop with no connection out of it: it ends only when a node in it outputs no items.',
      },
    ]);
    const small = chain(3, true);
    expect(validateWorkflow(small, n8nCatalog).warnings[0]!.message).toMatch(/^"Step 1" → "Step 2" → "Step 3" form a loop/);
    // A connection out of the loop is a way out, wherever it goes.
    small.nodes.push(node('After', 'set', 3.4));
    small.connections['Step 2']!['main']![0]!.push({ node: 'After', type: 'main', index: 0 });
    expect(validateWorkflow(small, n8nCatalog)).toEqual({ valid: true, errors: [], warnings: [] });
  });
});
