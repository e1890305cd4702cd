import { afterEach, beforeAll, describe, expect, inject, it } from 'vitest';
import { liveVersionOf, publishingOf } from '../../../src/tools/n8n/publishing';
import { loadCatalog, seedSpecs } from '../../support/catalog';
import { n8nSpecs } from '../../support/n8nCatalog';
import { callDirect, fakeN8n, fakeN8nApi } from '../../support/tools';
import { webhookTrigger } from '../../support/workflows';

const node = (name: string) => ({ name, type: 'n8n-nodes-base.noOp', typeVersion: 1, position: [0, 0], parameters: {} });
const saved = { id: 'w1', name: 'W', nodes: [node('Saved')], connections: { Saved: { main: [[]] } } };
const published = { versionId: 'v1', nodes: [node('Published')], connections: {} };

describe('publishingOf', () => {
  it('names one version when n8n runs the saved one (n8n 1.x, or 2.x after a publish)', () => {
    expect(publishingOf({ ...saved, active: true, versionId: 'v2', activeVersionId: 'v2' })).toEqual({ versionId: 'v2', liveVersionId: 'v2' });
  });

  it('says the saved version is a draft when n8n runs another, naming both and how to publish', () => {
    const publishing = publishingOf({ ...saved, active: true, versionId: 'v2', activeVersionId: 'v1', activeVersion: published });
    expect(publishing).toMatchObject({ versionId: 'v2', liveVersionId: 'v1' });
    expect(publishing.draft).toMatch(/saved version \(v2\) is a draft.*published version \(v1\).*activate_workflow publishes/);
  });

  it('has no live version for an inactive workflow', () => {
    expect(publishingOf({ ...saved, active: false, versionId: 'v2', activeVersionId: null })).toEqual({ versionId: 'v2', liveVersionId: null });
  });

  it('takes the saved version as live on an n8n that sends no activeVersionId, when the workflow is active', () => {
    expect(publishingOf({ ...saved, active: true, versionId: 'v2' })).toEqual({ versionId: 'v2', liveVersionId: 'v2' });
    expect(publishingOf({ ...saved, active: false, versionId: 'v2' })).toEqual({ versionId: 'v2', liveVersionId: null });
  });
});

describe('liveVersionOf', () => {
  it("is the published version's nodes and connections for an active workflow n8n sends them for", () => {
    expect(liveVersionOf({ ...saved, active: true, versionId: 'v2', activeVersionId: 'v1', activeVersion: published })).toEqual({
      nodes: published.nodes,
      connections: published.connections,
    });
  });

  it('is the saved nodes when the workflow is inactive or n8n sends no published version', () => {
    const savedOnly = { nodes: saved.nodes, connections: saved.connections };
    expect(liveVersionOf({ ...saved, active: false, versionId: 'v2', activeVersionId: null, activeVersion: published })).toEqual(savedOnly);
    expect(liveVersionOf({ ...saved, active: true, versionId: 'v2', activeVersionId: 'v2' })).toEqual(savedOnly);
  });
});

/**
 * Through the tools, against the contract fake of n8n 2.41.3, which keeps every saved version and runs
 * the published one: activation publishes, a save of an active workflow is published too (unless saved
 * as a draft by someone else, or refused by a key that may not publish), and the answers say which
 * version runs.
 */
describe("n8n 2.x's draft and publish, through the tools", () => {
  beforeAll(() => loadCatalog([...seedSpecs(), ...n8nSpecs], ['seed', 'n8n']));
  afterEach(() => fakeN8n('config', { cannotPublish: false, faults: [] }));

  const ok = async (tool: string, args: Record<string, unknown>) => {
    const answer = await callDirect(tool, args);
    expect(answer.isError, answer.text).toBe(false);
    return answer.json;
  };
  const hook = (path: string) => webhookTrigger(path, 'Hook', { options: {} });
  /** An active webhook workflow, published at `path`; its id and the published versionId. */
  async function published(path = `live-${crypto.randomUUID()}`) {
    const { id } = await ok('create_workflow', { workflow: { name: path, nodes: [hook(path)], connections: {}, settings: {} }, force: true });
    const { versionId } = await ok('activate_workflow', { id });
    return { id, path, live: versionId as string };
  }
  /** A draft saved over a published workflow, as n8n's editor (or another API client) saves one: a Webhook at another path. */
  async function draftOver(id: string, name: string) {
    const path = `draft-${crypto.randomUUID()}`;
    const saved = await fakeN8nApi('PUT', `/workflows/${id}?publishIfActive=false`, { name, nodes: [hook(path)], connections: {}, settings: {} });
    return { path, versionId: saved.versionId as string };
  }
  const liveOf = async (id: string) => (await fakeN8nApi('GET', `/workflows/${id}`)).activeVersionId as string | null;

  it('activation publishes the saved version, and a later save of the active workflow is published too, each answer naming the version that runs', async () => {
    const { id, live } = await published();
    expect(await liveOf(id)).toBe(live);
    const edited = await ok('edit_workflow', { id, operations: [{ type: 'updateName', name: 'Renamed' }] });
    expect(edited.versionId).not.toBe(live);
    expect(edited).toMatchObject({ liveVersionId: edited.versionId });
    expect(edited).not.toHaveProperty('draft');
    expect(await liveOf(id)).toBe(edited.versionId);
    expect(await ok('deactivate_workflow', { id })).toMatchObject({ active: false, liveVersionId: null });
  });

  it('says when the saved version is a draft: get_workflow, list_workflows and test_workflow, which runs the published version; activate_workflow publishes the draft', async () => {
    const { id, path, live } = await published();
    const draft = await draftOver(id, 'With a draft');
    expect((await ok('get_workflow', { id })).draft).toContain(`(${live})`);
    expect((await ok('list_workflows', { name: 'With a draft' })).workflows).toEqual([expect.objectContaining({ id, draft: true })]);

    const run = await ok('test_workflow', { id, payload: { n: 1 } });
    expect(run.workflow).toMatchObject({ ranVersionId: live, draft: expect.stringContaining(draft.versionId) });
    expect(run.trigger.url).toContain(`/webhook/${path}`);
    const execution = await fakeN8nApi('GET', `/executions/${run.execution.id}?includeData=true`);
    expect(execution.workflowVersionId).toBe(live);

    expect(await ok('activate_workflow', { id })).toMatchObject({ versionId: draft.versionId, liveVersionId: draft.versionId });
    const next = await ok('test_workflow', { id, payload: { n: 2 } });
    expect(next.workflow.ranVersionId).toBe(draft.versionId);
    expect(next.workflow).not.toHaveProperty('draft');
    expect(next.trigger.url).toContain(`/webhook/${draft.path}`);
  });

  it('puts back the published version, not the draft, when a step after the save is refused', async () => {
    const { id, path, live } = await published();
    const draft = await draftOver(id, 'Draft kept');
    const before = await fakeN8nApi('GET', `/workflows/${id}`);
    await fakeN8n('config', { faults: [{ request: `PUT /api/v1/workflows/${id}/tags`, status: 400, times: 1 }] });
    const answer = await callDirect('edit_workflow', {
      id,
      operations: [
        { type: 'updateName', name: 'Edited' },
        { type: 'addTag', tag: 'refused' },
      ],
    });
    expect(answer.text).toMatch(new RegExp(`The tags step failed: .*Workflow ${id} is as it was before this call\\.`));
    const after = await fakeN8nApi('GET', `/workflows/${id}`);
    expect(after.activeVersionId).toBe(live);
    expect({ name: after.name, nodes: after.nodes }).toEqual({ name: before.name, nodes: before.nodes });
    expect((await fetch(`${inject('n8nUrl')}/webhook/${path}`, { method: 'POST' })).status).toBe(200);
    expect((await fetch(`${inject('n8nUrl')}/webhook/${draft.path}`, { method: 'POST' })).status).toBe(404);
  });

  it('puts the workflow back when n8n keeps a save as a draft and refuses to publish it (a key without workflow:activate), naming the step and the reason', async () => {
    const { id, live } = await published();
    const before = await fakeN8nApi('GET', `/workflows/${id}`);
    await fakeN8n('config', { cannotPublish: true });
    const answer = await callDirect('edit_workflow', { id, operations: [{ type: 'updateName', name: 'Not published' }] });
    expect(answer.isError).toBe(true);
    expect(answer.text).toMatch(new RegExp(`The save step failed: .*workflow:activate.*Workflow ${id} is as it was before this call\\.`));
    const after = await fakeN8nApi('GET', `/workflows/${id}`);
    expect({ name: after.name, nodes: after.nodes, live: after.activeVersionId }).toEqual({ name: before.name, nodes: before.nodes, live });
    expect((await callDirect('list_workflow_versions', { id })).json.versions.map((v: { change: string }) => v.change)).toEqual(['activate', 'create']);
  });
});
