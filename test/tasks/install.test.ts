import { runInDurableObject } from 'cloudflare:test';
import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { taskStub } from '../../src/tasks/taskId';
import { createKey } from '../support/keys';
import { postJson, sseReader } from '../support/mcp';
import { modern, pollTask, withTasks } from '../support/modern';

/**
 * The tasks extension through the real Worker, task Durable Objects and the tool-call queue in
 * workerd: a queued tool becomes a task for a client that declares the extension, and its answer
 * keeps the queue's rules (exactly once, deadline, dead letters).
 */
async function startTask(name: string, args: Record<string, unknown>, headers: Record<string, string> = {}) {
  const { body } = await modern('tools/call', { name, arguments: args }, { capabilities: withTasks, headers });
  expect(body.result).toMatchObject({ resultType: 'task', status: 'working', taskId: expect.any(String), ttlMs: expect.any(Number) });
  expect(body.result).not.toHaveProperty('requestState');
  return body.result.taskId as string;
}

describe('tasks for queued tools (MCP 2026-07-28)', () => {
  it('runs a queued tool as a task and polls it to its result', async () => {
    const taskId = await startTask('test_queued_echo', { text: 'task' });
    const task = await pollTask(taskId);
    expect(task).toMatchObject({ taskId, status: 'completed', result: { structuredContent: { echo: 'task' } } });
  });

  it('refuses a task-only tool, and the tasks methods, to a client without the extension', async () => {
    const refused = await modern('tools/call', { name: 'failing_job', arguments: {} });
    expect(refused.body.error).toMatchObject({ code: -32021, data: { requiredCapabilities: { extensions: { 'io.modelcontextprotocol/tasks': {} } } } });
    const gate = await modern('tasks/get', { taskId: 'gate-test' });
    expect(gate.body.error.code).toBe(-32021);
  });

  it('shows a task to the caller that made it only', async () => {
    const taskId = await startTask('test_queued_echo', { text: 'mine' });
    const { key } = await createKey(['*']);
    const other = await modern('tasks/get', { taskId }, { capabilities: withTasks, headers: { authorization: `Bearer ${key}` } });
    expect(other.body.error.code).toBe(-32602);
    expect((await modern('tasks/get', { taskId: 'no-such-task' }, { capabilities: withTasks })).body.error.code).toBe(-32602);
  });

  it('takes the first outcome of a run only; a cancelled task ignores what its run delivers later', async () => {
    const taskId = await startTask('slow_compute', { seconds: 30, label: 'cancel' });
    const cancel = await modern('tasks/cancel', { taskId }, { capabilities: withTasks });
    expect(cancel.body.result).toEqual(expect.objectContaining({ resultType: 'complete' }));
    expect(cancel.body.result).not.toHaveProperty('status');
    expect(await pollTask(taskId)).toMatchObject({ status: 'cancelled' });
    const again = await modern('tasks/cancel', { taskId }, { capabilities: withTasks });
    expect(again.body.result).toMatchObject({ resultType: 'complete' });
    // The consumer sees the run is no longer wanted and stops it; what the stopped run delivers is ignored.
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(await pollTask(taskId)).toMatchObject({ status: 'cancelled' });

    const echo = await startTask('test_queued_slow', { ms: 300 });
    const record = await waitForWorking(echo);
    const first = { kind: 'result' as const, result: { content: [{ type: 'text' as const, text: 'first' }] } };
    expect(await taskStub(env, echo).deliverOutcome(record, first)).toBe('delivered');
    expect(await taskStub(env, echo).deliverOutcome(record, { kind: 'result', result: { content: [{ type: 'text', text: 'second' }] } })).toBe('ignored');
    expect(await pollTask(echo)).toMatchObject({ status: 'completed', result: { content: [{ text: 'first' }] } });
  });

  it('keeps its task when the task’s object is reset mid-run: the run’s result reaches the fresh instance', async () => {
    const taskId = await startTask('test_queued_slow', { ms: 400 });
    await runInDurableObject(taskStub(env, taskId), (_object, state) => state.abort('eviction (test)')).catch(() => {});
    expect(await pollTask(taskId)).toMatchObject({ status: 'completed', result: { content: [{ text: 'slept 400 ms' }] } });
  });

  it('answers a run past its deadline with a timeout result', async () => {
    const taskId = await startTask('test_queued_slow', { ms: 3000 });
    expect(await pollTask(taskId)).toMatchObject({ status: 'completed', result: { isError: true, content: [{ text: expect.stringMatching(/timed out/) }] } });
  });

  it('fails a task whose tool throws a protocol error, and answers a tool that keeps throwing from the dead-letter queue', async () => {
    expect(await pollTask(await startTask('protocol_error_job', {}))).toMatchObject({ status: 'failed', error: { code: -32603 } });
    expect(await pollTask(await startTask('test_queued_fail', {}))).toMatchObject({
      status: 'completed',
      result: { isError: true, content: [{ text: expect.stringMatching(/failed repeatedly/) }] },
    });
  }, 30_000);

  it('waits in input_required, keeps partial answers, and runs again once all are in', async () => {
    const taskId = await startTask('multi_input', {});
    const waiting = await pollTask(taskId, {}, (task) => task.status === 'input_required');
    expect(Object.keys(waiting.inputRequests as object)).toEqual(['first', 'second']);
    const accept = (name: string) => ({ action: 'accept', content: { name, confirm: true } });
    await modern('tasks/update', { taskId, inputResponses: { first: accept('one'), unknown: accept('ignored') } }, { capabilities: withTasks });
    const partial = await modern('tasks/get', { taskId }, { capabilities: withTasks });
    expect(partial.body.result).toMatchObject({ status: 'input_required' });
    expect(Object.keys(partial.body.result.inputRequests)).toEqual(['second']);
    await modern('tasks/update', { taskId, inputResponses: { second: accept('two') } }, { capabilities: withTasks });
    expect(await pollTask(taskId)).toMatchObject({ status: 'completed', result: { content: [{ text: 'Got one and two' }] } });
  });
});

describe('task status on a subscriptions/listen stream', () => {
  it('acknowledges, then sends the whole task at each change until it ends, relayed from the task’s object', async () => {
    const taskId = await startTask('test_queued_progress', {});
    const { key } = await createKey(['*']);
    const stranger = await startTask('test_queued_slow', { ms: 200 }, { authorization: `Bearer ${key}` });
    const response = await postJson(
      '/mcp',
      {
        jsonrpc: '2.0',
        id: 'listen-1',
        method: 'subscriptions/listen',
        params: {
          notifications: { taskIds: [stranger, taskId] },
          _meta: { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': withTasks },
        },
      },
      { 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'subscriptions/listen' },
    );
    expect(response.headers.get('content-type')).toMatch(/^text\/event-stream/);
    const stream = sseReader(response);
    const ack = JSON.parse((await stream.next()).data);
    // Another caller's task is not watched, and not even said to exist.
    expect(ack).toMatchObject({
      method: 'notifications/subscriptions/acknowledged',
      params: { notifications: { taskIds: [taskId] }, _meta: { 'io.modelcontextprotocol/subscriptionId': 'listen-1' } },
    });
    const statuses: string[] = [];
    for (;;) {
      const note = JSON.parse((await stream.next()).data);
      expect(note).toMatchObject({ method: 'notifications/tasks', params: { taskId, _meta: { 'io.modelcontextprotocol/subscriptionId': 'listen-1' } } });
      statuses.push(note.params.status);
      if (note.params.status === 'completed') {
        expect(note.params.result.content[0].text).toBe('done');
        break;
      }
    }
    expect(statuses[0]).toBe('working');
    await expect(stream.next()).rejects.toThrow('stream ended');
  });

  it('refuses a task listen from a client that does not declare the tasks extension', async () => {
    const { status, body } = await modern('subscriptions/listen', { notifications: { taskIds: ['x'.repeat(43)] } });
    expect(status).toBe(400);
    expect(body.error).toMatchObject({ code: -32021, data: { requiredCapabilities: { extensions: { 'io.modelcontextprotocol/tasks': {} } } } });
  });
});

/** The run id a working task waits on, read the way the consumer checks it. */
async function waitForWorking(taskId: string): Promise<string> {
  const stub = taskStub(env, taskId);
  return runInDurableObject(stub, async (_object, state) => ((await state.storage.get('task')) as { callId: string }).callId);
}
