import type { Principal } from '../principal';
import type { Env } from '../env';
import { PRINCIPAL_HEADER } from './handoff/handoff';
import { HttpError } from '../protocol/httpError';
import { ErrorCode } from '../protocol/jsonrpc';

/** The session's Durable Object, addressed by the session id. */
export const sessionStub = (env: Env, sessionId: string) => env.SESSIONS.get(env.SESSIONS.idFromName(sessionId));

type SessionStub = ReturnType<typeof sessionStub>;

/**
 * A request to a session's object from the Worker. The object answers its own errors; if the call
 * itself fails, the object was reset, evicted mid-call or overloaded, and the client gets a 503 it
 * may retry (the session's state is in storage), not a 500.
 */
export async function onSession<T>(env: Env, sessionId: string, call: (session: SessionStub) => Promise<T>): Promise<T> {
  try {
    return await call(sessionStub(env, sessionId));
  } catch (error) {
    console.error(JSON.stringify({ level: 'warn', message: 'session object call failed', error: String(error) }));
    throw new HttpError(503, ErrorCode.InternalError, 'Service Unavailable: the session restarted; retry the request', { 'Retry-After': '1' });
  }
}

/**
 * Asks a session's object for the socket of one of its client streams, which the Worker then holds:
 * `/stream` for a handed-off stream, `/sse` to open an HTTP+SSE session.
 */
export function sessionSocket(env: Env, sessionId: string, path: '/stream' | '/sse', query: Record<string, string>, principal: Principal): Promise<Response> {
  const url = `https://session${path}?${new URLSearchParams(query)}`;
  return onSession(env, sessionId, (session) => session.fetch(url, { headers: { upgrade: 'websocket', [PRINCIPAL_HEADER]: JSON.stringify(principal) } }));
}
