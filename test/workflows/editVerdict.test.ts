import { describe, expect, it } from 'vitest';
import { judgeEdit } from '../../src/workflows/editVerdict';
import { applyOperations, type Operation } from '../../src/workflows/operations';
import { connect, n8nCatalog, node } from '../support/n8nCatalog';

/** A webhook into a Set node, and `broken` Set nodes connected to nodes that do not exist (one error each). */
function workflow(broken: number) {
  const names = Array.from({ length: broken }, (_, i) => `Broken ${i}`);
  return {
    nodes: [node('Hook', 'webhook', 2.1, { path: 'in' }, { webhookId: 'w' }), node('Set', 'set', 3.4), ...names.map((name) => node(name, 'set', 3.4))],
    connections: { ...connect(['Hook', 'Set'], ...names.map((name): [string, string] => [name, `Gone ${name}`])) },
  };
}

function judge(read: ReturnType<typeof workflow>, operations: Operation[]) {
  const outcome = applyOperations(read, operations);
  if (!outcome.ok) throw new Error(outcome.message);
  return judgeEdit(read, operations, outcome.workflow, n8nCatalog);
}

const noop = (i: number): Operation => ({ type: 'moveNode', name: 'Set', position: [i, 0] });

describe('what an edit does to a workflow’s errors', () => {
  it('finds the one new error among 300 the workflow had, though an answer lists only 100', () => {
    const verdict = judge(workflow(300), [noop(1), { type: 'addConnection', source: 'Set', target: 'Hook' }, noop(2)]);
    expect(verdict.after).toMatchObject({ valid: false, errors: { length: 100 }, omitted: { errors: 201 } });
    expect(verdict.introduced).toEqual({ valid: false, errors: [expect.objectContaining({ code: 'invalid_connection_type', node: 'Set' })], warnings: [] });
    expect(verdict.culprit).toBe(1);
  });

  it('names an operation that brought a new error in, among a hundred', () => {
    for (const at of [0, 37, 99]) {
      const operations = Array.from({ length: 100 }, (_, i): Operation => (i === at ? { type: 'addConnection', source: 'Set', target: 'Hook' } : noop(i)));
      expect(judge(workflow(2), operations).culprit).toBe(at);
    }
  });

  it('has nothing to blame when nothing new is wrong, and counts a new error past the first 100', () => {
    expect(judge(workflow(3), [noop(1)])).toMatchObject({ introduced: { valid: true, errors: [] }, culprit: null });
    // 150 new errors, as autofix might leave them (no operation brought them in).
    const read = workflow(0);
    const fan = { ...read, connections: { ...read.connections, ...connect(...Array.from({ length: 150 }, (_, i): [string, string] => ['Set', `Gone ${i}`])) } };
    expect(judgeEdit(read, [], fan, n8nCatalog, true)).toMatchObject({ introduced: { errors: { length: 100 }, omitted: { errors: 50 } }, culprit: null });
  });
});
