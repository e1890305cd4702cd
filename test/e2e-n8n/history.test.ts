import { describe, expect, it } from 'vitest';
import { connectedClient, n8nApi as n8n, type Json } from './client';

/**
 * The version history against the real n8n: every operation is checked by reading the workflow back
 * from n8n itself; a change n8n refuses midway leaves n8n's copy and the history as they were.
 */
const { ok: call, refused } = connectedClient('e2e-real-n8n-history');

const manualWorkflow = (name: string) => ({
  name,
  nodes: [
    { name: 'Start', type: 'n8n-nodes-base.manualTrigger', typeVersion: 1, position: [0, 0], parameters: {} },
    {
      name: 'Set',
      type: 'n8n-nodes-base.set',
      typeVersion: 3.4,
      position: [220, 0],
      parameters: { assignments: { assignments: [{ id: 'a1', name: 'greeting', value: 'hello', type: 'string' }] }, options: {} },
    },
  ],
  connections: { Start: { main: [[{ node: 'Set', type: 'main', index: 0 }]] } },
  settings: { executionOrder: 'v1' },
});
/** What n8n holds of a workflow, without what every save changes. */
async function content(id: string) {
  const { name, nodes, connections, settings, active } = await n8n('GET', `/workflows/${id}`);
  return { name, nodes, connections, settings, active };
}
const versions = async (id: string) => (await call('list_workflow_versions', { id })).versions as Json[];

describe('the version history, on a real n8n', () => {
  it('keeps, diffs and restores versions, each checked against what n8n holds', async () => {
    const { id } = await call('create_workflow', { workflow: manualWorkflow('History (e2e)') });
    const original = await content(id);
    await call('edit_workflow', { id, operations: [{ type: 'setParameter', name: 'Set', path: '/assignments/assignments/0/value', value: 'bye' }] });
    const edited = await content(id);
    expect(edited.nodes.find((n: Json) => n.name === 'Set').parameters.assignments.assignments[0].value).toBe('bye');

    const [edit, create] = (await versions(id)) as [Json, Json];
    expect([edit.change, create.change]).toEqual(['edit', 'create']);
    const kept = await call('get_workflow_version', { id, version: edit.version });
    expect({
      name: kept.workflow.name,
      nodes: kept.workflow.nodes,
      connections: kept.workflow.connections,
      settings: kept.workflow.settings,
      active: kept.workflow.active,
    }).toEqual(original);
    const diff = await call('diff_workflow_versions', { id, from: edit.version });
    expect(diff.nodes).toEqual({ added: [], removed: [], changed: [{ node: 'Set', parameters: ['/assignments/assignments'] }] });

    await call('restore_workflow_version', { id, version: edit.version });
    expect(await content(id)).toEqual(original);
    expect((await versions(id))[0]).toMatchObject({ change: 'restore', versionId: expect.any(String) });
    await call('delete_workflow', { id });
  });

  it('brings a deleted workflow back under a new id, as it was', async () => {
    const { id } = await call('create_workflow', { workflow: manualWorkflow('Deleted (e2e)') });
    const original = await content(id);
    const { keptVersion } = await call('delete_workflow', { id });
    await expect(n8n('GET', `/workflows/${id}`)).rejects.toThrow(/: 404 /);
    const back = await call('restore_workflow_version', { id, version: keptVersion });
    expect(await content(back.id)).toEqual(original);
    await call('delete_workflow', { id: back.id });
  });

  it('leaves n8n and the history as they were when n8n refuses the activation after the save', async () => {
    const { id } = await call('create_workflow', { workflow: manualWorkflow('Refused activation (e2e)') });
    const before = await content(id);
    const history = await versions(id);
    // n8n does not activate a workflow whose only trigger is the manual one: the edit's last step fails.
    const text = await refused('edit_workflow', { id, operations: [{ type: 'updateName', name: 'Should not stay' }, { type: 'activate' }] });
    expect(text).toMatch(new RegExp(`The activate step failed: .*Workflow ${id} is as it was before this call\\.`));
    expect(await content(id)).toEqual(before);
    expect(await versions(id)).toEqual(history);
    await call('delete_workflow', { id });
  });
});
