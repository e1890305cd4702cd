import { DurableObject } from 'cloudflare:workers';
import type { ServerNotification } from '@modelcontextprotocol/server';
import type { Env } from '../env';
import { HttpError, toErrorResponse } from '../protocol/httpError';
import { ErrorCode } from '../protocol/jsonrpc';
import { formatError } from '../server/formatResult';
import { forgetCall, keepInput, loadInput, markSideEffect, sideEffectBegan, tooLargeForMessage, type QueuedCall } from '../queues/callStorage';
import type { Delivery } from '../sessions/PendingCalls';
import { applyInput, isTerminal, runMessage, settle, TASK_TTL_MS, taskView, type TaskOutcome, type TaskRecord } from './task';

const RECORD_KEY = 'task';
/** Who asks to watch a task (the Worker sets it from the authenticated caller). */
export const OWNER_HEADER = 'x-task-owner';

/**
 * One task of the 2026-07-28 tasks extension: a queued tool call that a modern client polls instead
 * of holding a stream. The object keeps the task's state, queues each run of its tool, and takes the
 * first outcome of the run it waits on — a duplicate, late or cancelled delivery is ignored, as for a
 * session's pending calls. Its alarm answers a run past its deadline and forgets the task after its TTL.
 */
export class TaskObject extends DurableObject<Env> {
  private cached: TaskRecord | null | undefined;

  /**
   * Stores the task, then queues its first run: a task exists before the client hears of it. Arguments
   * too large for a queue message are kept beside the record, not in it (callStorage), for every run.
   */
  async create(task: TaskRecord): Promise<Record<string, unknown>> {
    const { arguments: args, ...rest } = task;
    const keptApart = args !== undefined && tooLargeForMessage({ arguments: args });
    if (keptApart) await keepInput(this.ctx.storage, task.taskId, { arguments: args });
    const record = keptApart ? rest : task;
    await this.save(record);
    await this.queue(record);
    return taskView((await this.load()) ?? record);
  }

  /**
   * A watcher of the task (a Worker holding a client's subscriptions/listen stream) connects with a
   * WebSocket the object accepts with the hibernation API: it gets the task now and at every change,
   * and the socket closes when the task ends. Between changes the object can sleep; the client's
   * stream lives in the Worker.
   */
  override async fetch(request: Request): Promise<Response> {
    const task = await this.owned(request.headers.get(OWNER_HEADER) ?? '');
    if (!task || request.headers.get('upgrade') !== 'websocket')
      return toErrorResponse(new HttpError(404, ErrorCode.InvalidRequest, 'Not Found: no such task of this owner'));
    const [client, server] = Object.values(new WebSocketPair()) as [WebSocket, WebSocket];
    this.ctx.acceptWebSocket(server);
    server.send(JSON.stringify(taskView(task)));
    if (isTerminal(task.status)) server.close(1000, 'task ended');
    return new Response(null, { status: 101, webSocket: client });
  }

  /** tasks/get: the task as its owner sees it; null for anyone else or an unknown task. */
  async view(owner: string): Promise<Record<string, unknown> | null> {
    const task = await this.owned(owner);
    return task ? taskView(task) : null;
  }

  /** tasks/update: keeps the answers to outstanding input requests; queues the next run once all are in. */
  async update(owner: string, responses: Record<string, unknown>): Promise<boolean> {
    const task = await this.owned(owner);
    if (!task) return false;
    const next = applyInput(task, responses, Date.now(), crypto.randomUUID());
    if (next === task) return true;
    await this.save(next);
    if (next.status === 'working') await this.queue(next);
    return true;
  }

  /** tasks/cancel: a task not yet finished ends as cancelled, and whatever its run delivers later is ignored. */
  async cancel(owner: string): Promise<boolean> {
    const task = await this.owned(owner);
    if (!task) return false;
    if (!isTerminal(task.status)) await this.save({ ...task, status: 'cancelled', inputRequests: undefined, lastUpdatedAt: Date.now() });
    return true;
  }

  /**
   * The outcome of a run, from the queue consumer (or the dead-letter consumer). One this object
   * cannot store (past the 2 MB a value may hold) fails the task with an error that says so: the
   * client must never read a task as completed that no later read of it could show.
   */
  async deliverOutcome(callId: string, outcome: TaskOutcome): Promise<Delivery> {
    const task = await this.waitingOn(callId);
    if (!task) return 'ignored';
    const now = Date.now();
    await this.save(settle(task, outcome, now)).catch((error: unknown) => {
      const message = `The result of ${task.tool} could not be stored with its task (${String(error)}): the call ran, and what it answered is lost.`;
      return this.save(settle(task, { kind: 'error', error: { code: ErrorCode.InternalError, message } }, now));
    });
    return 'delivered';
  }

  /** The run as the consumer picks it up: null once the task has moved on; its input, if asked for. */
  async queuedCall(callId: string, withInput: boolean): Promise<QueuedCall | null> {
    const task = await this.waitingOn(callId);
    if (!task) return null;
    const args = withInput ? (task.arguments ?? (await loadInput(this.ctx.storage, task.taskId))?.arguments) : undefined;
    return { input: args && { arguments: args, inputResponses: task.inputResponses }, sideEffectBegan: await sideEffectBegan(this.ctx.storage, callId) };
  }

  /** A run is about to change something (ToolContext.beginSideEffect); false once the task has moved on. */
  async beginSideEffect(callId: string): Promise<boolean> {
    if (!(await this.waitingOn(callId))) return false;
    await markSideEffect(this.ctx.storage, callId);
    return true;
  }

  /** Whether the task still waits on this run (the consumer stops a run of a cancelled task). */
  async isPending(callId: string): Promise<boolean> {
    return (await this.waitingOn(callId)) !== null;
  }

  /**
   * A running tool's progress becomes the task's status message (its log messages have nowhere to go);
   * one the storage refuses is not kept, and the run goes on.
   */
  async relayNotification(callId: string, notification: ServerNotification): Promise<boolean> {
    const task = await this.waitingOn(callId);
    if (!task || notification.method !== 'notifications/progress') return false;
    const { progress, total, message } = notification.params as { progress: number; total?: number; message?: string };
    const statusMessage = message ?? (total ? `${progress} of ${total}` : String(progress));
    return this.save({ ...task, statusMessage, lastUpdatedAt: Date.now() }).then(
      () => true,
      () => false,
    );
  }

  /** A run past its deadline is answered with a timeout; a task past its TTL is forgotten. Stored state decides. */
  override async alarm(): Promise<void> {
    const task = await this.load();
    if (!task) return;
    const now = Date.now();
    if (task.status === 'working' && task.deadline <= now) {
      await this.save(settle(task, { kind: 'result', result: formatError(new Error(`${task.tool} timed out: no result before its deadline`)) }, now));
    } else if (task.lastUpdatedAt + TASK_TTL_MS <= now) {
      this.cached = null;
      await this.ctx.storage.deleteAll();
    } else {
      await this.schedule(task);
    }
  }

  private async queue(task: TaskRecord): Promise<void> {
    try {
      await this.env.TOOL_CALLS.send(runMessage(task));
    } catch (error) {
      await this.save(settle(task, { kind: 'result', result: formatError(new Error(`Could not queue ${task.tool}: ${String(error)}`)) }, Date.now()));
    }
  }

  /** The task, while it is working on this run; null once it has moved on (answered, cancelled, a later run). */
  private async waitingOn(callId: string): Promise<TaskRecord | null> {
    const task = await this.load();
    return task?.callId === callId && task.status === 'working' ? task : null;
  }

  private async owned(owner: string): Promise<TaskRecord | null> {
    const task = await this.load();
    return task?.owner === owner ? task : null;
  }

  private async load(): Promise<TaskRecord | null> {
    if (this.cached === undefined) this.cached = (await this.ctx.storage.get<TaskRecord>(RECORD_KEY)) ?? null;
    return this.cached;
  }

  /** Storage first, then memory: a record the storage refused is never answered from memory. */
  private async save(task: TaskRecord): Promise<void> {
    await this.ctx.storage.put(RECORD_KEY, task);
    this.cached = task;
    // A run that has ended leaves nothing for its consumer; an ended task's runs need no arguments kept apart.
    if (task.status !== 'working') await forgetCall(this.ctx.storage, task.callId);
    if (isTerminal(task.status) && task.arguments === undefined) await forgetCall(this.ctx.storage, task.taskId);
    await this.schedule(task);
    const view = JSON.stringify(taskView(task));
    for (const watcher of this.ctx.getWebSockets()) {
      try {
        watcher.send(view);
        if (isTerminal(task.status)) watcher.close(1000, 'task ended');
      } catch {
        // a watcher that went away; the runtime drops its socket
      }
    }
  }

  /** The next thing the alarm has to do: a working run's deadline, else the end of the TTL. */
  private async schedule(task: TaskRecord): Promise<void> {
    await this.ctx.storage.setAlarm(task.status === 'working' ? task.deadline : task.lastUpdatedAt + TASK_TTL_MS);
  }
}
