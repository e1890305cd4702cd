import { describe, expect, it } from 'vitest';
import { createKey } from '../support/keys';
import { modern, pollTask, withTasks } from '../support/modern';
import { startTask } from '../support/tasks';

/**
 * The tasks extension through the real Worker, task Durable Objects and the tool-call queue in
 * workerd: a queued tool becomes a task for a client that declares the extension, and its answer
 * keeps the queue's rules (exactly once, deadline, dead letters). The task's own object:
 * test/tasks/TaskObject.test.ts; task status on a listen stream: test/tasks/listen.test.ts.
 */
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

  it('cancels a task with tasks/cancel: an empty complete result, again when it is cancelled already', async () => {
    const taskId = await startTask('slow_compute', { seconds: 30, label: 'cancel' });
    const cancel = await modern('tasks/cancel', { taskId }, { capabilities: withTasks });
    expect(cancel.body.result).toEqual(expect.objectContaining({ resultType: 'complete' }));
    expect(cancel.body.result).not.toHaveProperty('status');
    expect(await pollTask(taskId)).toMatchObject({ status: 'cancelled' });
    const again = await modern('tasks/cancel', { taskId }, { capabilities: withTasks });
    expect(again.body.result).toMatchObject({ resultType: 'complete' });
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
