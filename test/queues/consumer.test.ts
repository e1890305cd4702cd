import { env } from 'cloudflare:workers';
import { createExecutionContext, createMessageBatch, getQueueResult, runInDurableObject } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import type { TaskObject } from '../../src/durable/TaskObject';
import { runMessage, type TaskRecord } from '../../src/tasks/task';
import { newTaskId, taskStub } from '../../src/tasks/taskId';
import worker from '../../src/worker';

/**
 * The consumer's decisions on one delivery of a message, read from the queue's own record of them
 * (getQueueResult: acked or retried) and from the task that owes the answer (a real TaskObject whose
 * run waits on the call, stored as the task's object stores it).
 */
const OWNER = 'key_consumer_test';

async function taskWaitingOn(tool: string, args: Record<string, unknown>, overrides: Partial<TaskRecord> = {}): Promise<TaskRecord> {
  const now = Date.now();
  const record: TaskRecord = {
    taskId: newTaskId(),
    owner: OWNER,
    caller: { id: OWNER, subject: OWNER, scopes: ['*'] },
    tool,
    arguments: args,
    status: 'working',
    createdAt: now,
    lastUpdatedAt: now,
    callId: crypto.randomUUID(),
    deadline: now + 20_000,
    timeoutMs: 20_000,
    inputResponses: {},
    ...overrides,
  };
  await runInDurableObject(taskStub(env, record.taskId), (_: TaskObject, state) => state.storage.put('task', record));
  return record;
}

/** Delivers the task's run message once (as the queue's `attempts`-th delivery) and waits for the consumer. */
async function deliver(record: TaskRecord, attempts = 1) {
  const id = `${record.callId}-${attempts}`;
  const batch = createMessageBatch('tool-calls', [{ id, timestamp: new Date(), attempts, body: runMessage(record) }]);
  const ctx = createExecutionContext();
  await worker.queue(batch, env);
  const queue = await getQueueResult(batch, ctx);
  const task = (await taskStub(env, record.taskId).view(OWNER)) as unknown as { status: string; result?: { isError?: boolean; content: { text: string }[] } };
  return { acked: queue.explicitAcks.includes(id), retried: queue.retryMessages.some((m) => m.msgId === id), task, text: task.result?.content[0]?.text };
}

describe('what the consumer retries and what it answers at once', () => {
  it('answers a fault at once: a bug fails the same way every time', async () => {
    const run = await deliver(await taskWaitingOn('test_queued_bug', {}));
    expect(run).toMatchObject({ acked: true, retried: false, task: { status: 'completed', result: { isError: true } } });
    expect(run.text).toMatch(/^Error: test_queued_bug failed: .*null.*It was not retried: this fault would happen again\.$/);
  });

  it('answers arguments the tool does not take at once, naming them', async () => {
    const run = await deliver(await taskWaitingOn('test_queued_change', { ms: 'soon' }));
    expect(run).toMatchObject({ acked: true, retried: false, task: { status: 'completed' } });
    expect(run.text).toMatch(/Invalid arguments for test_queued_change: .*ms/s);
  });

  it('retries a failure that may pass, of a run that had changed nothing', async () => {
    const run = await deliver(await taskWaitingOn('test_queued_fail', {}));
    expect(run).toMatchObject({ acked: false, retried: true, task: { status: 'working' } });
  });

  it('answers at once, without repeating it, a run that failed after it had begun its change', async () => {
    const run = await deliver(await taskWaitingOn('test_queued_change', { fail: true }));
    expect(run).toMatchObject({ acked: true, retried: false, task: { status: 'completed', result: { isError: true } } });
    expect(run.text).toMatch(
      /the service failed after the change was sent \(test\)\. test_queued_change had already sent its change, so whether it was made is unknown; it was not repeated\. Check with test_queued_echo/,
    );
  });

  it('answers "outcome unknown" on a later delivery of a call whose earlier run began its change, instead of running it again', async () => {
    const record = await taskWaitingOn('test_queued_change', {});
    // What an earlier run recorded before its consumer died.
    expect(await taskStub(env, record.taskId).beginSideEffect(record.callId)).toBe(true);
    const run = await deliver(record, 2);
    expect(run).toMatchObject({ acked: true, task: { status: 'completed' } });
    expect(run.text).toMatch(/An earlier attempt of this test_queued_change call stopped after it had begun its change.*Check with test_queued_echo/);
    // A later delivery of a call whose earlier run changed nothing runs as usual.
    expect((await deliver(await taskWaitingOn('test_queued_change', {}), 2)).text).toBe('changed');
  });

  it('leaves a call answered meanwhile alone, and a run that begins its change after that changes nothing', async () => {
    const cancelled = await taskWaitingOn('test_queued_change', {}, { status: 'cancelled' });
    expect(await deliver(cancelled, 2)).toMatchObject({ acked: true, retried: false, task: { status: 'cancelled' } });
    expect(await taskStub(env, cancelled.taskId).beginSideEffect(cancelled.callId)).toBe(false);
  });
});
