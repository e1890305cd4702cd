import { Router, type RequestHandler } from 'itty-router';
import { authenticate } from './auth/authenticate';
import { showConsent, submitConsent } from './auth/consent';
import { AUTHORIZE_PATH, isOAuthEndpoint, isProtectedResourceMetadataPath, protectedResourceMetadata, serveOAuthEndpoint } from './auth/oauth';
import { publicReader } from './auth/publicCatalog';
import { limitRequests } from './auth/rateLimit';
import type { Env } from './env';
import { allowedOrigin, preflight, withCors } from './http/cors';
import { assertAllowedHost } from './http/hosts';
import { wantsHtmlPage } from './http/accept';
import { toErrorResponse } from './protocol/httpError';
import type { WorkerRequest } from './http/request';
import { assertHeaderSize } from './http/headers';
import { SSE_HEADERS } from './http/sse';
import { HttpError } from './protocol/httpError';
import { observe, requestEvent } from './observability/events';
import { consumeDeadLetters, consumeToolCalls } from './queues/consumer';
import { ErrorCode } from './protocol/jsonrpc';
import { catalogSpec, me, searchCatalog } from './page/catalogApi';
import { addInstance, instances, removeInstance, testInstance } from './page/connectionsApi';
import { health } from './routes/health';
import { landing } from './page/landingRoute';
import { openSse, postMessages } from './sessions/sse/sseRoute';
import { getMcpSse } from './sessions/query/queryRoute';
import { postMcp } from './routes/mcp';
import { getOrDeleteMcp } from './sessions/streamable/streamableRoute';

export { SessionObject } from './sessions/SessionObject';
export { TaskObject } from './tasks/TaskObject';
export { HistoryObject } from './history/HistoryObject';

type Args = [Env, ExecutionContext];

/** On the MCP routes: who is calling (401 if nobody we know), counted against their rate limit (429). */
const authenticated: RequestHandler<WorkerRequest, Args> = async (request, env) => {
  request.principal = await authenticate(request, env);
  await limitRequests(env, request.principal);
};

/** Before an MCP route: a browser opening its URL gets the landing page; every other request goes on to the protocol. */
const pageForBrowsers: RequestHandler<WorkerRequest, Args> = (request, env) => (wantsHtmlPage(request) ? landing(request, env) : undefined);

/** On the landing page's catalog API: the same, except that PUBLIC_CATALOG lets callers without a credential read the catalog. */
const readsCatalog: RequestHandler<WorkerRequest, Args> = async (request, env) => {
  request.principal = publicReader(request, env) ?? (await authenticate(request, env));
  await limitRequests(env, request.principal);
};

const notFound = () => {
  throw new HttpError(404, ErrorCode.InvalidRequest, 'Not Found');
};

const methodNotAllowed = (allow: string) => () => {
  throw new HttpError(405, ErrorCode.InvalidRequest, 'Method Not Allowed', { Allow: allow });
};

const router = Router<WorkerRequest, Args>({
  before: [
    // Host and Origin are checked first, on every route, so a forbidden page learns nothing else.
    (request, env) => {
      request.startedAt = Date.now();
      assertAllowedHost(request, env);
      assertHeaderSize(request);
      // OAuth discovery, registration and tokens serve browser-based clients of any origin, with no
      // cookies involved; the library answers their CORS, and the resource metadata is public.
      const { pathname } = new URL(request.url);
      if (isOAuthEndpoint(pathname)) return;
      if (isProtectedResourceMetadataPath(pathname)) return request.method === 'OPTIONS' ? preflight(null) : undefined;
      request.origin = allowedOrigin(request, env);
      if (request.method === 'OPTIONS') return preflight(request.origin);
    },
  ],
  catch: (error) => toErrorResponse(error),
  finally: [
    (response: Response, request: WorkerRequest, env: Env) => {
      observe(env, requestEvent(request, response));
      if (response.headers.has('access-control-allow-origin')) return response;
      const finished = withCors(response, request.origin ?? null);
      if (finished.headers.get('content-type')?.startsWith('text/event-stream')) {
        for (const [name, value] of Object.entries(SSE_HEADERS)) finished.headers.set(name, value);
      }
      return finished;
    },
  ],
});

router
  .get('/', landing)
  // Uptime checks and link previews ask with HEAD (the runtime sends no body for it).
  .head('/', landing)
  .all('/', methodNotAllowed('GET, HEAD'))
  .get('/health', health)
  .get('/api/me', readsCatalog, me)
  .get('/api/catalog/search', readsCatalog, searchCatalog)
  .get('/api/catalog/spec', readsCatalog, catalogSpec)
  // A workspace's n8n connections: never the public catalog's reader.
  .get('/api/instances', authenticated, instances)
  .post('/api/instances', authenticated, addInstance)
  .all('/api/instances', methodNotAllowed('GET, POST, OPTIONS'))
  .post('/api/instances/test', authenticated, testInstance)
  .delete('/api/instances/:name', authenticated, removeInstance)
  .post('/mcp', authenticated, postMcp)
  .get('/mcp', pageForBrowsers, authenticated, getOrDeleteMcp)
  .delete('/mcp', authenticated, getOrDeleteMcp)
  .all('/mcp', methodNotAllowed('GET, POST, DELETE, OPTIONS'))
  .get('/mcp/sse', pageForBrowsers, authenticated, getMcpSse)
  .all('/mcp/sse', methodNotAllowed('GET, OPTIONS'))
  .get('/sse', pageForBrowsers, authenticated, openSse)
  .all('/sse', methodNotAllowed('GET, OPTIONS'))
  .post('/messages', authenticated, postMessages)
  .all('/messages', methodNotAllowed('POST, OPTIONS'))
  .get(AUTHORIZE_PATH, showConsent)
  .post(AUTHORIZE_PATH, submitConsent)
  .get('/.well-known/oauth-protected-resource/*', (request) => protectedResourceMetadata(new URL(request.url)) ?? notFound())
  .all('*', (request, env, ctx) => {
    const url = new URL(request.url);
    if (isOAuthEndpoint(url.pathname)) return serveOAuthEndpoint(request, env, ctx);
    notFound();
  });

export default {
  fetch: (request, env, ctx) => router.fetch(request, env, ctx),
  // The queue consumers run in this Worker by default; src/queues can also be deployed on its own.
  queue: (batch, env) => (batch.queue.endsWith('-dlq') ? consumeDeadLetters(batch, env) : consumeToolCalls(batch, env)),
} satisfies ExportedHandler<Env>;
