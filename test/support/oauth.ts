import { expect } from 'vitest';
import { call, ORIGIN } from './mcp';

/** The OAuth flow as a client and its user's browser drive it: registration, consent, tokens. */
export const REDIRECT = 'http://127.0.0.1:33418/callback';
const base64url = (bytes: Uint8Array) =>
  btoa(String.fromCharCode(...bytes))
    .replace(/\+/g, '-')
    .replace(/\//g, '_')
    .replace(/=+$/, '');

export async function pkce() {
  const verifier = base64url(crypto.getRandomValues(new Uint8Array(32)));
  const challenge = base64url(new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(verifier))));
  return { verifier, challenge };
}

/** Redirects are the answer under test, never followed. */
export const form = (fields: Record<string, string>, headers: Record<string, string> = {}): RequestInit => ({
  method: 'POST',
  redirect: 'manual',
  headers: { 'content-type': 'application/x-www-form-urlencoded', authorization: '', ...headers },
  body: new URLSearchParams(fields).toString(),
});

export async function register(name = 'Test Client'): Promise<string> {
  const response = await call('/oauth/register', {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: '' },
    body: JSON.stringify({ client_name: name, redirect_uris: [REDIRECT], token_endpoint_auth_method: 'none' }),
  });
  expect(response.status).toBe(201);
  return ((await response.json()) as { client_id: string }).client_id;
}

/** Where a test's browser opens the consent page: this file's test server, or another (a loopback one, with other variables). */
interface ConsentServer {
  origin: string;
  fetch(path: string, init: RequestInit): Promise<Response>;
}
const testServer: ConsentServer = { origin: ORIGIN, fetch: (path, init) => call(path, { ...init, headers: { authorization: '' } }) };

/** GET /authorize as a browser: the consent page, its form's handle and the cookie binding it. */
export async function consentPage(clientId: string, challenge: string, scope?: string, server: ConsentServer = testServer) {
  const query = new URLSearchParams({
    response_type: 'code',
    client_id: clientId,
    redirect_uri: REDIRECT,
    code_challenge: challenge,
    code_challenge_method: 'S256',
    state: 'state-123',
    resource: `${server.origin}/mcp`,
    ...(scope ? { scope } : {}),
  });
  const path = `/authorize?${query}`;
  const response = await server.fetch(path, { redirect: 'manual' });
  const html = await response.text();
  const handle = /name="handle" value="([^"]+)"/.exec(html)?.[1];
  const cookie = response.headers
    .getSetCookie()
    .map((c) => c.split(';')[0])
    .join('; ');
  return { response, html, handle: handle!, cookie, path };
}

/** The whole browser step: consent with `credential`, then the code from the redirect to the client. */
export async function authorize(clientId: string, credential: string, scope?: string) {
  const { verifier, challenge } = await pkce();
  const page = await consentPage(clientId, challenge, scope);
  const approved = await call(page.path, form({ handle: page.handle, credential, decision: 'approve' }, { cookie: page.cookie }));
  expect(approved.status).toBe(302);
  const location = new URL(approved.headers.get('location')!);
  return { location, code: location.searchParams.get('code'), verifier };
}

export async function token(fields: Record<string, string>) {
  const response = await call('/oauth/token', form(fields));
  return { status: response.status, body: (await response.json()) as Record<string, any> };
}

export async function tokensFor(credential: string, scope?: string) {
  const clientId = await register();
  const { code, verifier } = await authorize(clientId, credential, scope);
  const { body } = await token({
    grant_type: 'authorization_code',
    code: code!,
    code_verifier: verifier,
    redirect_uri: REDIRECT,
    client_id: clientId,
    resource: `${ORIGIN}/mcp`,
  });
  return { clientId, access_token: String(body.access_token), refresh_token: String(body.refresh_token), scope: String(body.scope) };
}
