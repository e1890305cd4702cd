import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { principalOf, type AuthenticatedRequest } from '../auth/principal';
import type { Env } from '../env';
import { readJsonBody } from '../http/body';
import { sessionNotFound } from '../http/errors';
import { isSessionId, newSessionId, sessionStub } from '../durable/sessionId';
import { ProtocolError } from '../protocol/errors';
import { ErrorCode } from '../protocol/jsonrpc';
import { parse } from '../protocol/MessageParser';

/** GET /sse: a new session whose stream opens with the `endpoint` event. */
export function openSse(request: AuthenticatedRequest, env: Env): Promise<Response> {
  const id = newSessionId();
  return sessionStub(env, id).openLegacySse(id, principalOf(request));
}

/** POST /messages?sessionId=…: the client half of the HTTP+SSE transport; results arrive on the stream. */
export async function postMessages(request: AuthenticatedRequest, env: Env): Promise<Response> {
  const sessionId = new URL(request.url).searchParams.get('sessionId');
  if (sessionId === null || sessionId === '') {
    throw new ProtocolError(400, ErrorCode.InvalidRequest, 'Bad Request: the sessionId query parameter is required');
  }
  const { messages } = parse(await readJsonBody(request));
  if (!isSessionId(sessionId)) throw sessionNotFound();
  return sessionStub(env, sessionId).postLegacyMessage(messages as JSONRPCMessage[], principalOf(request));
}
