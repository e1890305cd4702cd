import { principalOf } from '../../auth/principal';
import { limitCalls } from '../../auth/rateLimit';
import type { WorkerRequest } from '../../http/request';
import type { Env } from '../../env';
import { normalizeAccept, sseToJson, wantsJsonOnly } from '../../http/accept';
import { readJsonBody } from '../../http/body';
import { sessionNotFound } from '../../http/errors';
import { isSessionId, newSessionId, onSession, sessionSocket } from '../sessionId';
import { holdHandedOff } from '../handoff/heldStream';
import type { Principal } from '../../auth/principal';
import { HttpError } from '../../http/errors';
import { ErrorCode, isInitialize } from '../../protocol/jsonrpc';
import { describeMessages, parseJson, parseMessages } from '../../protocol/messages';
import { isModernRequest } from '../../server/era';
import { serveModern } from '../../stateless/handler';

/**
 * POST /mcp. A 2026-07-28 request (it carries the per-request envelope) is answered here in the
 * Worker, with no session. A 2025-era body is validated here, before any object wakes: an initialize
 * without a session id creates a session under a freshly minted id; everything else goes to the
 * session it names.
 */
export async function postMcp(request: WorkerRequest, env: Env): Promise<Response> {
  const body = parseJson(await readJsonBody(request));
  const { messages, batch, invalidParams } = parseMessages(body);
  Object.assign(request, describeMessages(messages));
  await limitCalls(env, principalOf(request), messages);
  if (await isModernRequest(request, body)) {
    request.era = 'modern';
    return serveModern(env, request, body, principalOf(request));
  }
  if (invalidParams) throw invalidParams;
  const sessionId = request.headers.get('mcp-session-id');
  const create = sessionId === null;
  if (create && !messages.some(isInitialize)) {
    throw new HttpError(400, ErrorCode.InvalidRequest, 'Bad Request: Mcp-Session-Id header is required');
  }
  if (!create && !isSessionId(sessionId)) throw sessionNotFound();
  const id = sessionId ?? newSessionId();
  // The object gets the parsed messages, not the body: it is not read and parsed a second time.
  const principal = principalOf(request);
  const answer = await onSession(env, id, (session) => session.streamableHttp(forward(request), id, create, principal, batch ? messages : messages[0]));
  const response = holdHandedOff(answer, attachTo(env, id, principal));
  const sse = response.headers.get('content-type')?.startsWith('text/event-stream');
  return sse && wantsJsonOnly(request) ? sseToJson(response) : response;
}

/** GET /mcp (the session's standalone SSE stream) and DELETE /mcp (end the session). */
export async function getOrDeleteMcp(request: WorkerRequest, env: Env): Promise<Response> {
  const sessionId = request.headers.get('mcp-session-id');
  if (sessionId === null) {
    throw new HttpError(400, ErrorCode.InvalidRequest, 'Bad Request: Mcp-Session-Id header is required');
  }
  if (!isSessionId(sessionId)) throw sessionNotFound();
  const principal = principalOf(request);
  const answer = await onSession(env, sessionId, (session) => session.streamableHttp(forward(request), sessionId, false, principal));
  return holdHandedOff(answer, attachTo(env, sessionId, principal));
}

/** Picks up a stream the session's object handed off (src/sessions/handoff/handoff.ts). */
const attachTo =
  (env: Env, sessionId: string, principal: Principal) =>
  ({ streamId, after }: { streamId: string; after?: string }) =>
    sessionSocket(env, sessionId, '/stream', { id: streamId, ...(after === undefined ? {} : { after }) }, principal);

/** The request as the session object sees it: headers (Accept normalized, no credential), no body. */
function forward(request: Request): Request {
  const headers = new Headers(request.headers);
  headers.delete('authorization');
  normalizeAccept(headers, request.method);
  return new Request(request.url, { method: request.method, headers });
}
