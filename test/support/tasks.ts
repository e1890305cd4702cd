import { env } from 'cloudflare:workers';
import { createExecutionContext, createMessageBatch, getQueueResult, runInDurableObject } from 'cloudflare:test';
import { expect } from 'vitest';
import { LONG_CALLS_QUEUE } from '../../src/config';
import type { Env } from '../../src/env';
import { toolsFor } from '../../src/server/registry';
import { runsLong } from '../../src/server/policy';
import type { TaskObject } from '../../src/tasks/TaskObject';
import { runMessage, type TaskRecord } from '../../src/tasks/task';
import { newTaskId, taskStub } from '../../src/tasks/taskId';
import worker from '../../src/worker';
import { modern, withTasks } from './modern';

/** The principal the tasks of these helpers belong to. */
export const TASK_OWNER = 'key_queued_run_test';

/** A task whose run waits on its call, stored as the task's object stores it (nothing queued). */
export async function taskWaitingOn(tool: string, args: Record<string, unknown>, overrides: Partial<TaskRecord> = {}): Promise<TaskRecord> {
  const now = Date.now();
  const record: TaskRecord = {
    taskId: newTaskId(),
    owner: TASK_OWNER,
    caller: { id: TASK_OWNER, subject: TASK_OWNER, scopes: ['*'] },
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

export interface RunView {
  status: string;
  result?: { isError?: boolean; content: { text: string }[]; structuredContent?: unknown };
}

/**
 * Hands the task's run message once, as the queue's `attempts`-th delivery, to the consumer of the queue
 * that runs it (a long call's is tool-calls-long, where the tool-calls consumer moves it), with the
 * Worker's variables changed by `overrides` (an n8n), and waits for the consumer: whether it acked or
 * retried the message (the queue's own record), and the task as its owner sees it then.
 */
export async function deliverRun(record: TaskRecord, { attempts = 1, overrides = {} }: { attempts?: number; overrides?: Partial<Env> } = {}) {
  const id = `${record.callId}-${attempts}`;
  const tool = toolsFor({ ...env, ...overrides }).find((t) => t.name === record.tool);
  const queueName = tool && runsLong(tool, record.arguments) ? LONG_CALLS_QUEUE : 'tool-calls';
  const batch = createMessageBatch(queueName, [{ id, timestamp: new Date(), attempts, body: runMessage(record) }]);
  const ctx = createExecutionContext();
  await worker.queue(batch, { ...env, ...overrides });
  const queue = await getQueueResult(batch, ctx);
  const task = (await taskStub(env, record.taskId).view(TASK_OWNER)) as unknown as RunView;
  return { acked: queue.explicitAcks.includes(id), retried: queue.retryMessages.some((m) => m.msgId === id), task, text: task.result?.content[0]?.text };
}

/**
 * Calls a queued tool as a 2026-07-28 client that takes tasks (as this file's default caller, or as
 * `headers` say): the id of the task it answered with at once.
 */
export async function startTask(name: string, args: Record<string, unknown>, headers: Record<string, string> = {}): Promise<string> {
  const { body } = await modern('tools/call', { name, arguments: args }, { capabilities: withTasks, headers });
  expect(body.result).toMatchObject({ resultType: 'task', status: 'working', taskId: expect.any(String), ttlMs: expect.any(Number) });
  expect(body.result).not.toHaveProperty('requestState');
  return body.result.taskId as string;
}

/** The run a working task waits on, read from its object's storage the way the consumer checks it. */
export const runOf = (taskId: string): Promise<string> =>
  runInDurableObject(taskStub(env, taskId), async (_: TaskObject, state) => ((await state.storage.get('task')) as TaskRecord).callId);
