import { type Principal } from '../../principal';
import { principalOf } from '../../http/request';
import type { WorkerRequest } from '../../http/request';
import type { Env } from '../../env';
import { normalizeAccept, sseToJson, wantsJsonOnly } from '../../http/accept';
import { HttpError, sessionNotFound } from '../../protocol/httpError';
import { onSession, sessionSocket } from '../sessionId';
import { isSessionId, newSessionId } from '../../lib/sessionIds';
import { holdHandedOff } from '../handoff/heldStream';
import { ErrorCode, isInitialize } from '../../protocol/jsonrpc';
import type { ParsedBody } from '../../protocol/messages';

/**
 * POST /mcp of the 2025 era (src/routes/mcp.ts read and validated the body, and refused a known
 * method's bad params before any object wakes): an initialize without a session id creates a session
 * under a freshly minted id; everything else goes to the session it names.
 */
export async function postStreamable(request: WorkerRequest, env: Env, { messages, batch }: ParsedBody): Promise<Response> {
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
