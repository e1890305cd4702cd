import type { RequestHandlerExtra } from '@modelcontextprotocol/sdk/shared/protocol.js';
import type { CallToolResult, LoggingLevel, ServerNotification, ServerRequest } from '@modelcontextprotocol/sdk/types.js';
import type { Env } from '../env';
import { formatError, formatToolResult } from '../protocol/MessageFormatter';
import type { ToolContext, ToolDefinition } from '../tools/tool';

type Extra = RequestHandlerExtra<ServerRequest, ServerNotification>;

/** Runs a tool in the session object (direct execution) and turns whatever happens into a tool result. */
export async function runTool(tool: ToolDefinition, args: unknown, ctx: ToolContext): Promise<CallToolResult> {
  try {
    const value = await tool.run(args as never, ctx);
    return formatToolResult(value, { structured: tool.output !== undefined });
  } catch (error) {
    return formatError(error);
  }
}

/** Whether the client's logging/setLevel filters out a level. */
export type LogFilter = (level: LoggingLevel, sessionId?: string) => boolean;

/** The context a tool sees, built from the SDK's per-request extras. */
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
