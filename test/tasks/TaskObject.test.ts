import { env } from 'cloudflare:workers';
import { runDurableObjectAlarm, runInDurableObject } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import { keepInput, markSideEffect } from '../../src/queues/callStorage';
import { TASK_TTL_MS } from '../../src/tasks/task';
import { OWNER_HEADER, type TaskObject } from '../../src/tasks/TaskObject';
import { taskStub } from '../../src/tasks/taskId';
import { modern, pollTask, withTasks } from '../support/modern';
import { runOf, startTask, TASK_OWNER, taskWaitingOn } from '../support/tasks';

const result = (text: string) => ({ kind: 'result' as const, result: { content: [{ type: 'text' as const, text }] } });
/** The task as its object's storage has it. */
const storedRecord = (taskId: string) => runInDurableObject(taskStub(env, taskId), (_: TaskObject, state) => state.storage.get('task'));
/** The keys of the task's storage: the record, and whatever is kept for its runs (call:…). */
const storedKeys = (taskId: string) => runInDurableObject(taskStub(env, taskId), async (_: TaskObject, state) => [...(await state.storage.list()).keys()]);

describe('a task’s object answers its owner only', () => {
  it('shows, updates and cancels the task for the principal that made it, and for nobody else', async () => {
    const { taskId } = await taskWaitingOn('test_queued_echo', { text: 'mine' });
    const task = taskStub(env, taskId);
    expect(await task.view('key_someone_else')).toBeNull();
    expect(await task.update('key_someone_else', { a: 1 })).toBe(false);
    expect(await task.cancel('key_someone_else')).toBe(false);
    expect(await task.view(TASK_OWNER)).toMatchObject({ taskId, status: 'working' });
  });

  it('lets only its owner watch it, over a WebSocket', async () => {
    const { taskId } = await taskWaitingOn('test_queued_echo', { text: 'mine' });
    const watch = (headers: Record<string, string>) => taskStub(env, taskId).fetch('https://task/watch', { headers });
    expect((await watch({ upgrade: 'websocket', [OWNER_HEADER]: 'key_someone_else' })).status).toBe(404);
    expect((await watch({ upgrade: 'websocket' })).status).toBe(404);
    expect((await watch({ [OWNER_HEADER]: TASK_OWNER })).status).toBe(404);
    const own = await watch({ upgrade: 'websocket', [OWNER_HEADER]: TASK_OWNER });
    expect(own.status).toBe(101);
    own.webSocket!.accept();
    own.webSocket!.close();
  });
});

describe('a watcher of a task', () => {
  it('gets the task at once and at every change, and the socket closes when the task ends', async () => {
    const record = await taskWaitingOn('test_queued_progress', {});
    const task = taskStub(env, record.taskId);
    const socket = (await task.fetch('https://task/watch', { headers: { upgrade: 'websocket', [OWNER_HEADER]: TASK_OWNER } })).webSocket!;
    const seen: Record<string, unknown>[] = [];
    const closed = new Promise<number>((resolve) => socket.addEventListener('close', (event) => resolve(event.code)));
    socket.addEventListener('message', (event) => seen.push(JSON.parse(String(event.data))));
    socket.accept();
    await task.relayNotification(record.callId, { method: 'notifications/progress', params: { progressToken: 'p', progress: 1, total: 2 } });
    await task.deliverOutcome(record.callId, result('done'));
    expect(await closed).toBe(1000);
    expect(seen.map(({ status, statusMessage }) => ({ status, statusMessage }))).toEqual([
      { status: 'working', statusMessage: undefined },
      { status: 'working', statusMessage: '1 of 2' },
      { status: 'completed', statusMessage: undefined },
    ]);
    expect(seen.at(-1)).toMatchObject({ taskId: record.taskId, result: { content: [{ text: 'done' }] } });
  });
});

describe('the runs of a task', () => {
  it('takes the first outcome of a run only', async () => {
    const echo = await startTask('test_queued_slow', { ms: 300 });
    const record = await runOf(echo);
    const first = result('first');
    expect(await taskStub(env, echo).deliverOutcome(record, first)).toBe('delivered');
    expect(await taskStub(env, echo).deliverOutcome(record, result('second'))).toBe('ignored');
    expect(await pollTask(echo)).toMatchObject({ status: 'completed', result: { content: [{ text: 'first' }] } });
  });

  it('ignores what a cancelled task’s stopped run delivers later', async () => {
    const taskId = await startTask('slow_compute', { seconds: 30, label: 'cancel' });
    await modern('tasks/cancel', { taskId }, { capabilities: withTasks });
    // The consumer sees the run is no longer wanted and stops it; what the stopped run delivers is ignored.
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(await pollTask(taskId)).toMatchObject({ status: 'cancelled' });
  });

  it('answers, for the run it waits on only, its input, whether it began its change, and that it is still wanted', async () => {
    const record = await taskWaitingOn('test_queued_change', { ms: 1 });
    const task = taskStub(env, record.taskId);
    expect(await task.isPending(record.callId)).toBe(true);
    expect(await task.queuedCall(record.callId, true)).toEqual({ input: { arguments: { ms: 1 }, inputResponses: {} }, sideEffectBegan: false });
    expect(await task.queuedCall(record.callId, false)).toEqual({ input: undefined, sideEffectBegan: false });
    expect(await task.beginSideEffect(record.callId)).toBe(true);
    expect(await task.queuedCall(record.callId, false)).toEqual({ input: undefined, sideEffectBegan: true });
    // Another run (an earlier one, superseded) is no longer wanted.
    expect(await task.isPending('another-run')).toBe(false);
    expect(await task.queuedCall('another-run', true)).toBeNull();
    expect(await task.beginSideEffect('another-run')).toBe(false);
    expect(await task.deliverOutcome('another-run', result('stale'))).toBe('ignored');
  });

  it('keeps a running tool’s progress as its status message, and nothing else a run sends', async () => {
    const record = await taskWaitingOn('test_queued_progress', {});
    const task = taskStub(env, record.taskId);
    const progress = (params: { progress: number; total?: number; message?: string }) =>
      task.relayNotification(record.callId, { method: 'notifications/progress', params: { progressToken: 'p', ...params } });
    const statusMessage = async () => ((await task.view(TASK_OWNER)) as Record<string, unknown> | null)?.statusMessage;
    expect(await progress({ progress: 1, total: 3, message: 'reading the workflow' })).toBe(true);
    expect(await statusMessage()).toBe('reading the workflow');
    await progress({ progress: 2, total: 3 });
    expect(await statusMessage()).toBe('2 of 3');
    await progress({ progress: 7 });
    expect(await statusMessage()).toBe('7');
    expect(await task.relayNotification(record.callId, { method: 'notifications/message', params: { level: 'info', data: 'x' } })).toBe(false);
    expect(await task.relayNotification('another-run', { method: 'notifications/progress', params: { progressToken: 'p', progress: 9 } })).toBe(false);
    expect(await statusMessage()).toBe('7');
  });

  it('fails the task when its result cannot be stored, and never shows it completed from memory', async () => {
    const record = await taskWaitingOn('test_queued_echo', {});
    const task = taskStub(env, record.taskId);
    // Past the 8 MiB local workerd's SQLite takes for a value (2 MB deployed): the write is refused.
    expect(await task.deliverOutcome(record.callId, result('x'.repeat(9 * 1024 * 1024)))).toBe('delivered');
    const failed = {
      status: 'failed',
      error: { code: -32603, message: expect.stringMatching(/^The result of test_queued_echo could not be stored with its task \(.*SQLITE_TOOBIG/) },
    };
    expect(await task.view(TASK_OWNER)).toMatchObject(failed);
    expect(await storedRecord(record.taskId)).toMatchObject(failed);
  });

  it('shows nothing from memory that its storage refused', async () => {
    const record = await taskWaitingOn('test_queued_progress', {});
    const task = taskStub(env, record.taskId);
    const progress = { method: 'notifications/progress' as const, params: { progressToken: 'p', progress: 1, message: 'y'.repeat(9 * 1024 * 1024) } };
    expect(await task.relayNotification(record.callId, progress)).toBe(false);
    expect(await task.view(TASK_OWNER)).not.toHaveProperty('statusMessage');
  });

  it('keeps its task when the task’s object is reset mid-run: the run’s result reaches the fresh instance', async () => {
    const taskId = await startTask('test_queued_slow', { ms: 400 });
    await runInDurableObject(taskStub(env, taskId), (_object, state) => state.abort('eviction (test)')).catch(() => {});
    expect(await pollTask(taskId)).toMatchObject({ status: 'completed', result: { content: [{ text: 'slept 400 ms' }] } });
  });
});

describe('cancelling a task', () => {
  it('ends a working task as cancelled and forgets what was kept for its runs; an ended task stays as it ended', async () => {
    const { arguments: _, ...record } = await taskWaitingOn('test_queued_echo', {});
    await runInDurableObject(taskStub(env, record.taskId), async (_: TaskObject, state) => {
      // Kept as the object keeps arguments too large for a message (without them in the record), and a run's mark.
      await state.storage.put('task', record);
      await keepInput(state.storage, record.taskId, { arguments: { text: 'x'.repeat(70_000) } });
      await markSideEffect(state.storage, record.callId);
    });
    const task = taskStub(env, record.taskId);
    expect(await task.cancel(TASK_OWNER)).toBe(true);
    expect(await task.view(TASK_OWNER)).toMatchObject({ status: 'cancelled' });
    expect(await storedKeys(record.taskId)).toEqual(['task']);
    expect(await task.deliverOutcome(record.callId, result('late'))).toBe('ignored');

    const done = await taskWaitingOn('test_queued_echo', { text: 'done' }, { status: 'completed', result: result('done').result });
    expect(await taskStub(env, done.taskId).cancel(TASK_OWNER)).toBe(true);
    expect(await taskStub(env, done.taskId).view(TASK_OWNER)).toMatchObject({ status: 'completed', result: { content: [{ text: 'done' }] } });
  });
});

describe('arguments too large for a queue message (128 KB)', () => {
  it('travel by reference for a task too, kept beside its record until it ends', async () => {
    const text = 'y'.repeat(300_000);
    const { body } = await modern('tools/call', { name: 'test_queued_echo', arguments: { text } }, { capabilities: withTasks });
    expect(body.result?.resultType, JSON.stringify(body.error)).toBe('task');
    expect(await pollTask(body.result.taskId)).toMatchObject({ status: 'completed', result: { structuredContent: { echo: text } } });
    const kept = await runInDurableObject(taskStub(env, body.result.taskId), async (_: TaskObject, state) => [
      ...(await state.storage.list({ prefix: 'call:' })).keys(),
    ]);
    expect(kept).toEqual([]);
  });
});

describe('the task’s alarm', () => {
  it('answers a run past its deadline with a timeout result', async () => {
    const taskId = await startTask('test_queued_slow', { ms: 3000 });
    expect(await pollTask(taskId)).toMatchObject({ status: 'completed', result: { isError: true, content: [{ text: expect.stringMatching(/timed out/) }] } });
  });

  it('forgets an ended task once its TTL has passed since it last changed, and keeps one whose TTL has not', async () => {
    const now = Date.now();
    const ended = { status: 'completed' as const, result: result('done').result };
    const expired = await taskWaitingOn('test_queued_echo', { text: 'old' }, { ...ended, lastUpdatedAt: now - TASK_TTL_MS - 1000 });
    const recent = await taskWaitingOn('test_queued_echo', { text: 'new' }, { ...ended, lastUpdatedAt: now - TASK_TTL_MS + 60_000 });
    for (const { taskId } of [expired, recent]) {
      // Scheduled far off, so that it runs when the test says, not by itself.
      await runInDurableObject(taskStub(env, taskId), (_: TaskObject, state) => state.storage.setAlarm(Date.now() + 3_600_000));
      expect(await runDurableObjectAlarm(taskStub(env, taskId))).toBe(true);
    }
    expect(await taskStub(env, expired.taskId).view(TASK_OWNER)).toBeNull();
    expect(await storedKeys(expired.taskId)).toEqual([]);
    expect(await taskStub(env, recent.taskId).view(TASK_OWNER)).toMatchObject({ status: 'completed' });
    // Its next alarm is the end of its TTL.
    expect(await runInDurableObject(taskStub(env, recent.taskId), (_: TaskObject, state) => state.storage.getAlarm())).toBe(recent.lastUpdatedAt + TASK_TTL_MS);
  });
});
