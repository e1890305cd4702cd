import type { Env } from '../env';

const SESSION_ID = /^[A-Za-z0-9_-]{43}$/;

/** 256 random bits, base64url: unguessable, visible ASCII, safe in a header and a query string. */
export function newSessionId(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(32));
  return btoa(String.fromCharCode(...bytes)).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

/** Ids this server could have minted; anything else is unknown without waking an object. */
export const isSessionId = (value: string | null | undefined): value is string =>
  typeof value === 'string' && SESSION_ID.test(value);

/** The session's Durable Object, addressed by the session id. */
export const sessionStub = (env: Env, sessionId: string) => env.SESSIONS.get(env.SESSIONS.idFromName(sessionId));
