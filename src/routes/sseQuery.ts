import { principalOf } from '../auth/principal';
import type { WorkerRequest } from '../http/request';
import type { Env } from '../env';
import { SseStream } from '../http/sse';
import { newSessionId, onSession } from '../durable/sessionId';
import { jsonRpcError, ProtocolError } from '../protocol/errors';
import { ErrorCode } from '../protocol/jsonrpc';
import { parseQueryRequest } from '../transport/sseQuery';
import { openSse } from './legacySse';

/**
 * GET /mcp/sse. Without a `method` query parameter it is the legacy SSE transport (what n8n's
 * "SSE Endpoint" field connects to). With one, it is seed 004's query mode: one request, answered by
 * one `mcpResponse` event, then the stream closes. Errors are error events, never a broken stream.
 */
export function getMcpSse(request: WorkerRequest, env: Env, ctx: ExecutionContext): Promise<Response> | Response {
  const url = new URL(request.url);
  if (!url.searchParams.has('method')) return openSse(request, env);
  request.rpc = url.searchParams.get('method')!.slice(0, 64);

  const principal = principalOf(request);
  const stream = new SseStream();
  const answer = async () => {
    let reply: unknown;
    let id: string | number | null = null;
    try {
      const message = parseQueryRequest(url);
      id = message.id;
      const oneShotId = newSessionId();
      reply = await onSession(env, oneShotId, (session) => session.oneShot(message, oneShotId, principal));
    } catch (error) {
      reply =
        error instanceof ProtocolError
          ? error.toJSON()
          : jsonRpcError(id, ErrorCode.InternalError, 'Internal error');
      if (error instanceof ProtocolError) id = error.id;
      else console.error(JSON.stringify({ level: 'error', route: '/mcp/sse', error: String(error) }));
    }
    stream.send({ event: 'mcpResponse', data: JSON.stringify(reply), ...(id === null ? {} : { id: String(id) }) });
    stream.close();
  };
  ctx.waitUntil(answer());
  return stream.response;
}
