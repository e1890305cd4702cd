import { principalOf } from '../../http/request';
import type { WorkerRequest } from '../../http/request';
import type { Env } from '../../env';
import { SocketRelay } from '../handoff/heldStream';
import { onSession, sessionSocket } from '../sessionId';
import { newSessionId } from '../../lib/sessionIds';
import { HttpError } from '../../protocol/httpError';
import { jsonRpcError } from '../../protocol/jsonrpc';
import { ErrorCode } from '../../protocol/jsonrpc';
import { PARKED, parseQueryRequest, QUERY_STREAM_ID, queryResponseEvent } from './queryMessages';
import { openSse } from '../sse/sseRoute';

/**
 * GET /mcp/sse. Without a `method` query parameter it is the HTTP+SSE transport (what n8n's
 * "SSE Endpoint" field connects to). With one, it is seed 004's query mode: one request, answered by
 * one `mcpResponse` event, then the stream closes. Errors are error events, never a broken stream.
 * The stream is held here; a request waiting on a queued call gets its answer over the object's socket.
 */
export function getMcpSse(request: WorkerRequest, env: Env, ctx: ExecutionContext): Promise<Response> | Response {
  const url = new URL(request.url);
  if (!url.searchParams.has('method')) return openSse(request, env);
  request.rpc = url.searchParams.get('method')!.slice(0, 64);

  const principal = principalOf(request);
  const relay = new SocketRelay();
  const answer = async () => {
    let reply: unknown;
    let id: string | number | null = null;
    try {
      const message = parseQueryRequest(url);
      id = message.id;
      const queryId = newSessionId();
      reply = await onSession(env, queryId, (session) => session.serveQuery(message, queryId, principal));
      if (reply === PARKED) return relay.follow(await sessionSocket(env, queryId, '/stream', { id: QUERY_STREAM_ID }, principal));
    } catch (error) {
      reply = error instanceof HttpError ? error.toJSON() : jsonRpcError(id, ErrorCode.InternalError, 'Internal error');
      if (error instanceof HttpError) id = error.id;
      else console.error(JSON.stringify({ level: 'error', route: '/mcp/sse', error: String(error) }));
    }
    relay.stream.send(queryResponseEvent(reply, id));
    relay.stream.close();
  };
  ctx.waitUntil(answer());
  return relay.stream.response;
}
