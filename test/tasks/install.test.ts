import { env } from 'cloudflare:workers';
import { runInDurableObject } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import type { TaskRecord } from '../../src/tasks/task';
import type { TaskObject } from '../../src/tasks/TaskObject';
import { taskStub } from '../../src/tasks/taskId';
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

  it('refuses inputResponses keyed "__proto__" as invalid params naming the key, on tasks/update and on the call that makes a task; "constructor" is a name like any other', async () => {
    const accept = (name: string) => ({ action: 'accept', content: { name, confirm: true } });
    // From JSON, as a client sends them: "__proto__" is a key there.
    const answers = (special: string, rest: Record<string, unknown>) =>
      JSON.parse(`{"${special}": ${JSON.stringify(accept('x'))}, ${JSON.stringify(rest).slice(1)}`);
    const update = async (special: string) => {
      const taskId = await startTask('multi_input', {});
      await pollTask(taskId, {}, (task) => task.status === 'input_required');
      const { body } = await modern('tasks/update', { taskId, inputResponses: answers(special, { first: accept('one') }) }, { capabilities: withTasks });
      const task = (await modern('tasks/get', { taskId }, { capabilities: withTasks })).body.result;
      return { answer: body.error ?? body.result.resultType, outstanding: Object.keys(task.inputRequests) };
    };
    const call = async (special: string) => {
      const params = { name: 'test_tool_with_task', arguments: {}, inputResponses: answers(special, { user_name: accept('Ada') }) };
      const { body } = await modern('tools/call', params, { capabilities: withTasks });
      return body.error ?? body.result.resultType;
    };
    const refused = { code: -32602, message: 'Invalid params: inputResponses holds the key "__proto__", which names no input request' };
    // Refused whole, before the task's object is asked: the task still waits on both of its questions.
    expect(await update('__proto__')).toEqual({ answer: refused, outstanding: ['first', 'second'] });
    expect(await call('__proto__')).toEqual(refused);
    // Positive control: an answer under a name no request has is left aside, the others taken.
    expect(await update('constructor')).toEqual({ answer: 'complete', outstanding: ['second'] });
    expect(await call('constructor')).toBe('task');
  });

  it('keeps arguments keyed "__proto__" as keys in the task it makes: the Worker sends them to the task’s object as sent', async () => {
    const args = JSON.parse('{"text": "kept", "__proto__": {"a": 1}, "nested": {"__proto__": {"b": 2}}}');
    const taskId = await startTask('test_queued_echo', args);
    const stored = await runInDurableObject(
      taskStub(env, taskId),
      async (_: TaskObject, state) => ((await state.storage.get('task')) as TaskRecord).arguments!,
    );
    expect(Object.keys(stored)).toEqual(['text', '__proto__', 'nested']);
    expect(Object.getPrototypeOf(stored)).toBe(Object.prototype);
    expect(Object.hasOwn(stored.nested as object, '__proto__')).toBe(true);
    expect(await pollTask(taskId)).toMatchObject({ status: 'completed', result: { structuredContent: { echo: 'kept' } } });
  });
});
