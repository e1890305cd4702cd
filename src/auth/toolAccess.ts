import type { CallToolResult, JSONRPCRequest, McpServer } from '@modelcontextprotocol/server';
import type { Env } from '../env';
import { formatError } from '../protocol/MessageFormatter';
import type { ToolDefinition } from '../tools/tool';
import type { Principal } from './principal';
import { RATE_LIMIT_PERIOD_SECONDS, withinLimit } from './rateLimit';
import { allows, scopesOf } from './scopes';

type Handler = (request: JSONRPCRequest, extra: unknown) => Promise<Record<string, unknown>>;

/**
 * Scopes and per-tool rate limits on a session's SDK server: `tools/list` shows only the tools the
 * caller may call, and a `tools/call` of another is refused with a result naming the missing scope
 * before its arguments are looked at. The SDK has no hook for either, so its two tool handlers are
 * wrapped in its (private) handler map. `caller` is read per request: the Worker re-authenticates
 * each one, and a refreshed token may carry fewer scopes.
 */
export function guardTools(server: McpServer, env: Env, tools: readonly ToolDefinition[], caller: () => Principal): void {
  const handlers = (server.server as unknown as { _requestHandlers: Map<string, Handler> })._requestHandlers;
  const list = handlers.get('tools/list');
  const call = handlers.get('tools/call');
  if (!list || !call) throw new Error('guardTools: register the tools first');
  const byName = new Map(tools.map((tool) => [tool.name, tool]));
  const missing = (tool: Pick<ToolDefinition, 'scope' | 'alsoNeeds'>) => scopesOf(tool).filter((scope) => !allows(caller().scopes, scope));
  const visible = (name: string) => missing(byName.get(name) ?? {}).length === 0;

  handlers.set('tools/list', async (request, extra) => {
    const result = await list(request, extra);
    return { ...result, tools: (result.tools as { name: string }[]).filter((t) => visible(t.name)) };
  });
  handlers.set('tools/call', async (request, extra) => {
    const tool = byName.get(String(request.params?.name));
    const lacking = tool ? missing(tool) : [];
    if (lacking.length > 0) {
      return refusal(`Forbidden: ${tool!.name} needs the scope${lacking.length > 1 ? 's' : ''} ${lacking.map((s) => `"${s}"`).join(' and ')}, which this credential does not have`);
    }
    if (tool?.rateLimiter && !(await withinLimit(env, tool.rateLimiter(env), caller().subject))) {
      return refusal(`Too Many Requests: the rate limit of ${tool.name} is used up; try again in ${RATE_LIMIT_PERIOD_SECONDS} s`);
    }
    return call(request, extra);
  });
}

const refusal = (message: string): CallToolResult => formatError(new Error(message));
