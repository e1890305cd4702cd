import { beforeAll, describe, expect, inject, it } from 'vitest';
import { loadCatalog, seedSpecs } from '../../support/catalog';
import { n8nSpecs } from '../../support/n8nCatalog';
import { callDirect, savedN8nWorkflow } from '../../support/tools';
import { webhookTrigger } from '../../support/workflows';

/** The stored-test tools against the contract fake of n8n (its webhooks answer "Workflow was started"); what a case is judged by: test/tools/n8n/testWorkflow.test.ts. */
/** An active workflow whose Webhook ("Hook") the fake serves at a path of its own. */
async function activeWebhook(): Promise<string> {
  const path = `stored-${crypto.randomUUID()}`;
  const hook = webhookTrigger(path);
  const api = (method: string, p: string, body?: unknown) =>
    fetch(`${inject('n8nUrl')}/api/v1${p}`, {
      method,
      headers: { 'x-n8n-api-key': inject('n8nKey'), 'content-type': 'application/json' },
      ...(body ? { body: JSON.stringify(body) } : {}),
    }).then((r) => r.json() as Promise<{ id: string }>);
  const { id } = await api('POST', '/workflows', { name: path, nodes: [hook], connections: {}, settings: {} });
  await api('POST', `/workflows/${id}/activate`);
  return id;
}
const ok = async (tool: string, args: Record<string, unknown>) => {
  const answer = await callDirect(tool, args);
  expect(answer.isError, answer.text).toBe(false);
  return answer.json;
};
const started = { status: 200, body: { '/message': 'Workflow was started' }, items: { Hook: 1 } };

describe('the stored-test tools', () => {
  beforeAll(() => loadCatalog([...seedSpecs(), ...n8nSpecs], ['seed', 'n8n']));

  it('save, list, run and delete a workflow’s tests; a test that does not hold fails with what', async () => {
    const id = await activeWebhook();
    await ok('save_workflow_test', { id, test: { name: 'started', payload: { n: 1 }, expect: started } });
    await ok('save_workflow_test', { id, test: { name: 'wrong answer', expect: { body: { '/message': 'Done' } } } });
    expect((await ok('list_workflow_tests', { id })).tests.map((t: { name: string }) => t.name)).toEqual(['started', 'wrong answer']);
    const report = await ok('run_workflow_tests', { id });
    expect(report).toMatchObject({ id, passed: false });
    expect(report.tests).toEqual([
      {
        name: 'started',
        passed: true,
        failures: [],
        execution: expect.any(String),
        verdict: 'success',
        ranVersionId: expect.any(String),
        response: { status: 200, body: { message: 'Workflow was started' } },
      },
      expect.objectContaining({ name: 'wrong answer', passed: false, failures: [`the answer's /message is "Workflow was started", not "Done"`] }),
    ]);
    expect((await ok('run_workflow_tests', { id, names: ['started'] })).passed).toBe(true);
    const unknown = await callDirect('run_workflow_tests', { id, names: ['nope'] });
    expect(unknown.text).toMatch(/has no saved test "nope"; its tests: "started", "wrong answer"\./);
    await ok('delete_workflow_test', { id, name: 'wrong answer' });
    expect((await callDirect('delete_workflow_test', { id, name: 'wrong answer' })).text).toMatch(/has no saved test "wrong answer"/);
  });

  it('are saved only with a workflow n8n has, each within its size, and go when delete_workflow deletes it', async () => {
    const missing = await callDirect('save_workflow_test', { id: 'nosuchworkflow1', test: { name: 'orphan' } });
    expect(missing.text).toMatch(/^Error: n8n has no workflow nosuchworkflow1: a test is saved with a workflow that exists\. Nothing was saved\.$/);
    const id = await activeWebhook();
    const big = await callDirect('save_workflow_test', { id, test: { name: 'big', payload: { text: 'x'.repeat(40_000) } } });
    expect(big.text).toMatch(/^Error: The test was not saved: the test is [\d,]+ characters of JSON; a test holds at most 32,768/);
    await ok('save_workflow_test', { id, test: { name: 'kept' } });
    expect((await ok('delete_workflow', { id })).testsDeleted).toBe(1);
    expect((await ok('list_workflow_tests', { id })).tests).toEqual([]);
  });

  it('edit_workflow with runTests puts the workflow back when an edit breaks a saved test, and keeps it when they pass', async () => {
    const id = await activeWebhook();
    await ok('save_workflow_test', { id, test: { name: 'hook runs', expect: started } });
    const before = await savedN8nWorkflow(id);
    const broken = await callDirect('edit_workflow', { id, runTests: true, operations: [{ type: 'renameNode', name: 'Hook', newName: 'Entry' }] });
    expect(broken.isError).toBe(true);
    expect(broken.text).toMatch(
      /The tests step failed: 1 of 1 saved tests failed: "hook runs": "Hook" put out nothing \(it did not run\), not 1\. Workflow \w+ is as it was before this call\./,
    );
    const after = await savedN8nWorkflow(id);
    expect([after.nodes, after.connections]).toEqual([before.nodes, before.connections]);
    const kept = await ok('edit_workflow', { id, runTests: true, operations: [{ type: 'updateName', name: 'Still runs' }] });
    expect(kept).toMatchObject({ saved: true, tests: [expect.objectContaining({ name: 'hook runs', passed: true })] });
  });
});
