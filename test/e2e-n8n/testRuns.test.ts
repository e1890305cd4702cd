import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectedClient, n8nApi as n8n, type Json } from './client';

/**
 * test_workflow's answers against the real n8n: each run answers with its own execution, however many
 * run at once; a failed run names the node and the error n8n stored; a run whose items never reach the
 * Respond to Webhook node says where they stopped. Every answer is checked against the execution n8n
 * stored for that run.
 */
const connected = connectedClient('e2e-real-n8n-test-runs');
const { ok: call } = connected;

const path = `runs-${Date.now()}`;
const code = (name: string, x: number, jsCode: string, mode = 'runOnceForAllItems') => ({
  name,
  type: 'n8n-nodes-base.code',
  typeVersion: 2,
  position: [x, 0],
  parameters: { mode, jsCode },
});
/** Webhook → Split (n items) → Check (fails on an item without `need`) → Keep (i ≥ min) → Respond (all items). */
const runsWorkflow = {
  name: 'Test runs (e2e)',
  settings: { executionOrder: 'v1' },
  nodes: [
    {
      name: 'Hook',
      type: 'n8n-nodes-base.webhook',
      typeVersion: 2,
      webhookId: 'f0e1d2c3-0000-4000-8000-0000000a0001',
      position: [0, 0],
      parameters: { path, httpMethod: 'POST', responseMode: 'responseNode', options: {} },
    },
    code('Split', 200, 'const b = $json.body; return Array.from({ length: b.n }, (_, i) => ({ json: { i, n: b.n, need: b.need, min: b.min ?? 0 } }));'),
    code('Check', 400, 'if (!$json.need) throw new Error(`need is missing on item ${$json.i}`); return { json: $json };', 'runOnceForEachItem'),
    {
      name: 'Keep',
      type: 'n8n-nodes-base.filter',
      typeVersion: 2.2,
      position: [600, 0],
      parameters: {
        conditions: {
          options: { caseSensitive: true, leftValue: '', typeValidation: 'strict', version: 2 },
          combinator: 'and',
          conditions: [{ id: 'k1', leftValue: '={{ $json.i }}', rightValue: '={{ $json.min }}', operator: { type: 'number', operation: 'gte' } }],
        },
        options: {},
      },
    },
    {
      name: 'Respond',
      type: 'n8n-nodes-base.respondToWebhook',
      typeVersion: 1.1,
      position: [800, 0],
      parameters: { respondWith: 'allIncomingItems', options: {} },
    },
  ],
  connections: Object.fromEntries(
    [
      ['Hook', 'Split'],
      ['Split', 'Check'],
      ['Check', 'Keep'],
      ['Keep', 'Respond'],
    ].map(([from, to]) => [from, { main: [[{ node: to, type: 'main', index: 0 }]] }]),
  ),
};

let id: string;
beforeAll(async () => {
  id = (await call('create_workflow', { workflow: runsWorkflow })).id;
  await call('activate_workflow', { id });
});
afterAll(async () => {
  await call('delete_workflow', { id });
});

/** The execution n8n stored, with the counts per node test_workflow should have answered. */
async function stored(executionId: string) {
  const execution = await n8n('GET', `/executions/${executionId}?includeData=true`);
  const runData = execution.data.resultData.runData as Record<string, Json[]>;
  const items = Object.fromEntries(
    Object.entries(runData).map(([node, runs]) => [node, (runs.at(-1)!.data?.main ?? []).map((i: unknown[] | null) => (i ?? []).length)]),
  );
  return { execution, runData, items, body: runData.Hook![0]!.data.main[0][0].json.body };
}
const answeredItems = (run: Json) => Object.fromEntries(run.execution.nodes.map((n: Json) => [n.node, n.items]));

describe('a test run is its own', () => {
  it('answers 20 runs of one workflow at once, each with the execution n8n stored for it', async () => {
    const runs = await Promise.all(Array.from({ length: 20 }, (_, k) => call('test_workflow', { id, payload: { n: k + 1, need: 'yes' } })));
    const ids = runs.map((run) => run.execution.id);
    expect(new Set(ids).size).toBe(20);
    for (const [k, run] of runs.entries()) {
      const { body, items } = await stored(run.execution.id);
      expect(body).toEqual({ n: k + 1, need: 'yes' });
      expect(answeredItems(run)).toEqual(items);
      // Filter: kept items on output 0, discarded ones on output 1.
      expect(items).toEqual({ Hook: [1], Split: [k + 1], Check: [k + 1], Keep: [k + 1, 0], Respond: [k + 1] });
      expect(run.execution).toMatchObject({ status: 'success', verdict: 'success', path: ['Hook', 'Split', 'Check', 'Keep', 'Respond'] });
      expect(run.trigger.response).toHaveLength(k + 1);
    }
  }, 300_000);

  it('answers 10 overlapping runs of an inactive workflow, each with its own execution, and leaves it inactive', async () => {
    const hook = runsWorkflow.nodes[0]!;
    const inactive = {
      ...runsWorkflow,
      name: 'Test runs, inactive (e2e)',
      nodes: [{ ...hook, webhookId: crypto.randomUUID(), parameters: { ...hook.parameters, path: `${path}-inactive` } }, ...runsWorkflow.nodes.slice(1)],
    };
    const { id: inactiveId } = await call('create_workflow', { workflow: inactive });
    try {
      // Started 150 ms apart: runs that begin while others end, as an agent's repeated tries do.
      const runs = await Promise.all(
        Array.from({ length: 10 }, async (_, k) => {
          await new Promise((resolve) => setTimeout(resolve, k * 150));
          return connected.call('test_workflow', { id: inactiveId, payload: { n: k + 1, need: 'yes' } });
        }),
      );
      const own = await Promise.all(
        runs.map(async (run, k) => !run.isError && run.json.execution.status === 'success' && (await stored(run.json.execution.id)).body.n === k + 1),
      );
      expect(runs.filter((run) => run.isError).map((run) => run.text)).toEqual([]);
      expect(own.filter(Boolean)).toHaveLength(10);
      expect((await n8n('GET', `/workflows/${inactiveId}`)).active).toBe(false);
    } finally {
      await call('delete_workflow', { id: inactiveId });
    }
  }, 300_000);

  it('reports a failed run as failed, naming the node, the error n8n stored and the items it was given', async () => {
    const run = await call('test_workflow', { id, payload: { n: 2 } });
    const { execution, runData } = await stored(run.execution.id);
    expect(execution.status).toBe('error');
    const error = runData.Check!.at(-1)!.error;
    expect(run.execution).toMatchObject({
      status: 'error',
      failed: {
        node: 'Check',
        error: error.message,
        input: {
          from: 'Split',
          items: 2,
          samples: [
            { i: 0, n: 2, min: 0 },
            { i: 1, n: 2, min: 0 },
          ],
        },
      },
      path: ['Hook', 'Split', 'Check'],
    });
    expect(run.execution.verdict).toBe(`failed: "Check" stopped the run: ${error.message}`);
    // get_execution's error view tells the same from the stored execution alone.
    const why = await call('get_execution', { id: run.execution.id, view: 'error' });
    expect(why).toMatchObject({ id: run.execution.id, status: 'error', failed: run.execution.failed, path: ['Hook', 'Split', 'Check'] });
    // n8n's stack names its files: never in an answer.
    expect(error.stack).toMatch(/node_modules/);
    expect(JSON.stringify([run, why])).not.toMatch(/node_modules|\.n8n\//);
  }, 120_000);

  it('says where the items stopped when none reached Respond to Webhook (n8n answers 200 with no body)', async () => {
    const run = await call('test_workflow', { id, payload: { n: 2, need: 'yes', min: 5 } });
    const { execution, items } = await stored(run.execution.id);
    expect(execution.status).toBe('success');
    expect(run.trigger.status).toBe(200);
    expect(answeredItems(run)).toEqual(items);
    expect(run.execution).toMatchObject({ status: 'success', didNotRun: ['Respond'], lastWithItems: { node: 'Keep', items: [0, 2], unconnectedOutputs: [1] } });
    expect(run.execution.verdict).toBe(
      'success, but no item reached "Respond": the last node that put out items was "Keep", on output 1, connected to nothing',
    );
  }, 120_000);
});
