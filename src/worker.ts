import { Router, type IRequest } from 'itty-router';
import type { Env } from './env';
import { allowedOrigin, assertAllowedHost, preflight, withCors } from './http/cors';
import { toErrorResponse } from './http/errors';
import { SSE_HEADERS } from './http/sse';
import { ProtocolError } from './protocol/errors';
import { consumeDeadLetters, consumeToolCalls } from './queues/consumer';
import { ErrorCode } from './protocol/jsonrpc';
import { health } from './routes/health';
import { openSse, postMessages } from './routes/legacySse';
import { getMcpSse } from './routes/sseQuery';
import { getOrDeleteMcp, postMcp } from './routes/streamableHttp';

export { SessionObject } from './durable/SessionObject';

type Args = [Env, ExecutionContext];
/** The allowed Origin travels on the request from the `before` check to the CORS headers in `finally`. */
type McpRequest = IRequest & { origin?: string | null };

const methodNotAllowed = (allow: string) => () => {
  throw new ProtocolError(405, ErrorCode.InvalidRequest, 'Method Not Allowed', { Allow: allow });
};

const router = Router<McpRequest, Args>({
  before: [
    // Host and Origin are checked first, on every route, so a forbidden page learns nothing else.
    (request, env) => {
      assertAllowedHost(request, env);
      request.origin = allowedOrigin(request, env);
      if (request.method === 'OPTIONS') return preflight(request.origin);
    },
  ],
  catch: (error) => toErrorResponse(error),
  finally: [
    (response: Response, request: McpRequest) => {
      const finished = withCors(response, request.origin ?? null);
      if (finished.headers.get('content-type')?.startsWith('text/event-stream')) {
        for (const [name, value] of Object.entries(SSE_HEADERS)) finished.headers.set(name, value);
      }
      return finished;
    },
  ],
});

router
  .get('/health', health)
  .post('/mcp', postMcp)
  .get('/mcp', getOrDeleteMcp)
  .delete('/mcp', getOrDeleteMcp)
  .all('/mcp', methodNotAllowed('GET, POST, DELETE, OPTIONS'))
  .get('/mcp/sse', getMcpSse)
  .all('/mcp/sse', methodNotAllowed('GET, OPTIONS'))
  .get('/sse', openSse)
  .all('/sse', methodNotAllowed('GET, OPTIONS'))
  .post('/messages', postMessages)
  .all('/messages', methodNotAllowed('POST, OPTIONS'))
  .all('*', () => {
    throw new ProtocolError(404, ErrorCode.InvalidRequest, 'Not Found');
  });

export default {
  fetch: (request, env, ctx) => router.fetch(request, env, ctx),
  // The queue consumers run in this Worker by default; src/queues can also be deployed on its own.
  queue: (batch, env) => (batch.queue.endsWith('-dlq') ? consumeDeadLetters(batch, env) : consumeToolCalls(batch, env)),
} satisfies ExportedHandler<Env>;
