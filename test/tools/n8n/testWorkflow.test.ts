import { env } from 'cloudflare:workers';
import { afterEach, describe, expect, inject, it, vi } from 'vitest';
import { taskStub } from '../../../src/tasks/taskId';
import { waitFor } from '../../support/sessionStorage';
import { deliverRun, TASK_OWNER, taskWaitingOn } from '../../support/tasks';
import { callDirect, fakeN8n, fakeN8nApi } from '../../support/tools';
import { webhookTrigger } from '../../support/workflows';
import { judgeRun, type RunOutcome } from '../../../src/tools/n8n/testWorkflow';

/**
 * test_workflow's runs through the queue consumer, in workerd, against the fake n8n (its webhooks
 * answer after a delay the test sets): an inactive workflow it activated for the run is put back
 * however the run ends — its time up, cancelled, failed — and the answer says so when it cannot be.
 */
const n8nUrl = inject('n8nUrl');
const n8nKey = inject('n8nKey');
const withN8n = { overrides: { N8N_API_URL: n8nUrl, N8N_API_KEY: n8nKey } };

/** An inactive workflow that starts with a Webhook at a path of its own. */
async function inactiveWebhookWorkflow(): Promise<{ id: string; path: string }> {
  const path = `run-${crypto.randomUUID()}`;
  const node = webhookTrigger(path, 'Webhook');
  const created = await fakeN8nApi('POST', '/workflows', { name: path, nodes: [node], connections: {}, settings: {} });
  return { id: created.id, path };
}
const active = async (id: string) => (await fakeN8nApi('GET', `/workflows/${id}`)).active as boolean;

afterEach(async () => {
  await fakeN8n('config', { webhookDelayMs: 0, faults: [] });
  vi.restoreAllMocks();
});

const noFailure = { noFailedNode: true };
const run = (over: Partial<RunOutcome> = {}): RunOutcome => ({
  status: 200,
  body: { ok: true, order: { total: 250, lines: [{ sku: 'A' }] } },
  execution: {
    status: 'success',
    verdict: 'success',
    nodes: [
      { node: 'Hook', items: [1] },
      // Labelled, as test_workflow answers a node with several outputs whose names it knows.
      {
        node: 'IF',
        outputs: [
          { name: 'true', count: 1 },
          { name: 'false', count: 0 },
        ],
      },
    ],
  },
  ...over,
});

describe('judgeRun', () => {
  it('passes a run that holds everything expected', () => {
    expect(judgeRun({ status: 200, body: { '/ok': true, '/order/lines/0/sku': 'A' }, items: { Hook: 1, IF: 1 }, noFailedNode: true }, run())).toEqual([]);
  });

  it('says, one sentence each, what does not hold', () => {
    const failures = judgeRun(
      { status: 201, body: { '/ok': false, '/order/missing': 1 }, items: { IF: 2, Respond: 1 }, noFailedNode: true },
      run({ execution: { status: 'error', verdict: 'failed: "IF" stopped the run: boom', nodes: [{ node: 'IF', items: [1, 0] }] } }),
    );
    expect(failures).toEqual([
      'the trigger answered HTTP 200, not 201',
      "the answer's /ok is true, not false",
      "the answer's /order/missing is missing, not 1",
      '"IF" put out 1 item, not 2',
      '"Respond" put out nothing (it did not run), not 1',
      'the run did not succeed: failed: "IF" stopped the run: boom',
    ]);
  });

  it('lets a test allow a failed run, and compares values whole', () => {
    expect(judgeRun({ noFailedNode: false }, run({ execution: { status: 'error' } }))).toEqual([]);
    expect(judgeRun({ body: { '/order': { total: 250 } }, ...noFailure }, run())).toEqual([
      `the answer's /order is {"total":250,"lines":[{"sku":"A"}]}, not {"total":250}`,
    ]);
  });
});

describe('test_workflow with cases', () => {
  it('runs several payloads in one call, each judged as a saved test is, answering per case, and saves nothing', async () => {
    const { id } = await inactiveWebhookWorkflow();
    const answer = await callDirect('test_workflow', {
      id,
      cases: [
        { name: 'started', payload: { n: 1 }, expect: { status: 200, body: { '/message': 'Workflow was started' }, items: { Webhook: 1 } } },
        { payload: { n: 2 }, expect: { body: { '/message': 'Done' } } },
      ],
    });
    expect(answer.isError, answer.text).toBe(false);
    expect(answer.json).toMatchObject({ workflow: { id }, passed: false });
    expect(answer.json.cases).toEqual([
      expect.objectContaining({ name: 'started', passed: true, failures: [], verdict: 'success', execution: expect.any(String) }),
      expect.objectContaining({
        name: 'case 2',
        passed: false,
        failures: [`the answer's /message is "Workflow was started", not "Done"`],
        response: { status: 200, body: { message: 'Workflow was started' } },
      }),
    ]);
    // Each case ran through the trigger with its own payload, and the workflow is put back inactive.
    const [first, second] = answer.json.cases as { execution: string }[];
    const bodyOf = async (execution: string) =>
      (await fakeN8nApi('GET', `/executions/${execution}?includeData=true`)).data.resultData.runData.Webhook[0].data.main[0][0].json.body;
    expect(await bodyOf(first!.execution)).toEqual({ n: 1 });
    expect(await bodyOf(second!.execution)).toEqual({ n: 2 });
    expect(await active(id)).toBe(false);
    expect((await callDirect('list_workflow_tests', { id })).json.tests).toEqual([]);
  });

  it('takes a payload or cases, not both', async () => {
    const { id } = await inactiveWebhookWorkflow();
    const both = await callDirect('test_workflow', { id, payload: { n: 1 }, cases: [{ payload: { n: 2 } }] });
    expect(both).toMatchObject({ isError: true, text: expect.stringMatching(/payload or cases, not both/) });
  });
});

describe('test_workflow puts a workflow it activated back', () => {
  it('when the call’s time runs out while the trigger has not answered: the run stops early enough to deactivate it before the deadline', async () => {
    const { id } = await inactiveWebhookWorkflow();
    await fakeN8n('config', { webhookDelayMs: 30_000 });
    // 13 s left: the run stops 10 s before the deadline, leaving those for the deactivation.
    const deadline = Date.now() + 13_000;
    const record = await taskWaitingOn('test_workflow', { id, waitSeconds: 30 }, { deadline });
    const run = await deliverRun(record, withN8n);
    expect(Date.now()).toBeLessThan(deadline);
    expect(run.task).toMatchObject({ status: 'completed', result: { isError: true } });
    expect(run.text).toMatch(/The trigger "Webhook" did not answer before the run had to stop/);
    expect(await active(id)).toBe(false);
  }, 20_000);

  it('when the call is cancelled mid-run', async () => {
    const { id, path } = await inactiveWebhookWorkflow();
    await fakeN8n('config', { webhookDelayMs: 30_000 });
    const record = await taskWaitingOn('test_workflow', { id, waitSeconds: 30 }, { deadline: Date.now() + 60_000 });
    const running = deliverRun(record, withN8n);
    await waitFor(
      () => fakeN8n('requests'),
      (requests: string[]) => requests.includes(`POST /webhook/${path}`),
    );
    expect(await active(id)).toBe(true);
    expect(await taskStub(env, record.taskId).cancel(TASK_OWNER)).toBe(true);
    await running;
    expect(await active(id)).toBe(false);
  }, 20_000);

  it('when n8n fails mid-run, answering that the run may have happened', async () => {
    const { id } = await inactiveWebhookWorkflow();
    await fakeN8n('config', { faults: [{ request: 'GET /api/v1/executions', status: 500, times: 1 }] });
    const run = await deliverRun(await taskWaitingOn('test_workflow', { id, waitSeconds: 5 }), withN8n);
    expect(run).toMatchObject({ acked: true, retried: false });
    expect(run.text).toMatch(/n8n failed on GET \/api\/v1\/executions \(500\).*Check with list_executions/);
    expect(await active(id)).toBe(false);
  });

  it('and says so, and logs it without the key, when it cannot deactivate it', async () => {
    const { id } = await inactiveWebhookWorkflow();
    await fakeN8n('config', { faults: [{ request: `POST /api/v1/workflows/${id}/deactivate`, status: 503, times: 1 }] });
    const logged = vi.spyOn(console, 'error').mockImplementation(() => {});
    const run = await deliverRun(await taskWaitingOn('test_workflow', { id, waitSeconds: 5 }), withN8n);
    expect(run.task.result?.isError).toBeFalsy();
    const answer = JSON.parse(run.text!);
    expect(answer.execution.status).toBe('success');
    expect(answer.workflow).toMatchObject({
      id,
      activatedForTheRun: true,
      stillActive: true,
      warning: expect.stringMatching(
        /could not be deactivated again \(n8n failed on POST .*\(503\).*\): it is active now .* Deactivate it with deactivate_workflow/,
      ),
    });
    expect(await active(id)).toBe(true);
    const line = logged.mock.calls.map(([text]) => String(text)).find((text) => text.includes('could not deactivate'));
    expect(JSON.parse(line!)).toMatchObject({ level: 'error', tool: 'test_workflow', workflowId: id });
    expect(line).not.toContain(n8nKey);
    await fakeN8nApi('POST', `/workflows/${id}/deactivate`);
  });
});

describe('test_workflow leaves the active state to whoever set it during the run', () => {
  const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

  it('someone activated the workflow meanwhile (through this server): it stays active, and the answer says why', async () => {
    const { id } = await inactiveWebhookWorkflow();
    await fakeN8n('config', { webhookDelayMs: 800 });
    const testing = callDirect('test_workflow', { id, waitSeconds: 5 });
    await pause(300);
    expect((await callDirect('activate_workflow', { id }, { subject: 'key_other' })).json.active).toBe(true);
    const answer = await testing;
    expect(answer.json.workflow).toMatchObject({
      activatedForTheRun: true,
      stillActive: true,
      warning: expect.stringContaining('its active state was set by another call during the run'),
    });
    expect(await active(id)).toBe(true);
  });

  it('someone changed it in n8n itself meanwhile: it stays active, naming the versions', async () => {
    const { id } = await inactiveWebhookWorkflow();
    await fakeN8n('config', { webhookDelayMs: 800 });
    const testing = callDirect('test_workflow', { id, waitSeconds: 5 });
    await pause(300);
    const now = await fakeN8nApi('GET', `/workflows/${id}`);
    await fakeN8nApi('PUT', `/workflows/${id}`, { name: 'Changed in n8n', nodes: now.nodes, connections: now.connections, settings: now.settings });
    const answer = await testing;
    expect(answer.json.workflow.warning).toMatch(/it was changed in n8n during the run \(versionId .* → .*\)/);
    expect(await active(id)).toBe(true);
  });

  it('runs that overlap share the activation: the last to end deactivates it', async () => {
    const { id } = await inactiveWebhookWorkflow();
    await fakeN8n('config', { webhookDelayMs: 600 });
    const runs = await Promise.all([0, 150, 300].map((ms) => pause(ms).then(() => callDirect('test_workflow', { id, waitSeconds: 5 }))));
    expect(runs.map((r) => [r.isError, r.json.workflow.activatedForTheRun, r.json.workflow.stillActive])).toEqual([
      [false, true, undefined],
      [false, true, undefined],
      [false, true, undefined],
    ]);
    expect(await active(id)).toBe(false);
  });
});
