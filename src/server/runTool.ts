import type { CallToolResult, LoggingLevel, ProgressToken, RequestId, ServerContext, ServerNotification } from '@modelcontextprotocol/server';
import type { Principal } from '../principal';
import type { Env } from '../env';
import { observe } from '../observability/events';
import { formatError, toolResult } from './formatResult';
import { ToolError, type ToolContext, type ToolDefinition } from '../tools/tool';
import { requestPrincipal } from './caller';
import { callTimeoutMs } from './policy';

/** What running a tool needs from the request that called it, in either protocol era. */
export interface CallRequest {
  requestId: RequestId;
  /** Who sent it (the request's auth info, src/server/caller.ts). */
  caller: Principal;
  signal: AbortSignal;
  progressToken?: ProgressToken;
  /** Answers to input requests of earlier rounds (MRTR, 2026-07-28). */
  inputResponses?: Record<string, unknown>;
  /** Sends a notification related to the request, on its own stream. */
  notify(notification: ServerNotification): Promise<void>;
  /** Sends a notifications/message log entry, unless the client's logging/setLevel filters it out. */
  log(level: LoggingLevel, data: unknown): Promise<void>;
}

/** The SDK's per-request context, as a CallRequest. */
export function callRequestOf(ctx: ServerContext): CallRequest {
  const progressToken = ctx.mcpReq._meta?.progressToken;
  const { inputResponses } = ctx.mcpReq;
  return {
    requestId: ctx.mcpReq.id,
    caller: requestPrincipal(ctx),
    signal: ctx.mcpReq.signal,
    ...(progressToken === undefined ? {} : { progressToken }),
    ...(inputResponses === undefined ? {} : { inputResponses }),
    notify: (notification) => ctx.mcpReq.notify(notification),
    log: (level, data) => ctx.mcpReq.log(level, data),
  };
}

/**
 * Runs a tool and formats its outcome, within the answer budget (formatResult's toolResult). A
 * ToolError is the tool's own answer (an isError result); any other exception is thrown on, for the
 * queue to retry or answer. `execution` says where it ran, for the metrics.
 */
export async function invokeTool(tool: ToolDefinition, args: unknown, ctx: ToolContext, execution: 'direct' | 'queued' = 'queued'): Promise<CallToolResult> {
  const started = Date.now();
  let outcome: 'ok' | 'error' | 'failed' = 'failed';
  try {
    const result = toolResult(tool, await tool.run(args as never, ctx));
    outcome = result.isError ? 'error' : 'ok';
    return result;
  } catch (error) {
    if (!(error instanceof ToolError)) throw error;
    outcome = 'error';
    return formatError(error);
  } finally {
    observe(ctx.env, { kind: 'tool', tool: tool.name, execution, outcome, ms: Date.now() - started, ...(ctx.sessionId ? { session: ctx.sessionId } : {}) });
  }
}

/** Direct execution, where the request arrived (a session's object, or the Worker): whatever happens becomes a tool result. */
export function runDirect(tool: ToolDefinition, args: unknown, ctx: ToolContext): Promise<CallToolResult> {
  return invokeTool(tool, args, ctx, 'direct').catch(formatError);
}

/** A notifications/progress for the client's progress token. */
export function progressNotification(progressToken: ProgressToken, progress: number, total?: number, message?: string): ServerNotification {
  return {
    method: 'notifications/progress',
    params: { progressToken, progress, ...(total === undefined ? {} : { total }), ...(message ? { message } : {}) },
  };
}

/**
 * The context a tool sees when it runs where its request arrived (not through the queue). Its deadline
 * is the tool's, as a queued call's would be; the caller decides whether the signal also aborts then
 * (a timer would keep a session's object from hibernating).
 */
export function toolContext(env: Env, tool: ToolDefinition, sessionId: string | undefined, call: CallRequest): ToolContext {
  const { progressToken, caller } = call;
  return {
    env,
    callId: crypto.randomUUID(),
    caller,
    ...(sessionId === undefined ? {} : { sessionId }),
    signal: call.signal,
    deadline: Date.now() + callTimeoutMs(tool, env),
    ...(call.inputResponses === undefined ? {} : { inputResponses: call.inputResponses }),
    async progress(progress, total, message) {
      if (progressToken !== undefined) await call.notify(progressNotification(progressToken, progress, total, message));
    },
    log: (level, data) => call.log(level, data),
    beginSideEffect: async () => {},
  };
}
