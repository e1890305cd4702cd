import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { taskStub } from '../../src/tasks/taskId';
import { deliverRun, taskWaitingOn } from '../support/tasks';

/**
 * The consumer's decisions on one delivery of a message, read from the queue's own record of them
 * (getQueueResult: acked or retried) and from the task that owes the answer (a real TaskObject whose
 * run waits on the call, stored as the task's object stores it).
 */
describe('what the consumer retries and what it answers at once', () => {
  it('answers a fault at once: a bug fails the same way every time', async () => {
    const run = await deliverRun(await taskWaitingOn('test_queued_bug', {}));
    expect(run).toMatchObject({ acked: true, retried: false, task: { status: 'completed', result: { isError: true } } });
    expect(run.text).toMatch(/^Error: test_queued_bug failed: .*null.*It was not retried: this fault would happen again\.$/);
  });

  it('answers arguments the tool does not take at once, naming them', async () => {
    const run = await deliverRun(await taskWaitingOn('test_queued_change', { ms: 'soon' }));
    expect(run).toMatchObject({ acked: true, retried: false, task: { status: 'completed' } });
    expect(run.text).toMatch(/Invalid arguments for test_queued_change: .*ms/s);
  });

  it('retries a failure that may pass, of a run that had changed nothing', async () => {
    const run = await deliverRun(await taskWaitingOn('test_queued_fail', {}));
    expect(run).toMatchObject({ acked: false, retried: true, task: { status: 'working' } });
  });

  it('answers at once, without repeating it, a run that failed after it had begun its change', async () => {
    const run = await deliverRun(await taskWaitingOn('test_queued_change', { fail: true }));
    expect(run).toMatchObject({ acked: true, retried: false, task: { status: 'completed', result: { isError: true } } });
    expect(run.text).toMatch(
      /the service failed after the change was sent \(test\)\. test_queued_change had already sent its change, so whether it was made is unknown; it was not repeated\. Check with test_queued_echo/,
    );
  });

  it('answers "outcome unknown" on a later delivery of a call whose earlier run began its change, instead of running it again', async () => {
    const record = await taskWaitingOn('test_queued_change', {});
    // What an earlier run recorded before its consumer died.
    expect(await taskStub(env, record.taskId).beginSideEffect(record.callId)).toBe(true);
    const run = await deliverRun(record, { attempts: 2 });
    expect(run).toMatchObject({ acked: true, task: { status: 'completed' } });
    expect(run.text).toMatch(/An earlier attempt of this test_queued_change call stopped after it had begun its change.*Check with test_queued_echo/);
    // A later delivery of a call whose earlier run changed nothing runs as usual.
    expect((await deliverRun(await taskWaitingOn('test_queued_change', {}), { attempts: 2 })).text).toBe('changed');
  });

  it('leaves a call answered meanwhile alone, and a run that begins its change after that changes nothing', async () => {
    const cancelled = await taskWaitingOn('test_queued_change', {}, { status: 'cancelled' });
    expect(await deliverRun(cancelled, { attempts: 2 })).toMatchObject({ acked: true, retried: false, task: { status: 'cancelled' } });
    expect(await taskStub(env, cancelled.taskId).beginSideEffect(cancelled.callId)).toBe(false);
  });
});
