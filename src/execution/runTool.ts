import type { RequestHandlerExtra } from '@modelcontextprotocol/sdk/shared/protocol.js';
import type { CallToolResult, LoggingLevel, ServerNotification, ServerRequest } from '@modelcontextprotocol/sdk/types.js';
import type { Env } from '../env';
import { observe } from '../observability/events';
import { executionPolicy } from './policy';
import { formatError, formatToolResult } from '../protocol/MessageFormatter';
import { ToolError, type ToolContext, type ToolDefinition } from '../tools/tool';

export type Extra = RequestHandlerExtra<ServerRequest, ServerNotification>;

/**
 * Runs a tool and formats its outcome. A ToolError is the tool's own answer (an isError result); any
 * other exception is thrown on, so the queue can retry it.
 */
export async function invokeTool(tool: ToolDefinition, args: unknown, ctx: ToolContext): Promise<CallToolResult> {
  const started = Date.now();
  let outcome: 'ok' | 'error' | 'failed' = 'failed';
  try {
    const result = formatToolResult(await tool.run(args as never, ctx), { structured: tool.output !== undefined });
    outcome = result.isError ? 'error' : 'ok';
    return result;
  } catch (error) {
    if (!(error instanceof ToolError)) throw error;
    outcome = 'error';
    return formatError(error);
  } finally {
    const execution = executionPolicy(tool, ctx.env);
    observe(ctx.env, { kind: 'tool', tool: tool.name, execution, outcome, ms: Date.now() - started, session: ctx.sessionId });
  }
}

/** Direct execution, in the session object: whatever happens becomes a tool result. */
export function runDirect(tool: ToolDefinition, args: unknown, ctx: ToolContext): Promise<CallToolResult> {
  return invokeTool(tool, args, ctx).catch(formatError);
}

/** Whether the client's logging/setLevel filters out a level. */
export type LogFilter = (level: LoggingLevel, sessionId?: string) => boolean;

/** The context a tool sees in the session object, built from the SDK's per-request extras. */
export function toolContext(env: Env, sessionId: string, extra: Extra, isIgnored: LogFilter): ToolContext {
  const progressToken = extra._meta?.progressToken;
  return {
    env,
    sessionId,
    signal: extra.signal,
    async progress(progress, total, message) {
      if (progressToken === undefined) return;
      await extra.sendNotification({
        method: 'notifications/progress',
        params: { progressToken, progress, ...(total === undefined ? {} : { total }), ...(message ? { message } : {}) },
      });
    },
    async log(level, data) {
      if (isIgnored(level, extra.sessionId)) return;
      // Sent as related to the request, so it travels on the call's own stream.
      await extra.sendNotification({ method: 'notifications/message', params: { level, data } });
    },
  };
}
