import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startWranglerDev, type DevServer } from '../../scripts/lib/wranglerDev';
import { startRealN8n, type RealN8n } from '../../scripts/n8n/realN8n';
import { connectedClient, n8nApi, type OwnInstance } from './client';
import { greeterWorkflow } from './greeter';

/**
 * n8n 2.x's draft and publish on a real n8n: 1.123.81 with N8N_ENV_FEAT_WORKFLOWS_DRAFT_PUBLISH_ENABLED,
 * where (as on n8n 2.0) a save of an active workflow is a draft and the published version keeps
 * running until it is published. This file starts that n8n, and a server of this project driving it,
 * beside the suite's. The answers say which version is published; activation publishes the saved one;
 * a change n8n refuses midway puts the published version back, not the draft; a draft's tests are not
 * judged by the published version. What 1.123.81 cannot show: its webhooks find their node in the
 * published version but run the saved one's nodes (its live-webhooks hands the saved workflow to the
 * run; n8n 2.41.3's hands the published version), so which version a test run ran is shown on the
 * contract fake of 2.41.3 (test/tools/n8n/publishing.test.ts), not here.
 */
let n8n: RealN8n;
let server: DevServer;
let instance: OwnInstance;
beforeAll(async () => {
  n8n = await startRealN8n({ N8N_ENV_FEAT_WORKFLOWS_DRAFT_PUBLISH_ENABLED: 'true' });
  server = await startWranglerDev({ vars: { N8N_API_URL: n8n.url, N8N_API_KEY: n8n.apiKey, RATE_LIMITS: 'off' } });
  instance = { serverUrl: server.url, serverKey: server.apiKey!, n8nUrl: n8n.url, n8nKey: n8n.apiKey };
}, 600_000);
afterAll(async () => {
  await server?.stop();
  await n8n?.stop();
});
const { ok, call } = connectedClient('e2e-real-n8n-draft-publish', undefined, () => instance);
const read = (id: string) => n8nApi('GET', `/workflows/${id}`, undefined, instance);
const greeting = (value: string) => ({ type: 'setParameter', name: 'Greeting', path: '/assignments/assignments/0/value', value });

describe("n8n's draft and publish (1.123.81 with drafts enabled)", () => {
  it('says the saved version of an active workflow is a draft, and publishes it on activation: test runs then run it', async () => {
    const { id } = await ok('create_workflow', { workflow: greeterWorkflow(`draft-${Date.now()}`) });
    const activated = await ok('activate_workflow', { id });
    expect(activated).toMatchObject({ active: true, liveVersionId: activated.versionId });
    const live = activated.versionId as string;

    const edited = await ok('edit_workflow', { id, operations: [greeting('=bye {{ $json.body.name }}')] });
    expect(edited).toMatchObject({ saved: true, liveVersionId: live, draft: expect.stringContaining(`published version (${live})`) });
    expect(edited.versionId).not.toBe(live);
    expect((await read(id)).activeVersionId).toBe(live);

    expect((await ok('get_workflow', { id })).draft).toContain(`(${edited.versionId}) is a draft`);

    const published = await ok('activate_workflow', { id });
    expect(published).toMatchObject({ versionId: edited.versionId, liveVersionId: edited.versionId });
    expect(published).not.toHaveProperty('draft');
    const next = await ok('test_workflow', { id, payload: { name: 'Ada' } });
    expect(next.trigger.response).toEqual({ greeting: 'bye Ada' });
    expect(next.workflow.ranVersionId).toBe(edited.versionId);
  });

  it("does not judge a draft by the published version's tests: edit_workflow's runTests says they were not run", async () => {
    const { id } = await ok('create_workflow', { workflow: greeterWorkflow(`tests-${Date.now()}`) });
    await ok('activate_workflow', { id });
    await ok('save_workflow_test', { id, test: { name: 'greets', payload: { name: 'Ada' }, expect: { body: { '/greeting': 'hello Ada' } } } });
    const edited = await ok('edit_workflow', { id, operations: [greeting('=bye {{ $json.body.name }}')], runTests: true });
    expect(edited.tests.skipped).toMatch(/is a draft.*The saved tests were not run\./);
    expect((await ok('run_workflow_tests', { id })).draft).toContain(`(${edited.versionId}) is a draft`);
  });

  it('puts the published version back, not the draft, when an edit that publishes fails its tests', async () => {
    const { id } = await ok('create_workflow', { workflow: greeterWorkflow(`back-${Date.now()}`) });
    const live = (await ok('activate_workflow', { id })).versionId as string;
    // A draft saved over the live version, then an edit that publishes and breaks the saved test.
    const draft = await ok('edit_workflow', { id, operations: [greeting('=hi {{ $json.body.name }}')] });
    await ok('save_workflow_test', { id, test: { name: 'greets', payload: { name: 'Ada' }, expect: { body: { '/greeting': 'hello Ada' } } } });
    const before = await read(id);
    const failed = await call('edit_workflow', { id, operations: [greeting('=bye {{ $json.body.name }}'), { type: 'activate' }], runTests: true });
    expect(failed.isError).toBe(true);
    expect(failed.text).toMatch(new RegExp(`The tests step failed: .*"greets".*Workflow ${id} is as it was before this call\\.`));

    const after = await read(id);
    expect(after.activeVersionId).toBe(live);
    expect(after.nodes).toEqual(before.nodes);
    expect(JSON.stringify(after.nodes)).toContain('=hi {{ $json.body.name }}');
    expect(JSON.stringify(after.activeVersion.nodes)).toContain('=hello {{ $json.body.name }}');
    expect(draft.versionId).not.toBe(live);
  });
});
