import { MissingRequiredClientCapabilityError, ProtocolError, ProtocolErrorCode, type McpServer, type ServerContext } from '@modelcontextprotocol/server';
import { z } from 'zod';
import type { Principal } from '../principal';
import type { Env } from '../env';
import { requestPrincipal } from '../server/caller';
import { callTimeoutMs, executionPolicy } from '../server/policy';
import { clientCapabilitiesOf } from '../server/clientCapabilities';
import { wrapRequestHandler } from '../server/sdkInternals';
import type { ToolDefinition } from '../tools/tool';
import { callerOf } from '../queues/message';
import { TASKS_EXTENSION, type TaskRecord } from './task';
import { isTaskId, newTaskId, taskStub } from './taskId';

const TaskIdParams = z.looseObject({ taskId: z.string() });
const UpdateParams = z.looseObject({ taskId: z.string(), inputResponses: z.record(z.string(), z.unknown()).nullish() });

/**
 * The tasks extension (SEP-2663) on a 2026-07-28 server: a queued tool called by a client that
 * declares the extension returns a task at once, its state in the task's Durable Object and its run
 * on the tool-call queue; tasks/get polls it, tasks/update answers its input requests, tasks/cancel
 * ends it. Every other call of a queued tool runs where it arrived, as before. Install before the
 * tool guard, so scopes and rate limits are checked before a task is made.
 */
export function installTasks(server: McpServer, env: Env, tools: readonly ToolDefinition[]): void {
  server.server.registerCapabilities({ extensions: { [TASKS_EXTENSION]: {} } });
  const task = async (taskId: string, ctx: ServerContext) => {
    if (!declaresTasks(ctx.mcpReq.envelope)) throw tasksRequired();
    if (!isTaskId(taskId)) throw unknownTask(taskId);
    return taskStub(env, taskId);
  };

  server.server.setRequestHandler('tasks/get', { params: TaskIdParams }, async ({ taskId }, ctx) => {
    const view = await (await task(taskId, ctx)).view(requestPrincipal(ctx).id);
    if (!view) throw unknownTask(taskId);
    return view;
  });
  server.server.setRequestHandler('tasks/update', { params: UpdateParams }, async ({ taskId, inputResponses }, ctx) => {
    // The SDK lifts a request's inputResponses out of its params (the MRTR field), as it does on tools/call.
    const responses = carriable(inputResponses ?? ctx.mcpReq.inputResponses ?? {});
    if (!(await (await task(taskId, ctx)).update(requestPrincipal(ctx).id, responses))) throw unknownTask(taskId);
    return {};
  });
  server.server.setRequestHandler('tasks/cancel', { params: TaskIdParams }, async ({ taskId }, ctx) => {
    if (!(await (await task(taskId, ctx)).cancel(requestPrincipal(ctx).id))) throw unknownTask(taskId);
    return {};
  });

  const queued = new Map(tools.filter((tool) => executionPolicy(tool, env) === 'queued').map((tool) => [tool.name, tool]));
  wrapRequestHandler(server, 'tools/call', (call) => async (request, ctx) => {
    const tool = queued.get(String(request.params?.name));
    if (!tool) return call(request, ctx);
    if (!declaresTasks(ctx.mcpReq.envelope)) {
      if (tool.taskSupport === 'required') throw tasksRequired();
      return call(request, ctx);
    }
    const args = (request.params?.arguments ?? {}) as Record<string, unknown>;
    const parsed = tool.input.safeParse(args);
    // Arguments the tool refuses are answered as the SDK answers them, with no task made.
    if (!parsed.success) return call(request, ctx);
    const inputResponses = carriable(ctx.mcpReq.inputResponses ?? {});
    const first = tool.inputFirst?.(parsed.data, inputResponses);
    if (first) return first as unknown as Record<string, unknown>;
    return createTask(env, tool, args, inputResponses, requestPrincipal(ctx));
  });
}

async function createTask(env: Env, tool: ToolDefinition, args: Record<string, unknown>, inputResponses: Record<string, unknown>, principal: Principal) {
  const now = Date.now();
  const timeoutMs = callTimeoutMs(tool, env);
  const record: TaskRecord = {
    taskId: newTaskId(),
    owner: principal.id,
    caller: callerOf(principal),
    tool: tool.name,
    arguments: args,
    status: 'working',
    createdAt: now,
    lastUpdatedAt: now,
    callId: crypto.randomUUID(),
    deadline: now + timeoutMs,
    timeoutMs,
    inputResponses,
  };
  const view = (await taskStub(env, record.taskId).create(record)) as Record<string, unknown>;
  return { ...view, resultType: 'task' };
}

/** Whether a request's client declares the tasks extension (each 2026-07-28 request says so itself, in its envelope). */
export function declaresTasks(envelope: unknown): boolean {
  const extensions = clientCapabilitiesOf(envelope).extensions as Record<string, unknown> | undefined;
  return extensions?.[TASKS_EXTENSION] !== undefined;
}

/** -32021: the request needs the client to declare the tasks extension. */
export const tasksRequired = () => new MissingRequiredClientCapabilityError({ requiredCapabilities: { extensions: { [TASKS_EXTENSION]: {} } } });

const unknownTask = (taskId: string) => new ProtocolError(ProtocolErrorCode.InvalidParams, `Unknown task: ${taskId}`);

/**
 * A request's inputResponses as the task's object can be sent them. The SDK copies them by assignment
 * (its partitionInputResponses), so an answer keyed "__proto__" becomes the copy's prototype instead
 * of one of its keys, and workerd refuses to send that object to the task's Durable Object ("Could not
 * serialize object", DataCloneError 25). No input request is named so: refused as invalid params,
 * naming the key. Other names ("constructor", "toString") stay keys like any other (src/tasks/task.ts).
 */
function carriable(inputResponses: Record<string, unknown>): Record<string, unknown> {
  if (Object.getPrototypeOf(inputResponses) === Object.prototype) return inputResponses;
  throw new ProtocolError(ProtocolErrorCode.InvalidParams, 'Invalid params: inputResponses holds the key "__proto__", which names no input request');
}
