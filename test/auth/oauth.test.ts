import { env, exports } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { createExecutionContext, waitOnExecutionContext } from 'cloudflare:test';
import { kvName, summary, type ApiKeyRecord } from '../../src/auth/apiKeys';
import worker from '../../src/worker';
import { bearer, createKey, revokeKey } from '../support/keys';
import { call, messagesOf, openSession, ORIGIN, postJson, sessionHeaders } from '../support/mcp';
import { authorize, consentPage, form, pkce, REDIRECT, register, token, tokensFor } from '../support/oauth';

/** Makes a key's expiry pass, as time would. */
async function expireKey(record: ApiKeyRecord): Promise<void> {
  const expired = { ...record, expiresAt: Date.now() - 1_000 };
  await env.API_KEYS.put(kvName(record.hash), JSON.stringify(expired), { metadata: summary(expired) });
}

async function toolNames(authorization: Record<string, string>): Promise<string[]> {
  const sessionId = await openSession(undefined, authorization);
  const response = await postJson('/mcp', { jsonrpc: '2.0', id: 2, method: 'tools/list' }, { ...authorization, ...sessionHeaders(sessionId) });
  return (await messagesOf(response))[0]!.result.tools.map((t: { name: string }) => t.name);
}

describe('OAuth discovery', () => {
  it('publishes protected resource metadata for /mcp and /sse, pointing at this server', async () => {
    for (const path of ['mcp', 'sse']) {
      const response = await call(`/.well-known/oauth-protected-resource/${path}`, { headers: { authorization: '' } });
      expect(response.status).toBe(200);
      expect(await response.json()).toMatchObject({ resource: `${ORIGIN}/${path}`, authorization_servers: [ORIGIN], bearer_methods_supported: ['header'] });
    }
    expect((await call('/.well-known/oauth-protected-resource/other', { headers: { authorization: '' } })).status).toBe(404);
  });

  it('publishes authorization server metadata: registration, PKCE S256, refresh tokens, the scopes', async () => {
    const response = await call('/.well-known/oauth-authorization-server', { headers: { authorization: '', origin: 'https://claude.ai' } });
    expect(response.status).toBe(200);
    expect(response.headers.get('access-control-allow-origin')).toBe('https://claude.ai');
    const metadata = (await response.json()) as Record<string, any>;
    expect(metadata).toMatchObject({
      issuer: ORIGIN,
      authorization_endpoint: `${ORIGIN}/authorize`,
      token_endpoint: `${ORIGIN}/oauth/token`,
      registration_endpoint: `${ORIGIN}/oauth/register`,
      code_challenge_methods_supported: ['S256'],
    });
    expect(metadata.grant_types_supported).toEqual(expect.arrayContaining(['authorization_code', 'refresh_token']));
    expect(metadata.scopes_supported).toEqual(expect.arrayContaining(['nodes:read', 'workflows:write', '*']));
  });
});

describe('OAuth metadata, from an origin the server accepts', () => {
  /** The Worker served as `npm run dev` serves it: on port 8787 of the loopback names. */
  async function local(url: string, headers: Record<string, string> = {}) {
    const ctx = createExecutionContext();
    const response = await worker.fetch(
      new Request(url, { headers }) as Parameters<typeof worker.fetch>[0],
      { ...env, ALLOWED_HOSTS: 'localhost:8787,127.0.0.1:8787,[::1]:8787' },
      ctx,
    );
    await waitOnExecutionContext(ctx);
    return response;
  }

  it('names the origin a client reached, on the port the server serves; a Host with another port is refused, not reflected', async () => {
    const metadata = await local('http://localhost:8787/.well-known/oauth-authorization-server');
    expect(await metadata.json()).toMatchObject({ issuer: 'http://localhost:8787', token_endpoint: 'http://localhost:8787/oauth/token' });
    const resource = await local('http://127.0.0.1:8787/.well-known/oauth-protected-resource/mcp');
    expect(await resource.json()).toMatchObject({ resource: 'http://127.0.0.1:8787/mcp', authorization_servers: ['http://127.0.0.1:8787'] });
    for (const path of ['/.well-known/oauth-authorization-server', '/.well-known/oauth-protected-resource/mcp', '/mcp']) {
      const reflected = await local(`http://localhost:31337${path}`);
      expect(reflected.status, path).toBe(403);
      expect(reflected.headers.get('www-authenticate')).toBeNull();
      expect(await reflected.json()).toMatchObject({ error: { message: 'Forbidden: host "localhost:31337" is not allowed' } });
    }
  });

  it('answers each of many origins Cloudflare routes here (a wildcard route) with its own issuer, again after others pushed it out', async () => {
    const issuerAt = async (origin: string) =>
      ((await (await exports.default.fetch(`${origin}/.well-known/oauth-authorization-server`)).json()) as { issuer: string }).issuer;
    const origins = Array.from({ length: 40 }, (_, i) => `https://tenant-${i}.mcp.example`);
    for (const origin of origins) expect(await issuerAt(origin)).toBe(origin);
    expect(await issuerAt(origins[0]!)).toBe(origins[0]);
  });
});

describe('OAuth registration and tokens, per client address', () => {
  /** The Worker with the test configuration's 3-a-minute limiter as OAUTH_LIMITER, called from `address`. */
  async function fromAddress(address: string, path: string, init: RequestInit) {
    const ctx = createExecutionContext();
    const headers = new Headers(init.headers);
    headers.set('cf-connecting-ip', address);
    const request = new Request(`${ORIGIN}${path}`, { ...init, headers });
    const response = await worker.fetch(
      request as Parameters<typeof worker.fetch>[0],
      { ...env, OAUTH_LIMITER: (env as unknown as { TINY_LIMITER: RateLimit }).TINY_LIMITER },
      ctx,
    );
    await waitOnExecutionContext(ctx);
    return response;
  }
  const registration = (address: string) =>
    fromAddress(address, '/oauth/register', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ client_name: 'Flood', redirect_uris: [REDIRECT], token_endpoint_auth_method: 'none' }),
    });

  it('reads a registration nested far deeper than any client sends without a 5xx (the library keeps only the fields it checked)', async () => {
    const deep = await fromAddress('203.0.113.9', '/oauth/register', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: `{"client_name":"Deep","redirect_uris":["${REDIRECT}"],"token_endpoint_auth_method":"none","x":${'['.repeat(100_000)}${']'.repeat(100_000)}}`,
    });
    expect(deep.status).toBe(201);
    expect(Object.keys((await deep.json()) as object)).not.toContain('x');
  });

  it('counts them together; past the limit, a 429 in the OAuth error format with Retry-After; other addresses go on', async () => {
    const statuses = [];
    for (let i = 0; i < 3; i++) statuses.push((await registration('203.0.113.5')).status);
    expect(statuses).toEqual([201, 201, 201]);
    for (const refused of [
      await registration('203.0.113.5'),
      await fromAddress('203.0.113.5', '/oauth/token', form({ grant_type: 'refresh_token', refresh_token: 'x' })),
    ]) {
      expect(refused.status).toBe(429);
      expect(refused.headers.get('retry-after')).toBe('60');
      expect(refused.headers.get('content-type')).toMatch(/^application\/json/);
      expect(await refused.json()).toEqual({
        error: 'temporarily_unavailable',
        error_description: 'Too many registration and token requests from this address: try again in 60 seconds',
      });
    }
    // Discovery is not counted; another address is not held back.
    expect((await fromAddress('203.0.113.5', '/.well-known/oauth-authorization-server', {})).status).toBe(200);
    expect((await registration('203.0.113.6')).status).toBe(201);
  });
});

describe('the OAuth flow, end to end', () => {
  it('registers, authorizes with PKCE and an API key, issues tokens that work on every route, and refreshes', async () => {
    const { key } = await createKey(['nodes:read', 'workflows:read']);
    const clientId = await register('Claude');
    const page = await consentPage(clientId, (await pkce()).challenge, 'nodes:read workflows:write');
    // The page itself: test/auth/consent.test.ts.
    expect(page.response.status).toBe(200);
    const approved = await call(page.path, form({ handle: page.handle, credential: key, decision: 'approve' }, { cookie: page.cookie }));
    expect(approved.status).toBe(302);
    const location = new URL(approved.headers.get('location')!);
    expect(location.origin + location.pathname).toBe(REDIRECT);
    expect(location.searchParams.get('state')).toBe('state-123');
    expect(location.searchParams.get('iss')).toBe(ORIGIN);
    const code = location.searchParams.get('code')!;

    const wrongVerifier = await token({
      grant_type: 'authorization_code',
      code,
      code_verifier: (await pkce()).verifier,
      redirect_uri: REDIRECT,
      client_id: clientId,
    });
    expect(wrongVerifier).toMatchObject({ status: 400, body: { error: 'invalid_grant' } });
    // A code is good once: the failed attempt spent it.
    const again = await authorize(clientId, key, 'nodes:read workflows:write');
    const issued = await token({
      grant_type: 'authorization_code',
      code: again.code!,
      code_verifier: again.verifier,
      redirect_uri: REDIRECT,
      client_id: clientId,
      resource: `${ORIGIN}/mcp`,
    });
    expect(issued.status).toBe(200);
    // Asked for nodes:read and workflows:write; the key has nodes:read and workflows:read.
    expect(issued.body).toMatchObject({ token_type: 'bearer', scope: 'nodes:read', refresh_token: expect.any(String) });

    const access = bearer(issued.body.access_token);
    const names = await toolNames(access);
    expect(names).toEqual(expect.arrayContaining(['server_info', 'search_nodes']));
    expect(names).not.toContain('list_workflows');

    // The token is good on the legacy transport and the query mode too.
    const sse = await call('/sse', { headers: access });
    expect(sse.status).toBe(200);
    await sse.body!.cancel();
    const query = await call('/mcp/sse?jsonrpc=2.0&method=tools/list&id=1', { headers: access });
    expect(query.status).toBe(200);
    expect(await query.text()).toContain('search_nodes');

    // A session made with the access token goes on with the refreshed one: the same grant.
    const sessionId = await openSession(undefined, access);
    const refreshed = await token({ grant_type: 'refresh_token', refresh_token: issued.body.refresh_token, client_id: clientId });
    expect(refreshed).toMatchObject({ status: 200, body: { access_token: expect.any(String), scope: 'nodes:read' } });
    expect(refreshed.body.access_token).not.toBe(issued.body.access_token);
    const ping = await postJson('/mcp', { jsonrpc: '2.0', id: 9, method: 'ping' }, { ...bearer(refreshed.body.access_token), ...sessionHeaders(sessionId) });
    expect(ping.status).toBe(200);
    // ...while the API key it was approved with is another principal.
    const asKey = await postJson('/mcp', { jsonrpc: '2.0', id: 9, method: 'ping' }, { ...bearer(key), ...sessionHeaders(sessionId) });
    expect(asKey.status).toBe(404);
  });

  it('grants what the key allows when the client asks for no scope, and nothing once the key is revoked', async () => {
    const { key, record } = await createKey(['nodes:read']);
    const tokens = await tokensFor(key);
    expect(tokens.scope).toBe('nodes:read');
    expect((await call('/mcp', { headers: { ...bearer(tokens.access_token), accept: 'text/event-stream' } })).status).toBe(400); // authenticated; no session id
    await revokeKey(record);
    const refused = await postJson('/mcp', { jsonrpc: '2.0', id: 1, method: 'ping' }, bearer(tokens.access_token));
    expect(refused.status).toBe(401);
    expect(refused.headers.get('www-authenticate')).toContain('error="invalid_token"');
  });

  it('takes the operator password, which grants what is asked for, and ends its grants when the password changes', async () => {
    const tokens = await tokensFor(env.OPERATOR_PASSWORD!, 'workflows:read nodes:read');
    expect(tokens.scope.split(' ').sort()).toEqual(['nodes:read', 'workflows:read']);
    expect(await toolNames(bearer(tokens.access_token))).toContain('search_nodes');
    // The same token against a deployment whose operator password has since changed.
    const request = new Request(`${ORIGIN}/mcp`, {
      method: 'POST',
      headers: { ...bearer(tokens.access_token), 'content-type': 'application/json' },
      body: '{}',
    });
    const ctx = createExecutionContext();
    const response = await worker.fetch(request as Parameters<typeof worker.fetch>[0], { ...env, OPERATOR_PASSWORD: 'a new password' }, ctx);
    await waitOnExecutionContext(ctx);
    expect(response.status).toBe(401);
  });

  it('issues no token once the API key behind a grant is revoked or has expired: its refresh and its code are invalid_grant', async () => {
    const refresh = (tokens: Awaited<ReturnType<typeof tokensFor>>) =>
      token({ grant_type: 'refresh_token', refresh_token: tokens.refresh_token, client_id: tokens.clientId });
    const invalidGrant = { status: 400, body: { error: 'invalid_grant', error_description: expect.stringMatching(/^The API key or operator password/) } };

    const revoked = await createKey(['nodes:read']);
    const first = await tokensFor(revoked.key);
    // Positive control: while the key is good, the refresh token refreshes (and rotates).
    const refreshed = await refresh(first);
    expect(refreshed).toMatchObject({ status: 200, body: { access_token: expect.any(String) } });
    await revokeKey(revoked.record);
    expect(await refresh({ ...first, refresh_token: refreshed.body.refresh_token })).toMatchObject(invalidGrant);

    const expiring = await createKey(['nodes:read'], { expiresAt: Date.now() + 3_600_000 });
    const second = await tokensFor(expiring.key);
    await expireKey(expiring.record);
    expect(await refresh(second)).toMatchObject(invalidGrant);

    // A code approved with a key revoked before the client exchanged it.
    const { key, record } = await createKey(['nodes:read']);
    const clientId = await register();
    const { code, verifier } = await authorize(clientId, key);
    await revokeKey(record);
    expect(await token({ grant_type: 'authorization_code', code: code!, code_verifier: verifier, redirect_uri: REDIRECT, client_id: clientId })).toMatchObject(
      invalidGrant,
    );
  });

  it('issues no token once the operator password behind a grant has changed: its refresh is invalid_grant, and the grant ends', async () => {
    const tokens = await tokensFor(env.OPERATOR_PASSWORD!, 'nodes:read');
    const refreshWith = async (operatorPassword: string, refreshToken: string) => {
      const body = new URLSearchParams({ grant_type: 'refresh_token', refresh_token: refreshToken, client_id: tokens.clientId });
      const request = new Request(`${ORIGIN}/oauth/token`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body });
      const ctx = createExecutionContext();
      const response = await worker.fetch(request as Parameters<typeof worker.fetch>[0], { ...env, OPERATOR_PASSWORD: operatorPassword }, ctx);
      await waitOnExecutionContext(ctx);
      return { status: response.status, body: (await response.json()) as Record<string, any> };
    };
    // Positive control: with the password it was approved with, the grant refreshes.
    const refreshed = await refreshWith(env.OPERATOR_PASSWORD!, tokens.refresh_token);
    expect(refreshed.status).toBe(200);
    expect(await refreshWith('a new password', refreshed.body.refresh_token)).toMatchObject({ status: 400, body: { error: 'invalid_grant' } });
    // Refused as invalid_grant, the grant is revoked: the password put back does not bring it back.
    expect(await refreshWith(env.OPERATOR_PASSWORD!, refreshed.body.refresh_token)).toMatchObject({ status: 400, body: { error: 'invalid_grant' } });
    expect((await postJson('/mcp', { jsonrpc: '2.0', id: 1, method: 'ping' }, bearer(refreshed.body.access_token))).status).toBe(401);
  });

  it('takes neither a refresh token nor an authorization code as an access token', async () => {
    const { key } = await createKey(['*']);
    const clientId = await register();
    const { code, verifier } = await authorize(clientId, key);
    const issued = await token({ grant_type: 'authorization_code', code: code!, code_verifier: verifier, redirect_uri: REDIRECT, client_id: clientId });
    for (const credential of [issued.body.refresh_token, code]) {
      expect((await postJson('/mcp', { jsonrpc: '2.0', id: 1, method: 'ping' }, bearer(credential))).status).toBe(401);
    }
  });
});
