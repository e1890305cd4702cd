import { env } from 'cloudflare:workers';
import { createExecutionContext, createMessageBatch, getQueueResult, runInDurableObject } from 'cloudflare:test';
import type { Env } from '../../src/env';
import type { TaskObject } from '../../src/tasks/TaskObject';
import { runMessage, type TaskRecord } from '../../src/tasks/task';
import { newTaskId, taskStub } from '../../src/tasks/taskId';
import worker from '../../src/worker';

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
 * Hands the task's run message to the consumer once, as the queue's `attempts`-th delivery, with the
 * Worker's variables changed by `overrides` (an n8n), and waits for the consumer: whether it acked or
 * retried the message (the queue's own record), and the task as its owner sees it then.
 */
export async function deliverRun(record: TaskRecord, { attempts = 1, overrides = {} }: { attempts?: number; overrides?: Partial<Env> } = {}) {
  const id = `${record.callId}-${attempts}`;
  const batch = createMessageBatch('tool-calls', [{ id, timestamp: new Date(), attempts, body: runMessage(record) }]);
  const ctx = createExecutionContext();
  await worker.queue(batch, { ...env, ...overrides });
  const queue = await getQueueResult(batch, ctx);
  const task = (await taskStub(env, record.taskId).view(TASK_OWNER)) as unknown as RunView;
  return { acked: queue.explicitAcks.includes(id), retried: queue.retryMessages.some((m) => m.msgId === id), task, text: task.result?.content[0]?.text };
}
