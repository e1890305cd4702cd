import { env } from 'cloudflare:workers';
import { createExecutionContext, waitOnExecutionContext } from 'cloudflare:test';
import { describe, expect, inject, it } from 'vitest';
import worker from '../../src/worker';
import type { ApiKeyRecord } from '../../src/auth/apiKeys';
import { authorizationServer } from '../../src/auth/oauth';
import type { Scope } from '../../src/auth/scopes';
import type { Env } from '../../src/env';
import { keyPrincipalId } from '../../src/principal';
import { listConnections } from '../../src/workspaces/connections';
import { createKey, workspaceKey } from '../support/keys';
import { call, callWithEnv, ORIGIN } from '../support/mcp';
import { authorize, consentPage, form, pkce, REDIRECT, register, token } from '../support/oauth';

/** The query of a consent request from a registered client, with `changes` made to it. */
async function authorizePath(changes: Record<string, string> = {}) {
  const query = new URLSearchParams({
    response_type: 'code',
    client_id: await register(),
    redirect_uri: REDIRECT,
    code_challenge: (await pkce()).challenge,
    code_challenge_method: 'S256',
    state: 'state-123',
    resource: `${ORIGIN}/mcp`,
    ...changes,
  });
  return `/authorize?${query}`;
}

/** The scopes of a token issued after consent with `credential` to a client asking for `scope`. */
async function grantedScope(credential: string, scope: string): Promise<string> {
  const clientId = await register();
  const { code, verifier } = await authorize(clientId, credential, scope);
  const issued = await token({ grant_type: 'authorization_code', code: code!, code_verifier: verifier, redirect_uri: REDIRECT, client_id: clientId });
  expect(issued.status).toBe(200);
  return String(issued.body.scope);
}

describe('GET /authorize: the consent page', () => {
  it('names the client, where access goes and what it asks for, and takes a credential in a form that posts back to itself', async () => {
    const page = await consentPage(await register('Claude'), (await pkce()).challenge, 'nodes:read workflows:write');
    expect(page.response.status).toBe(200);
    const main = /<main>([\s\S]*)<\/main>/.exec(page.html)![1]!;
    expect(main).toContain('<h1>Allow Claude to use this MCP server?</h1>');
    // A registered client's name is its own claim; a loopback redirect is an app on this computer.
    expect(main).toContain('This app registered itself: its name is not verified.');
    expect(main).toContain('Access will be sent to <strong>127.0.0.1</strong>.');
    expect(main).toContain('<p class="warn">This sends access to an app on your computer.');
    expect(main).toContain('<ul><li><code>nodes:read</code></li><li><code>workflows:write</code></li></ul>');
    // The form posts to the same path and query (relative: no origin to get wrong), with its handle.
    expect(main).toContain(`<form method="post" action="${page.path.replaceAll('&', '&#38;')}">`);
    expect(main).toContain(`<input type="hidden" name="handle" value="${page.handle}">`);
    expect(main).toContain('<label for="credential">API key (<code>n2f_…</code>) or operator password</label>');
    expect(main).toContain('<input id="credential" name="credential" type="password" autocomplete="current-password" required>');
    expect(main).not.toContain('role="alert"');
  });

  it('runs no script and cannot be framed', async () => {
    const page = await consentPage(await register(), (await pkce()).challenge);
    expect(page.response.headers.get('content-security-policy')).toBe("default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'; base-uri 'none'");
    expect(page.response.headers.get('x-frame-options')).toBe('DENY');
    expect(page.html).not.toMatch(/<script/i);
  });

  it('asks for everything the credential allows when the client names no scope', async () => {
    const page = await consentPage(await register(), (await pkce()).challenge);
    expect(page.html).toContain('<ul><li><code>everything your credential allows</code></li></ul>');
  });

  it('escapes what a client registered about itself', async () => {
    const page = await consentPage(await register('<script>alert(1)</script>'), (await pkce()).challenge);
    expect(page.html).not.toContain('<script>');
    expect(page.html).toContain('&#60;script&#62;');
  });

  it('renders, never redirects, a request whose client is unknown', async () => {
    const page = await consentPage('no-such-client', (await pkce()).challenge);
    expect(page.response.status).toBe(400);
    expect(page.response.headers.get('location')).toBeNull();
    expect(page.html).toContain('Invalid client_id');
  });

  it('renders, never redirects, a redirect URI the client did not register', async () => {
    const response = await call(await authorizePath({ redirect_uri: 'https://evil.example/callback' }), { headers: { authorization: '' }, redirect: 'manual' });
    expect(response.status).toBe(400);
    expect(response.headers.get('location')).toBeNull();
    expect(await response.text()).toContain('<h1>Cannot authorize</h1><p>Invalid redirect URI</p>');
  });

  it('sends an error found once the client and its redirect are known back to the client, with its state', async () => {
    for (const [changes, error] of [
      [{ response_type: 'token' }, 'unsupported_response_type'],
      [{ code_challenge_method: 'plain' }, 'invalid_request'],
    ] as const) {
      const response = await call(await authorizePath(changes), { headers: { authorization: '' }, redirect: 'manual' });
      expect(response.status).toBe(302);
      const location = new URL(response.headers.get('location')!);
      expect(location.origin + location.pathname).toBe(REDIRECT);
      expect([location.searchParams.get('error'), location.searchParams.get('state')]).toEqual([error, 'state-123']);
    }
  });
});

describe('POST /authorize: the decision', () => {
  it('shows the page again for a wrong credential, the error tied to the field, and the same handle still good', async () => {
    const { key } = await createKey(['*']);
    const page = await consentPage(await register('Again'), (await pkce()).challenge, 'nodes:read');
    // An address of its own: the sign-in limit counts per address.
    const browser = { cookie: page.cookie, 'cf-connecting-ip': '198.51.100.30' };
    const wrong = await call(page.path, form({ handle: page.handle, credential: `n2f_${'Z'.repeat(40)}`, decision: 'approve' }, browser));
    expect(wrong.status).toBe(401);
    const html = await wrong.text();
    expect(html).toContain('<h1>Allow Again to use this MCP server?</h1>');
    expect(html).toContain('<li><code>nodes:read</code></li>');
    expect(html).toMatch(/<input id="credential"[^>]* required aria-invalid="true" aria-describedby="error">/);
    expect(html).toContain('<p id="error" class="error" role="alert">That API key or password is not valid.</p>');
    expect(html).toContain(`name="handle" value="${page.handle}"`);
    expect((await call(page.path, form({ handle: page.handle, credential: key, decision: 'approve' }, browser))).status).toBe(302);
  });

  it('drops the scopes asked for that this server does not know, even from a credential with every scope', async () => {
    const { key } = await createKey(['*']);
    expect(await grantedScope(key, 'nodes:read no:such-scope')).toBe('nodes:read');
    expect(await grantedScope(env.OPERATOR_PASSWORD!, 'workflows:read *:write')).toBe('workflows:read');
  });

  it('takes no password at all, not even an empty one, where the operator set none', async () => {
    const { key } = await createKey(['*']);
    for (const [OPERATOR_PASSWORD, address] of [
      [undefined, '198.51.100.31'],
      ['', '198.51.100.32'],
    ]) {
      const page = await consentPage(await register(), (await pkce()).challenge);
      const browser = { cookie: page.cookie, 'cf-connecting-ip': address! };
      const approve = (credential: string) =>
        callWithEnv(page.path, { OPERATOR_PASSWORD }, form({ handle: page.handle, credential, decision: 'approve' }, browser));
      for (const guess of ['', env.OPERATOR_PASSWORD!, 'undefined']) expect((await approve(guess)).status, `${OPERATOR_PASSWORD} ${guess}`).toBe(401);
      // Positive control: an API key still works there.
      expect((await approve(key)).status).toBe(302);
    }
  });

  it('counts the credentials tried on the consent page per address: the eleventh in a minute is refused unchecked', async () => {
    const { key } = await createKey(['*']);
    const page = await consentPage(await register(), (await pkce()).challenge);
    const attempt = (credential: string, address: string) =>
      call(page.path, form({ handle: page.handle, credential, decision: 'approve' }, { cookie: page.cookie, 'cf-connecting-ip': address }));
    for (let i = 0; i < 10; i++) expect((await attempt(`guess ${i}`, '198.51.100.7')).status).toBe(401);
    const limited = await attempt(key, '198.51.100.7');
    expect(limited.status).toBe(429);
    expect(await limited.text()).toContain('Too many attempts from your address');
    // Another address is not held back, and the page's handle is still good.
    expect((await attempt(key, '198.51.100.8')).status).toBe(302);
  });

  it('counts every consent attempt as from one address when the server is not behind Cloudflare, whatever CF-Connecting-IP says', async () => {
    const { key } = await createKey(['*']);
    const page = await consentPage(await register(), (await pkce()).challenge);
    // `npm run dev` sets ALLOWED_HOSTS; under wrangler dev a client sets CF-Connecting-IP as it likes.
    const local = { ALLOWED_HOSTS: 'mcp.example', SIGN_IN_LIMITER: (env as unknown as { TINY_LIMITER: RateLimit }).TINY_LIMITER };
    const attempt = async (credential: string, address: string) => {
      const ctx = createExecutionContext();
      const request = new Request(
        `${ORIGIN}${page.path}`,
        form({ handle: page.handle, credential, decision: 'approve' }, { cookie: page.cookie, 'cf-connecting-ip': address }),
      );
      const response = await worker.fetch(request as Parameters<typeof worker.fetch>[0], { ...env, ...local }, ctx);
      await waitOnExecutionContext(ctx);
      return response.status;
    };
    const statuses = [];
    for (let i = 0; i < 3; i++) statuses.push(await attempt(`guess ${i}`, `198.51.100.${i + 10}`));
    statuses.push(await attempt(key, '198.51.100.99'));
    expect(statuses).toEqual([401, 401, 401, 429]);
  });

  it('redirects a Deny back to the client with access_denied', async () => {
    const clientId = await register();
    const page = await consentPage(clientId, (await pkce()).challenge);
    const denied = await call(page.path, form({ handle: page.handle, decision: 'deny' }, { cookie: page.cookie }));
    expect(denied.status).toBe(302);
    const location = new URL(denied.headers.get('location')!);
    expect([location.searchParams.get('error'), location.searchParams.get('state')]).toEqual(['access_denied', 'state-123']);
  });

  it('answers invalid_scope when the credential has none of the scopes asked for', async () => {
    const { key } = await createKey(['nodes:read'] as Scope[]);
    const { location } = await authorize(await register(), key, 'workflows:write');
    expect(location.searchParams.get('error')).toBe('invalid_scope');
    expect(location.searchParams.get('code')).toBeNull();
  });

  it('refuses a consent form without the browser cookie that the page set', async () => {
    const { key } = await createKey(['*']);
    const page = await consentPage(await register(), (await pkce()).challenge);
    const forged = await call(page.path, form({ handle: page.handle, credential: key, decision: 'approve' }));
    expect(forged.status).toBe(400);
  });

  it('answers a consent POST that is not a form with a 400 page (found by the fuzzer)', async () => {
    const response = await call('/authorize', { method: 'POST', headers: { authorization: '', 'content-type': 'application/json' }, body: '{}' });
    expect(response.status).toBe(400);
    expect(await response.text()).toContain('The form could not be read');
  });
});

/**
 * Consent on a server answering on loopback (as under `npm run dev`), so that the contract fake of n8n,
 * on loopback over http, is an n8n it may call; workspaces on. Every consent there comes from one
 * address (`local`), so the sign-in limit is off for these: its own tests are above.
 */
const n8nUrl = inject('n8nUrl');
const n8nKey = inject('n8nKey');
const LOCAL = 'http://localhost:8787';
const WORKSPACES: Partial<Env> = { CONNECTION_KEYS: `k1:${btoa(String.fromCharCode(...crypto.getRandomValues(new Uint8Array(32))))}`, RATE_LIMITS: 'off' };

async function local(path: string, init: RequestInit, overrides: Partial<Env> = WORKSPACES): Promise<Response> {
  const ctx = createExecutionContext();
  const response = await worker.fetch(new Request(`${LOCAL}${path}`, init) as Parameters<typeof worker.fetch>[0], { ...env, ...overrides }, ctx);
  await waitOnExecutionContext(ctx);
  return response;
}

/** The consent page as a browser opens it on the loopback server, and its Allow button with `fields` filled in. */
async function localConsent(overrides: Partial<Env> = WORKSPACES) {
  const clientId = await register();
  const { verifier, challenge } = await pkce();
  const { html, handle, cookie, path } = await consentPage(clientId, challenge, undefined, { origin: LOCAL, fetch: (at, init) => local(at, init, overrides) });
  const approve = (fields: Record<string, string>) => local(path, form({ handle, decision: 'approve', ...fields }, { cookie }), overrides);
  return { clientId, verifier, html, approve };
}

const grantsOf = async (record: ApiKeyRecord) =>
  (
    await authorizationServer(LOCAL)
      .getOAuthApi(env as Env)
      .listUserGrants(keyPrincipalId(record.id))
  ).items;

describe('POST /authorize: connecting a workspace’s n8n while granting', () => {
  it('offers the n8n fields where workspaces are on, the n8n key in a password field, still without a script', async () => {
    const { html } = await localConsent();
    expect(html).toContain('<legend>Connect your n8n (optional)</legend>');
    expect(html).toContain('<input id="n8n_name" name="n8n_name" type="text" value="main"');
    expect(html).toMatch(/<label for="n8n_url">n8n URL<\/label>\s*<input id="n8n_url" name="n8n_url" type="url" value=""/);
    expect(html).toContain('<input id="n8n_key" name="n8n_key" type="password" autocomplete="off" spellcheck="false">');
    expect(html).not.toMatch(/<script/i);
    expect((await localConsent({ RATE_LIMITS: 'off' })).html).not.toContain('n8n_url');
  });

  it('saves the connection, then completes the grant, whose token acts in the workspace and sees it', async () => {
    const { key, record, workspace } = await workspaceKey(['*'], 'Acme');
    const consent = await localConsent();
    const approved = await consent.approve({ credential: key, n8n_name: 'main', n8n_url: `${n8nUrl}/n8n-1.123.81`, n8n_key: n8nKey });
    expect(approved.status).toBe(302);
    const location = new URL(approved.headers.get('location')!);
    expect(location.href).not.toContain(n8nKey);
    expect(await listConnections(env.API_KEYS, workspace)).toEqual([
      expect.objectContaining({ name: 'main', base: `${n8nUrl}/n8n-1.123.81`, release: '1.123.81' }),
    ]);
    const issued = await local('/oauth/token', {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        grant_type: 'authorization_code',
        code: location.searchParams.get('code')!,
        code_verifier: consent.verifier,
        redirect_uri: REDIRECT,
        client_id: consent.clientId,
        resource: `${LOCAL}/mcp`,
      }).toString(),
    });
    expect(issued.status).toBe(200);
    const { access_token } = (await issued.json()) as { access_token: string };
    const listed = await local('/api/instances', { headers: { authorization: `Bearer ${access_token}` } });
    expect(await listed.json()).toMatchObject({ workspace: 'Acme', instances: [{ name: 'main', url: `${n8nUrl}/n8n-1.123.81`, default: true }] });
    expect(await grantsOf(record)).toHaveLength(1);
  });

  it('shows the page again with the problem for an n8n that fails its URL check or its test, granting and storing nothing, the n8n key not in it', async () => {
    const { key, record, workspace } = await workspaceKey();
    const consent = await localConsent();
    for (const [url, n8nApiKey, problem] of [
      ['https://10.0.0.1', n8nKey, 'ALLOW_PRIVATE_N8N=true'],
      [n8nUrl, 'n8n_api_wrong_key', 'refused the API key'],
    ]) {
      const refused = await consent.approve({ credential: key, n8n_name: 'main', n8n_url: url!, n8n_key: n8nApiKey! });
      expect(refused.status, url).toBe(422);
      expect(refused.headers.get('location'), url).toBeNull();
      const html = await refused.text();
      expect(html).toMatch(new RegExp(`<p id="error" class="error" role="alert">Your n8n was not connected: [^<]*${problem}`));
      // What was typed is kept, the URL field tied to the error; the n8n key is not.
      expect(html).toContain(`name="n8n_url" type="url" value="${url}"`);
      expect(html).toMatch(/id="n8n_url"[^>]* aria-invalid="true" aria-describedby="error">/);
      expect(html).not.toContain(n8nApiKey);
    }
    expect(await listConnections(env.API_KEYS, workspace)).toEqual([]);
    expect(await grantsOf(record)).toEqual([]);
    // The page's handle is still good.
    expect((await consent.approve({ credential: key, n8n_url: n8nUrl, n8n_key: n8nKey })).status).toBe(302);
  });

  it('connects no n8n for a credential without a workspace: the operator password, or a key of the deployment’s own n8n', async () => {
    const { key } = await createKey(['*']);
    for (const credential of [env.OPERATOR_PASSWORD!, key]) {
      const refused = await (await localConsent()).approve({ credential, n8n_url: n8nUrl, n8n_key: n8nKey });
      expect(refused.status).toBe(400);
      const html = await refused.text();
      expect(html).toMatch(/role="alert">(The operator password|This API key) belongs to no workspace/);
      expect(html).not.toContain(n8nKey);
    }
    // Without the n8n fields, both are approved as before.
    expect((await (await localConsent()).approve({ credential: key })).status).toBe(302);
  });

  it('needs a workspace key with instances:write to connect an n8n', async () => {
    const { key, record, workspace } = await workspaceKey(['workflows:read', 'workflows:write']);
    const refused = await (await localConsent()).approve({ credential: key, n8n_url: n8nUrl, n8n_key: n8nKey });
    expect(refused.status).toBe(403);
    expect(await refused.text()).toContain('lacks the instances:write scope');
    expect(await listConnections(env.API_KEYS, workspace)).toEqual([]);
    expect(await grantsOf(record)).toEqual([]);
  });

  it('approves a workspace key without an n8n as before (one can be added later), and asks for the URL given only a key', async () => {
    const { key, workspace } = await workspaceKey();
    const consent = await localConsent();
    const keyOnly = await consent.approve({ credential: key, n8n_key: n8nKey });
    expect(keyOnly.status).toBe(400);
    expect(await keyOnly.text()).toContain('Give your n8n’s URL with its API key');
    expect((await consent.approve({ credential: key, n8n_name: 'main' })).status).toBe(302);
    expect(await listConnections(env.API_KEYS, workspace)).toEqual([]);
  });
});
