/**
 * The session id format: minted by the session routes, recognised by them and by the request log
 * without waking an object.
 */
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
