import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ANSWER_BUDGET_BYTES } from '../../src/config';
import { connectedClient, type Json } from './client';

/**
 * Large answers against the real n8n, in a 2025 session (the SDK 1.x client), where an answer goes
 * through the session object's storage: a run of ~10 MB (a Code node's 40,000 items), read back with
 * get_execution a page at a time and with list_executions; and an HTTP Request that continues on its
 * failure, whose items n8n stores with the error's stack, which no answer carries.
 */
const connected = connectedClient('e2e-real-n8n-large-answers');
const { ok: call } = connected;

const path = `large-${Date.now()}`;
const ITEMS = 40_000;
const largeWorkflow = {
  name: 'Large answers (e2e)',
  settings: { executionOrder: 'v1' },
  nodes: [
    {
      name: 'Hook',
      type: 'n8n-nodes-base.webhook',
      typeVersion: 2,
      webhookId: 'f0e1d2c3-0000-4000-8000-0000000b0001',
      position: [0, 0],
      parameters: { path, httpMethod: 'POST', responseMode: 'onReceived', options: {} },
    },
    {
      name: 'Call nowhere',
      type: 'n8n-nodes-base.httpRequest',
      typeVersion: 4.2,
      position: [200, 0],
      onError: 'continueRegularOutput',
      parameters: { url: 'http://127.0.0.1:9/nowhere', options: { timeout: 2000 } },
    },
    {
      name: 'Big',
      type: 'n8n-nodes-base.code',
      typeVersion: 2,
      position: [400, 0],
      parameters: { jsCode: `return Array.from({ length: ${ITEMS} }, (_, i) => ({ json: { i, name: 'Customer ' + i, note: 'x'.repeat(200) } }));` },
    },
  ],
  connections: {
    Hook: { main: [[{ node: 'Call nowhere', type: 'main', index: 0 }]] },
    'Call nowhere': { main: [[{ node: 'Big', type: 'main', index: 0 }]] },
  },
};

/** The bytes the answer's text takes in its JSON-RPC message (escaped once more), about what the budget counts. */
const messageBytes = (text: string) => Buffer.byteLength(JSON.stringify(text), 'utf8');
const HOST_DETAILS = /"stack"|node_modules|\\n {4}at /;

let id: string;
let executionId: string;
beforeAll(async () => {
  id = (await call('create_workflow', { workflow: largeWorkflow })).id;
  const run = await call('test_workflow', { id, payload: {}, waitSeconds: 100 });
  executionId = run.execution.id;
  // The run's own answer: the HTTP Request's item as a sample, without the stack n8n stored with it.
  expect(JSON.stringify(run)).toContain('ECONNREFUSED');
  expect(JSON.stringify(run)).not.toMatch(HOST_DETAILS);
}, 300_000);
afterAll(async () => {
  await call('delete_workflow', { id });
});

describe('a run of 10 MB', () => {
  it('get_execution answers its data a page at a time, every item once, each page within the budget and without the stacks n8n stored', async () => {
    const seen: number[] = [];
    let cursor: string | undefined;
    let pages = 0;
    do {
      const page = await connected.call('get_execution', { id: executionId, includeData: true, fullData: true, ...(cursor ? { cursor } : {}) });
      expect(page.isError, page.text.slice(0, 300)).toBe(false);
      expect(messageBytes(page.text)).toBeLessThanOrEqual(ANSWER_BUDGET_BYTES);
      expect(page.text).not.toMatch(HOST_DETAILS);
      for (const run of page.json.data.runData as Json[])
        if (run.node === 'Big') for (const output of run.outputs) seen.push(...output.items.map((item: Json) => item.json.i));
      cursor = page.json.nextCursor;
      pages++;
    } while (cursor);
    expect(pages).toBeGreaterThan(10);
    expect(seen).toEqual(Array.from({ length: ITEMS }, (_, i) => i));
  }, 600_000);

  it('list_executions answers it with its data summarised per node, and how to read it all', async () => {
    const { executions } = await call('list_executions', { workflowId: id, includeData: true, fullData: true });
    expect(executions).toHaveLength(1);
    expect(executions[0].dataTrimmed).toMatch(/^Its data does not fit what is left of this answer, so it is summarised per node\. get_execution with id \d+/);
    expect(executions[0].data.resultData.nodes.map((n: Json) => [n.node, n.items])).toEqual([
      ['Hook', [1]],
      ['Call nowhere', [1]],
      ['Big', [ITEMS]],
    ]);
    expect(JSON.stringify(executions)).not.toMatch(HOST_DETAILS);
  }, 120_000);
});
