import { createMcpHandler, type McpHttpHandler, type McpServer } from '@modelcontextprotocol/server';
import type { Principal } from '../principal';
import { MAX_BODY_BYTES } from '../config';
import type { Env } from '../env';
import { authInfoOf } from '../server/caller';
import { createMcpServer } from '../server/createServer';
import { installTasks } from '../tasks/install';
import type { ToolDefinition } from '../tools/tool';
import { isTaskListen, listenToTasks } from '../tasks/listen';
import { modernExecutor } from './execute';

const handlers = new WeakMap<Env, McpHttpHandler>();

/**
 * The 2026-07-28 leg: the SDK's per-request entry, serving each request from a fresh server built by
 * the same factory as the sessions' (src/server/createServer.ts), in the Worker isolate. It only ever
 * sees requests that carry the per-request envelope (src/routes/mcp.ts routes the rest to the
 * sessions), so 2025-era traffic it is handed by mistake is refused, never served statelessly.
 */
function modernHandler(env: Env): McpHttpHandler {
  let handler = handlers.get(env);
  if (!handler) {
    // The caller comes with each request (authInfo), not with the server: src/server/caller.ts.
    const extend = (server: McpServer, tools: readonly ToolDefinition[]) => installTasks(server, env, tools);
    handler = createMcpHandler(() => createMcpServer(env, { execute: modernExecutor(env), era: 'stateless', extend }), {
      legacy: 'reject',
      maxRequestBodySize: MAX_BODY_BYTES,
    });
    handlers.set(env, handler);
  }
  return handler;
}

/** Serves one 2026-07-28 request for a caller the Worker has authenticated and rate-limited. */
export function serveModern(env: Env, request: Request, body: unknown, principal: Principal): Promise<Response> {
  if (isTaskListen(request, body)) return listenToTasks(env, body, principal);
  return modernHandler(env).fetch(request, { parsedBody: body, authInfo: authInfoOf(principal) });
}
