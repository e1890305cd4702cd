import { env } from 'cloudflare:workers';
import { describe, expect, inject, it } from 'vitest';
import { N8nClient } from '../../../src/n8n/client';
import { nodeGate } from '../../../src/tools/n8n/nodeGate';
import { callTrigger, executionIdsOf, newestExecutionId, waitForOwnExecution } from '../../../src/tools/n8n/ownExecution';
import type { TriggerNode } from '../../../src/tools/n8n/trigger';
import { webhookTrigger } from '../../support/workflows';

/**
 * Finding the execution a call started, against the contract fake of n8n (each call of an active
 * workflow's webhook leaves an execution holding the request, headers included): the marked one among
 * the workflow's other runs, never an older one; every execution of a workflow, running ones included.
 */
const n8nUrl = inject('n8nUrl');
const n8nKey = inject('n8nKey');
const client = new N8nClient({ apiBase: `${n8nUrl}/api/v1`, apiKey: n8nKey }, nodeGate({ id: 'key_test', subject: 'key_test', scopes: ['*'] }, env));
const never = new AbortController().signal;
const fake = (path: string, body?: unknown) =>
  fetch(`${n8nUrl}/__fake/${path}`, body === undefined ? {} : { method: 'POST', body: JSON.stringify(body) }).then((r) => r.json() as Promise<any>);

/** An active workflow whose Webhook (POST) n8n serves at a path of its own. */
async function activeWebhook(): Promise<{
  id: string;
  trigger: TriggerNode;
  url: URL;
  call: (payload: Record<string, unknown>, runId: string, signal?: AbortSignal) => ReturnType<typeof callTrigger>;
}> {
  const path = `own-${crypto.randomUUID()}`;
  const trigger = webhookTrigger(path);
  const { id } = await client.post<{ id: string }>('/workflows', { body: { name: path, nodes: [trigger], connections: {}, settings: {} } });
  await client.post(`/workflows/${id}/activate`);
  const url = new URL(`${n8nUrl}/webhook/${path}`);
  const call = (payload: Record<string, unknown>, runId: string, signal = never) =>
    callTrigger(client, { workflowId: id, url, node: trigger, payload, runId }, signal);
  return { id, trigger, url, call };
}

const soon = () => Date.now() + 3_000;

describe('the execution a call started', () => {
  it('is the one whose trigger item carries the call’s mark, among the runs of the same workflow', async () => {
    const { id, trigger, url, call } = await activeWebhook();
    const start = await newestExecutionId(client);
    const before = await call({ n: 0 }, 'an earlier run');
    expect(before).toEqual({ url: url.pathname, status: 200, body: { message: 'Workflow was started' } });
    const after = await newestExecutionId(client);
    expect(after).toBeGreaterThan(start);
    const runIds = ['run-1', 'run-2', 'run-3'];
    for (const [n, runId] of runIds.entries()) await call({ n }, runId);
    const base = { n8n: client, workflowId: id, after, until: soon(), signal: never, trigger, payload: {} };
    for (const [n, runId] of runIds.entries()) {
      const found = await waitForOwnExecution({ ...base, runId });
      expect(found?.identifiedBy).toBe('mark');
      const item = found!.execution.data!.resultData!.runData!.Hook![0]!.data!.main![0]![0]!.json as { body: unknown };
      expect(item.body).toEqual({ n });
    }
    // The run before `after` carries its mark, but is not looked at.
    expect(await waitForOwnExecution({ ...base, runId: 'an earlier run', until: Date.now() + 1_000 })).toBeNull();
  });

  it('comes without the stacks and paths of the n8n host, as every answer of test_workflow, try_nodes and run_workflow_tests reads it', async () => {
    const { id, trigger, call } = await activeWebhook();
    const after = await newestExecutionId(client);
    // The run's item holds what the request carried: here an error as n8n stores one, with its stack.
    const error = {
      message: 'open /root/.n8n/config failed',
      name: 'Error',
      stack: 'Error: open failed\n    at read (/usr/lib/node_modules/n8n/dist/a.js:1:2)',
    };
    await call({ error }, 'with an error');
    const found = await waitForOwnExecution({ n8n: client, workflowId: id, after, until: soon(), signal: never, trigger, runId: 'with an error', payload: {} });
    const item = found!.execution.data!.resultData!.runData!.Hook![0]!.data!.main![0]![0]!.json as { body: unknown };
    expect(item.body).toEqual({ error: { message: 'open <path> failed', name: 'Error' } });
  });

  it('is not found once the signal is aborted or the time is up', async () => {
    const { id, trigger } = await activeWebhook();
    const base = { n8n: client, workflowId: id, after: 0, trigger, runId: 'never called', payload: {} };
    const started = Date.now();
    expect(await waitForOwnExecution({ ...base, until: Date.now() + 1_200, signal: never })).toBeNull();
    expect(Date.now() - started).toBeGreaterThanOrEqual(1_200);
    expect(await waitForOwnExecution({ ...base, until: soon(), signal: AbortSignal.abort() })).toBeNull();
  });

  it('says the trigger did not answer when the signal stops the call first', async () => {
    const { call } = await activeWebhook();
    await expect(call({}, 'stopped', AbortSignal.abort())).rejects.toThrow(
      /^The trigger "Hook" did not answer before the run had to stop \(cancelled, or its time was up\)/,
    );
  });
});

describe('every execution of a workflow', () => {
  it('finished or still running (n8n lists running ones only when asked), oldest first', async () => {
    const { id, call } = await activeWebhook();
    await call({}, 'a');
    const running = String((await fake('executions', { workflowId: id, status: 'running' })).id);
    await call({}, 'b');
    const listed = await client.get<{ data: { id: string }[] }>('/executions', { query: { workflowId: id } });
    expect(listed.data.map((e) => e.id)).not.toContain(running);
    const ids = await executionIdsOf(client, id);
    expect(ids).toHaveLength(3);
    expect(ids).toContain(running);
    expect(ids).toEqual([...ids].sort((a, b) => Number(a) - Number(b)));
  });
});
