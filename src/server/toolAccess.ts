import type { CallToolResult, McpServer } from '@modelcontextprotocol/server';
import type { Env } from '../env';
import { formatError } from './formatResult';
import { requestPrincipal } from './caller';
import { wrapRequestHandler } from './sdkInternals';
import type { ToolDefinition } from '../tools/tool';
import type { Principal } from '../principal';
import { RATE_LIMIT_PERIOD_SECONDS, withinLimit } from '../auth/rateLimit';
import { missingScopes } from '../auth/scopes';

/**
 * Scopes and per-tool rate limits on a session's SDK server: `tools/list` shows only the tools the
 * caller may call, and a `tools/call` of another is refused with a result naming the missing scope
 * before its arguments are looked at. The SDK has no hook for either, so its two tool handlers are
 * wrapped (wrapRequestHandler). The caller is each request's own (src/server/caller.ts): the
 * Worker re-authenticates every request, and a refreshed token may carry fewer scopes.
 */
export function guardTools(server: McpServer, env: Env, tools: readonly ToolDefinition[]): void {
  const byName = new Map(tools.map((tool) => [tool.name, tool]));
  const missing = (tool: Pick<ToolDefinition, 'scope' | 'alsoNeeds'>, caller: Principal) => missingScopes(tool, caller.scopes);

  wrapRequestHandler(server, 'tools/list', (list) => async (request, ctx) => {
    const caller = requestPrincipal(ctx);
    const result = await list(request, ctx);
    return { ...result, tools: (result.tools as { name: string }[]).filter((t) => missing(byName.get(t.name) ?? {}, caller).length === 0) };
  });
  wrapRequestHandler(server, 'tools/call', (call) => async (request, ctx) => {
    const caller = requestPrincipal(ctx);
    const tool = byName.get(String(request.params?.name));
    const lacking = tool ? missing(tool, caller) : [];
    if (lacking.length > 0) {
      return refusal(
        `Forbidden: ${tool!.name} needs the scope${lacking.length > 1 ? 's' : ''} ${lacking.map((s) => `"${s}"`).join(' and ')}, which this credential does not have`,
      );
    }
    if (tool?.rateLimiter && !(await withinLimit(env, tool.rateLimiter(env), caller.subject))) {
      return refusal(`Too Many Requests: the rate limit of ${tool.name} is used up; try again in ${RATE_LIMIT_PERIOD_SECONDS} s`);
    }
    return call(request, ctx);
  });
}

const refusal = (message: string): CallToolResult => formatError(new Error(message));
