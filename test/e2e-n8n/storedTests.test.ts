import { describe, expect, it } from 'vitest';
import { connectedClient, n8nApi as n8n } from './client';
import { greeterWorkflow } from './greeter';

/**
 * Stored tests against the real n8n: a regression an edit introduces is caught by the workflow's saved
 * test, and with runTests the edit is rolled back, n8n's copy read back as it was.
 */
const { ok: call, refused } = connectedClient('e2e-real-n8n-stored-tests');

const greeter = greeterWorkflow(`greet-${Date.now()}`);
const content = async (id: string) => {
  const { name, nodes, connections, settings, active } = await n8n('GET', `/workflows/${id}`);
  return { name, nodes, connections, settings, active };
};
const rename = { type: 'setParameter', name: 'Greeting', path: '/assignments/assignments/0/value', value: '=bye {{ $json.body.name }}' };

describe('stored tests, on a real n8n', () => {
  it('catch a regression an edit brings, and roll the edit back when asked to', async () => {
    const { id } = await call('create_workflow', { workflow: greeter });
    await call('save_workflow_test', {
      id,
      test: { name: 'greets', payload: { name: 'Ada' }, expect: { status: 200, body: { '/greeting': 'hello Ada' }, items: { Respond: 1 } } },
    });
    expect(await call('run_workflow_tests', { id })).toMatchObject({ passed: true, tests: [{ name: 'greets', passed: true }] });

    // Without runTests the edit is saved, and the saved test catches what it broke.
    await call('edit_workflow', { id, operations: [rename] });
    const caught = await call('run_workflow_tests', { id });
    expect(caught).toMatchObject({
      passed: false,
      tests: [{ name: 'greets', passed: false, failures: [`the answer's /greeting is "bye Ada", not "hello Ada"`] }],
    });
    const [edit] = (await call('list_workflow_versions', { id })).versions;
    await call('restore_workflow_version', { id, version: edit.version });

    // With runTests the same edit is put back: n8n's copy and the history are as they were.
    const before = await content(id);
    const versions = (await call('list_workflow_versions', { id })).versions;
    const text = await refused('edit_workflow', { id, runTests: true, operations: [rename] });
    expect(text).toMatch(
      /The tests step failed: 1 of 1 saved tests failed: "greets": the answer's \/greeting is "bye Ada", not "hello Ada"\. Workflow \w+ is as it was before this call\./,
    );
    expect(await content(id)).toEqual(before);
    expect((await call('list_workflow_versions', { id })).versions).toEqual(versions);
    await call('delete_workflow', { id });
  }, 120_000);
});
