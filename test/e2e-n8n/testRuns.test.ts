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
/** Per node, the items on each output as test_workflow answered them (a node with several outputs: labelled, in n8n's order). */
const answeredItems = (run: Json) => Object.fromEntries(run.execution.nodes.map((n: Json) => [n.node, n.items ?? n.outputs.map((o: Json) => o.count)]));

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
      expect(run.execution.nodes.find((n: Json) => n.node === 'Keep').outputs.map((o: Json) => o.name)).toEqual(['Kept', 'Discarded']);
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
    // n8n's task runner does not say which item a Code node for each item failed on: no item is guessed.
    expect(error.context).toBeUndefined();
    expect(run.execution.failed).not.toHaveProperty('item');
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
    expect(run.execution).toMatchObject({
      status: 'success',
      didNotRun: ['Respond'],
      stops: [
        {
          node: 'Keep',
          kind: 'branch not taken',
          outputs: [
            { name: 'Kept', count: 0, to: ['Respond'] },
            { name: 'Discarded', count: 2, to: [] },
          ],
          didNotRun: ['Respond'],
        },
      ],
    });
    expect(run.execution.verdict).toBe(
      'success; a branch not taken: output "Kept" of "Keep" got no items (2 on "Discarded", which leads nowhere), so "Respond" did not run',
    );
  }, 120_000);
});

/**
 * Hook → "VIP?" (IF body.vip) → true: "VIP lines" (Split Out body.lines) → "Answer VIP"; false: "Answer
 * other". A run of a non-VIP leaves the true branch not taken; a VIP without lines stops the chain at
 * "VIP lines", which puts out no items.
 */
const branchesWorkflow = {
  name: 'Branches and stops (e2e)',
  settings: { executionOrder: 'v1' },
  nodes: [
    {
      name: 'Hook',
      type: 'n8n-nodes-base.webhook',
      typeVersion: 2,
      webhookId: 'f0e1d2c3-0000-4000-8000-0000000a0002',
      position: [0, 0],
      parameters: { path: `${path}-branches`, httpMethod: 'POST', responseMode: 'responseNode', options: {} },
    },
    {
      name: 'VIP?',
      type: 'n8n-nodes-base.if',
      typeVersion: 2.2,
      position: [200, 0],
      parameters: {
        conditions: {
          options: { caseSensitive: true, leftValue: '', typeValidation: 'loose', version: 2 },
          combinator: 'and',
          conditions: [{ id: 'v1', leftValue: '={{ $json.body.vip }}', rightValue: '', operator: { type: 'boolean', operation: 'true', singleValue: true } }],
        },
        looseTypeValidation: true,
        options: {},
      },
    },
    {
      name: 'VIP lines',
      type: 'n8n-nodes-base.splitOut',
      typeVersion: 1,
      position: [400, -100],
      parameters: { fieldToSplitOut: 'body.lines', options: {} },
    },
    {
      name: 'Answer VIP',
      type: 'n8n-nodes-base.respondToWebhook',
      typeVersion: 1.1,
      position: [600, -100],
      parameters: { respondWith: 'allIncomingItems', options: {} },
    },
    {
      name: 'Answer other',
      type: 'n8n-nodes-base.respondToWebhook',
      typeVersion: 1.1,
      position: [400, 100],
      parameters: { respondWith: 'json', responseBody: '={{ { "vip": false } }}', options: {} },
    },
  ],
  connections: {
    Hook: { main: [[{ node: 'VIP?', type: 'main', index: 0 }]] },
    'VIP?': { main: [[{ node: 'VIP lines', type: 'main', index: 0 }], [{ node: 'Answer other', type: 'main', index: 0 }]] },
    'VIP lines': { main: [[{ node: 'Answer VIP', type: 'main', index: 0 }]] },
  },
};

describe('a run that explains itself', () => {
  let branchesId: string;
  beforeAll(async () => {
    branchesId = (await call('create_workflow', { workflow: branchesWorkflow })).id;
  });
  afterAll(async () => {
    await call('delete_workflow', { id: branchesId });
  });

  it('tells a branch not taken from a chain that stopped, each as the execution n8n stored shows it', async () => {
    const other = await call('test_workflow', { id: branchesId, payload: { vip: false } });
    expect((await stored(other.execution.id)).items).toEqual({ Hook: [1], 'VIP?': [0, 1], 'Answer other': [1] });
    expect(other.trigger.response).toEqual({ vip: false });
    expect(other.execution.stops).toEqual([
      {
        node: 'VIP?',
        kind: 'branch not taken',
        outputs: [
          { name: 'true', count: 0, to: ['VIP lines'] },
          { name: 'false', count: 1, to: ['Answer other'] },
        ],
        didNotRun: ['VIP lines', 'Answer VIP'],
      },
    ]);
    expect(other.execution.verdict).toBe(
      'success; a branch not taken: output "true" of "VIP?" got no items (1 on "false"), so "VIP lines", "Answer VIP" did not run',
    );

    const noLines = await call('test_workflow', { id: branchesId, payload: { vip: true } });
    expect((await stored(noLines.execution.id)).items).toEqual({ Hook: [1], 'VIP?': [1, 0], 'VIP lines': [0] });
    expect(noLines.execution.stops.map((s: Json) => [s.node, s.kind, s.didNotRun])).toEqual([
      ['VIP?', 'branch not taken', ['Answer other']],
      ['VIP lines', 'no items', ['Answer VIP']],
    ]);
    expect(noLines.execution.verdict).toBe(
      'success, but the chain stopped: "VIP lines" put out no items, so "Answer VIP" did not run; ' +
        'a branch not taken: output "false" of "VIP?" got no items (1 on "true"), so "Answer other" did not run',
    );
  }, 120_000);

  it('runs several payloads with what each expects in one call, answering per case, and saves no test', async () => {
    const answer = await call('test_workflow', {
      id: branchesId,
      cases: [
        { name: 'not a VIP', payload: { vip: false }, expect: { status: 200, body: { '/vip': false }, items: { 'Answer other': 1, 'Answer VIP': 0 } } },
        { name: 'a VIP with lines', payload: { vip: true, lines: [{ sku: 'A' }, { sku: 'B' }] }, expect: { items: { 'Answer VIP': 2 } } },
        { payload: { vip: true }, expect: { items: { 'Answer VIP': 1 } } },
      ],
    });
    expect(answer).toMatchObject({ workflow: { id: branchesId }, passed: false });
    expect(answer.cases.map((c: Json) => [c.name, c.passed, c.failures])).toEqual([
      ['not a VIP', true, []],
      ['a VIP with lines', true, []],
      ['case 3', false, ['"Answer VIP" put out nothing (it did not run), not 1']],
    ]);
    expect(answer.cases[1].response).toEqual({ status: 200, body: [{ sku: 'A' }, { sku: 'B' }] });
    expect(answer.cases[2].verdict).toMatch(/^success, but the chain stopped: "VIP lines" put out no items/);
    // Each case is an execution of its own, of its own payload.
    for (const [k, payload] of [{ vip: false }, { vip: true, lines: [{ sku: 'A' }, { sku: 'B' }] }, { vip: true }].entries()) {
      expect((await stored(answer.cases[k].execution)).body).toEqual(payload);
    }
    expect((await call('list_workflow_tests', { id: branchesId })).tests).toEqual([]);
    expect((await n8n('GET', `/workflows/${branchesId}`)).active).toBe(false);
  }, 120_000);
});
