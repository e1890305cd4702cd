import { principalOf } from '../../http/request';
import { limitCalls } from '../../auth/rateLimit';
import type { WorkerRequest } from '../../http/request';
import type { Env } from '../../env';
import { readJsonBody } from '../../http/body';
import { sessionNotFound } from '../../protocol/httpError';
import { onSession, sessionSocket } from '../sessionId';
import { isSessionId, newSessionId } from '../../lib/sessionIds';
import { holdSocketStream } from '../handoff/heldStream';
import { HttpError } from '../../protocol/httpError';
import { ErrorCode } from '../../protocol/jsonrpc';
import { describeMessages, parse } from '../../protocol/messages';

/** GET /sse: a new session whose stream, held here, opens with the `endpoint` event. */
export async function openSse(request: WorkerRequest, env: Env): Promise<Response> {
  const id = newSessionId();
  return holdSocketStream(await sessionSocket(env, id, '/sse', { session: id }, principalOf(request)));
}

/** POST /messages?sessionId=…: the client half of the HTTP+SSE transport; results arrive on the stream. */
export async function postMessages(request: WorkerRequest, env: Env): Promise<Response> {
  const sessionId = new URL(request.url).searchParams.get('sessionId');
  if (sessionId === null || sessionId === '') {
    throw new HttpError(400, ErrorCode.InvalidRequest, 'Bad Request: the sessionId query parameter is required');
  }
  const { messages } = parse(await readJsonBody(request));
  Object.assign(request, describeMessages(messages));
  await limitCalls(env, principalOf(request), messages);
  if (!isSessionId(sessionId)) throw sessionNotFound();
  return onSession(env, sessionId, (session) => session.postSseMessage(messages, principalOf(request)));
}
