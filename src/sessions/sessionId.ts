import type { Principal } from '../auth/principal';
import type { Env } from '../env';
import { PRINCIPAL_HEADER } from './handoff/handoff';
import { HttpError } from '../http/errors';
import { ErrorCode } from '../protocol/jsonrpc';

const SESSION_ID = /^[A-Za-z0-9_-]{43}$/;

/** 256 random bits, base64url: unguessable, visible ASCII, safe in a header and a query string. */
export function newSessionId(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(32));
  return btoa(String.fromCharCode(...bytes))
    .replace(/\+/g, '-')
    .replace(/\//g, '_')
    .replace(/=+$/, '');
}

/** Ids this server could have minted; anything else is unknown without waking an object. */
export const isSessionId = (value: string | null | undefined): value is string => typeof value === 'string' && SESSION_ID.test(value);

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
