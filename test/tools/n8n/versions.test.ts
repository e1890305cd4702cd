import { beforeAll, describe, expect, it } from 'vitest';
import { loadCatalog, seedSpecs } from '../../support/catalog';
import { savedSampleWorkflow, withN8n } from '../../support/hostile';
import { n8nSpecs } from '../../support/n8nCatalog';
import { callDirect, savedN8nWorkflow } from '../../support/tools';
import { largeWorkflow } from '../../support/workflows';

/** The version history's tools against the contract fake of n8n: every answer checked against what n8n holds. */
beforeAll(() => loadCatalog([...seedSpecs(), ...n8nSpecs], ['seed', 'n8n']));

async function content(id: string) {
  const { name, nodes, connections, settings } = (await savedN8nWorkflow(id)) as Record<string, unknown>;
  return { name, nodes, connections, settings };
}
const ok = async (tool: string, args: Record<string, unknown>) => {
  const answer = await callDirect(tool, args);
  expect(answer.isError, answer.text).toBe(false);
  return answer.json;
};

describe('the version history', () => {
  it('keeps a version at creation and before each change, with who, what and why, newest first', async () => {
    const id = await savedSampleWorkflow(withN8n());
    await ok('edit_workflow', { id, operations: [{ type: 'updateName', name: 'Second' }], reason: 'a clearer name' });
    await ok('activate_workflow', { id });
    await ok('deactivate_workflow', { id });
    const { versions } = await ok('list_workflow_versions', { id });
    expect(versions.map((v: { change: string; reason: string; by: string }) => [v.change, v.reason])).toEqual([
      ['deactivate', 'deactivate_workflow'],
      ['activate', 'activate_workflow'],
      ['edit', 'a clearer name'],
      ['create', 'create_workflow'],
    ]);
    expect(versions.every((v: { by: string }) => v.by === versions[0].by && v.by.length > 0)).toBe(true);
    // The version kept before the activation is the edited, inactive workflow.
    expect(versions[1]).toMatchObject({ name: 'Second', active: false });
  });

  it("gives back a kept version whole, and diffs it against n8n's copy now", async () => {
    const id = await savedSampleWorkflow(withN8n());
    const original = await content(id);
    await ok('edit_workflow', {
      id,
      operations: [
        { type: 'setParameter', name: '__proto__', path: '/options/responseCode', value: 202 },
        { type: 'removeNode', name: 'Respond Invalid' },
      ],
    });
    const [edit] = (await ok('list_workflow_versions', { id })).versions;
    const kept = await ok('get_workflow_version', { id, version: edit.version });
    expect({ name: kept.workflow.name, nodes: kept.workflow.nodes, connections: kept.workflow.connections, settings: kept.workflow.settings }).toEqual(
      original,
    );
    const diff = await ok('diff_workflow_versions', { id, from: edit.version });
    expect(diff).toMatchObject({
      to: 'current',
      nodes: { added: [], removed: ['Respond Invalid'], changed: [{ node: '__proto__', parameters: ['/options/responseCode'] }] },
      same: false,
    });
    expect(diff.connections.removed).toEqual([expect.stringContaining('→ "Respond Invalid"')]);
  });

  it('restores a version, keeping the one it replaces, so the restore can be undone too', async () => {
    const id = await savedSampleWorkflow(withN8n());
    const original = await content(id);
    await ok('edit_workflow', { id, operations: [{ type: 'updateName', name: 'Changed' }] });
    const edited = await content(id);
    const [edit] = (await ok('list_workflow_versions', { id })).versions;
    expect(await ok('restore_workflow_version', { id, version: edit.version })).toMatchObject({ restored: true, id, version: edit.version });
    expect(await content(id)).toEqual(original);
    const [restore] = (await ok('list_workflow_versions', { id })).versions;
    expect(restore).toMatchObject({ change: 'restore', name: 'Changed' });
    await ok('restore_workflow_version', { id, version: restore.version });
    expect(await content(id)).toEqual(edited);
  });

  it('brings a deleted workflow back from its last version, under the new id n8n gives it', async () => {
    const id = await savedSampleWorkflow(withN8n());
    const original = await content(id);
    const { keptVersion } = await ok('delete_workflow', { id, reason: 'cleaning up' });
    expect((await callDirect('get_workflow', { id })).text).toMatch(/404/);
    const deleted = (await ok('list_workflow_versions', {})).workflows.find((w: { workflowId: string }) => w.workflowId === id);
    expect(deleted).toMatchObject({ change: 'delete', reason: 'cleaning up', version: keptVersion });
    const back = await ok('restore_workflow_version', { id, version: keptVersion });
    expect(back.id).not.toBe(id);
    expect(await content(back.id)).toEqual(original);
    expect((await ok('list_workflow_versions', { id: back.id })).versions).toEqual([
      expect.objectContaining({ change: 'create', reason: expect.stringContaining(`of deleted workflow ${id}`) }),
    ]);
  });

  it("keeps what n8n says of a version's owners behind users:read, as get_workflow does", async () => {
    const id = await savedSampleWorkflow(withN8n());
    await ok('edit_workflow', { id, operations: [{ type: 'updateName', name: 'Owned' }] });
    const [edit] = (await ok('list_workflow_versions', { id })).versions;
    const narrow = { scopes: ['workflows:read'] };
    const version = (await callDirect('get_workflow_version', { id, version: edit.version }, narrow)).json.workflow;
    const full = (await ok('get_workflow_version', { id, version: edit.version })).workflow;
    const personal = (w: { shared: { project?: { type?: string; name?: string } }[] }) => w.shared.map((s) => s.project).find((p) => p?.type === 'personal');
    expect(personal(full)?.name).toEqual(expect.any(String));
    expect(personal(version)).toBeDefined();
    expect(personal(version)).not.toHaveProperty('name');
    expect(personal((await callDirect('get_workflow', { id }, narrow)).json)).not.toHaveProperty('name');
  });

  it("lists what n8n 2.x keeps itself beside this server's versions: the published version and its publish events", async () => {
    const id = await savedSampleWorkflow(withN8n());
    expect(await ok('list_workflow_versions', { id })).not.toHaveProperty('n8n');
    await ok('activate_workflow', { id });
    const { versionId } = await savedN8nWorkflow(id);
    const listed = await ok('list_workflow_versions', { id });
    expect(listed.n8n).toEqual({
      liveVersionId: versionId,
      versionId,
      publishHistory: [{ versionId, event: 'activated', createdAt: expect.any(String) }],
    });
    expect(JSON.stringify(listed.n8n)).not.toMatch(/userId|authors/);
  });

  it('says which versions there are when asked for one that is not kept', async () => {
    const id = await savedSampleWorkflow(withN8n());
    const [created] = (await ok('list_workflow_versions', { id })).versions;
    const missing = await callDirect('get_workflow_version', { id, version: created.version + 1000 });
    expect(missing.isError).toBe(true);
    expect(missing.text).toMatch(
      new RegExp(`has no version ${created.version + 1000} .*its newest are ${created.version}\\. list_workflow_versions lists them\\.`),
    );
  });

  it("prune_workflow_versions deletes the caller's own versions of a workflow, and no one else's", async () => {
    const id = await savedSampleWorkflow(withN8n());
    await callDirect('edit_workflow', { id, operations: [{ type: 'updateName', name: 'Mine' }] });
    await callDirect('edit_workflow', { id, operations: [{ type: 'updateName', name: 'Theirs' }] }, { subject: 'key_other' });
    const by = async () => ((await ok('list_workflow_versions', { id })).versions as { by: string }[]).map((v) => v.by);
    expect(await by()).toEqual(['key_other', 'key_hostile', 'key_hostile']);
    expect(await ok('prune_workflow_versions', { id })).toEqual({ id, deleted: 2, freedBytes: expect.any(Number) });
    expect(await by()).toEqual(['key_other']);
  });
});

describe('a kept version larger than one answer', () => {
  it('get_workflow_version answers its outline, each node with its size, and its nodes by name', async () => {
    const { id } = await ok('create_workflow', { workflow: largeWorkflow(`Large ${crypto.randomUUID()}`) });
    const [{ version }] = (await ok('list_workflow_versions', { id })).versions;
    const outline = await ok('get_workflow_version', { id, version });
    expect(outline.version).toMatchObject({ version, change: 'create' });
    expect(outline.workflow.answerTooLarge).toMatch(/^The answer is [\d,]+ bytes, .* read them with get_workflow_version and nodes \(names\)/);
    expect(outline.workflow.nodes).toHaveLength(9);
    const part = await ok('get_workflow_version', { id, version, nodes: ['Code 8'] });
    expect(part.workflow.nodes).toEqual([expect.objectContaining({ name: 'Code 8', parameters: largeWorkflow('').nodes[8]!.parameters })]);
  });
});
