import { createExecutionContext, waitOnExecutionContext } from 'cloudflare:test';
import { env } from 'cloudflare:workers';
import { afterEach, describe, expect, inject, it, vi } from 'vitest';
import { allows, scopesOf } from '../../src/auth/scopes';
import type { Env } from '../../src/env';
import { toolsFor } from '../../src/server/registry';
import worker from '../../src/worker';
import { connectionKvName, listConnections } from '../../src/workspaces/connections';
import { elements } from '../support/html';
import { createKey, workspaceKey } from '../support/keys';

/** The contract fake of n8n, on loopback over http: taken from a server that itself answers on loopback, as under `npm run dev`. */
const n8nUrl = inject('n8nUrl');
const n8nKey = inject('n8nKey');
const LOCAL = 'http://localhost:8787';
const DEPLOYED = 'https://mcp.example';
const CONNECTION_KEYS = `k1:${btoa(String.fromCharCode(...crypto.getRandomValues(new Uint8Array(32))))}`;
const ON: Partial<Env> = { CONNECTION_KEYS };
const N8N = { N8N_API_URL: 'https://n8n.internal.example', N8N_API_KEY: 'n8n-secret-api-key' };

interface Call {
  method?: string;
  key?: string;
  body?: unknown;
  overrides?: Partial<Env>;
  origin?: string;
  headers?: Record<string, string>;
}

/** The Worker with workspaces on (unless `overrides` say otherwise), as a browser on the landing page calls it. */
async function api(path: string, { method = 'GET', key, body, overrides = ON, origin = LOCAL, headers = {} }: Call = {}) {
  const init: RequestInit = {
    method,
    headers: {
      ...(key ? { authorization: `Bearer ${key}` } : {}),
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      ...headers,
    },
    ...(body === undefined ? {} : { body: typeof body === 'string' ? body : JSON.stringify(body) }),
  };
  const ctx = createExecutionContext();
  const response = await worker.fetch(new Request(`${origin}${path}`, init) as Parameters<typeof worker.fetch>[0], { ...env, ...overrides }, ctx);
  await waitOnExecutionContext(ctx);
  const text = await response.text();
  return { status: response.status, headers: response.headers, text, body: (text ? JSON.parse(text) : null) as any };
}

const add = (key: string, given: { name?: string; url?: string; apiKey?: string }, call: Call = {}) =>
  api('/api/instances', { method: 'POST', key, body: { name: 'prod', url: n8nUrl, apiKey: n8nKey, ...given }, ...call });

afterEach(() => {
  vi.restoreAllMocks();
});

describe('GET /api/instances', () => {
  it('lists a connection once added, with its address, release and whether it is the default, never its key', async () => {
    const { key, workspace } = await workspaceKey(['*'], 'Acme');
    expect((await api('/api/instances', { key })).body).toMatchObject({ workspace: 'Acme', workspaces: true, canManage: true, instances: [] });
    const saved = await add(key, { url: `${n8nUrl}/n8n-1.123.81/api/v1` });
    expect(saved.status).toBe(200);
    const prod = { name: 'prod', url: `${n8nUrl}/n8n-1.123.81`, release: '1.123.81', testedAt: expect.any(String), default: true, configured: true };
    expect(saved.body).toEqual({ saved: prod });
    // A second one: neither is the default any more (the workspace names none), as list_instances says.
    expect((await add(key, { name: 'dev' })).body.saved).toMatchObject({ name: 'dev', default: false });
    const listed = await api('/api/instances', { key });
    expect(listed.status).toBe(200);
    expect(listed.headers.get('cache-control')).toBe('private, no-store');
    expect(listed.body.instances).toEqual([
      { name: 'dev', url: n8nUrl, release: null, testedAt: expect.any(String), default: false, configured: true },
      { ...prod, default: false },
    ]);
    for (const answer of [saved.text, listed.text]) {
      expect(answer).not.toContain(n8nKey);
      expect(answer).not.toContain('sealedKey');
    }
    expect(await env.API_KEYS.get(connectionKvName(workspace, 'prod'))).not.toContain(n8nKey);
  });

  it('names the tools live for the credential: those of this deployment its scopes allow', async () => {
    const { key } = await workspaceKey(['nodes:read', 'workflows:read']);
    const { body } = await api('/api/instances', { key });
    const expected = toolsFor({ ...env, ...ON } as Env).filter((tool) => scopesOf(tool).every((scope) => allows(['nodes:read', 'workflows:read'], scope)));
    expect(body.tools).toEqual(expected.map((tool) => tool.name));
    expect(body.tools).toEqual(expect.arrayContaining(['search_nodes', 'list_instances', 'list_workflows']));
    expect(body.tools).not.toContain('create_workflow');
    expect(body.canManage).toBe(false);
  });

  it('shows a caller without a workspace the deployment’s own n8n, configured or not, with nothing to manage', async () => {
    const { key } = await createKey(['*']);
    const deployment = { name: 'default', release: null, testedAt: null, default: true };
    expect((await api('/api/instances', { key, overrides: N8N })).body).toMatchObject({
      workspace: null,
      workspaces: false,
      canManage: false,
      instances: [{ ...deployment, url: 'https://n8n.internal.example', configured: true }],
    });
    expect((await api('/api/instances', { key, overrides: { ...N8N, ...ON } })).text).not.toContain(N8N.N8N_API_KEY);
    expect((await api('/api/instances', { key, overrides: {} })).body.instances).toEqual([{ ...deployment, url: null, configured: false }]);
  });

  it('needs a credential, even where the catalog is public', async () => {
    for (const overrides of [ON, { ...ON, PUBLIC_CATALOG: 'true' }]) {
      const response = await api('/api/instances', { overrides });
      expect(response.status).toBe(401);
      expect(response.headers.get('www-authenticate')).toMatch(/^Bearer realm="n8n-mcp"/);
    }
  });
});

describe('POST /api/instances', () => {
  it('refuses a connection whose test fails with 422 naming the fix, and stores nothing', async () => {
    const { key, workspace } = await workspaceKey();
    const wrong = await add(key, { apiKey: 'n8n_api_wrong_key' });
    expect(wrong.status).toBe(422);
    expect(wrong.body).toEqual({ jsonrpc: '2.0', id: null, error: { code: -32602, message: expect.stringContaining('refused the API key') } });
    expect(wrong.text).not.toContain('n8n_api_wrong_key');
    expect((await add(key, { url: 'https://10.0.0.1' })).body.error.message).toContain('ALLOW_PRIVATE_N8N');
    expect((await add(key, { name: 'Prod!' })).body.error.message).toContain('is not a connection name');
    // Deployed (not on loopback), an http n8n would carry the key in clear.
    expect((await add(key, {}, { origin: DEPLOYED })).body.error.message).toContain('must use https');
    expect(await listConnections(env.API_KEYS, workspace)).toEqual([]);
  });

  it('needs the instances:write scope: 403 insufficient_scope, for adding, testing and removing alike', async () => {
    const { key, workspace } = await workspaceKey(['workflows:read', 'workflows:write']);
    for (const [method, path] of [
      ['POST', '/api/instances'],
      ['POST', '/api/instances/test'],
      ['DELETE', '/api/instances/prod'],
    ] as const) {
      const response = await api(path, { method, key, body: { name: 'prod', url: n8nUrl, apiKey: n8nKey } });
      expect(response.status, path).toBe(403);
      expect(response.headers.get('www-authenticate'), path).toMatch(/error="insufficient_scope", scope="instances:write"$/);
      expect(response.body.error.message).toBe('Forbidden: this credential lacks the instances:write scope');
    }
    expect(await listConnections(env.API_KEYS, workspace)).toEqual([]);
  });

  it('refuses a caller without a workspace: the deployment’s own n8n is the operator’s', async () => {
    const { key } = await createKey(['*']);
    const response = await add(key, {});
    expect(response.status).toBe(403);
    expect(response.body.error.message).toMatch(/belongs to no workspace.*N8N_API_URL and N8N_API_KEY secrets/);
  });

  it('says workspaces are off, and how the operator turns them on, where CONNECTION_KEYS is unset', async () => {
    const { key } = await workspaceKey();
    for (const [method, path] of [
      ['POST', '/api/instances'],
      ['POST', '/api/instances/test'],
      ['DELETE', '/api/instances/prod'],
    ] as const) {
      const response = await api(path, { method, key, body: { name: 'prod', url: n8nUrl, apiKey: n8nKey }, overrides: {} });
      expect(response.status, path).toBe(409);
      expect(response.body.error.message, path).toMatch(/Workspaces are off.*CONNECTION_KEYS secret \(npm run keys -- secret\)/);
    }
    expect((await api('/api/instances', { key, overrides: {} })).body).toMatchObject({ workspaces: false, canManage: false });
  });

  it('bounds and checks the body, naming the fields and never what was in them', async () => {
    const { key } = await workspaceKey();
    expect((await add(key, { apiKey: 'x'.repeat(9000) })).status).toBe(413);
    expect((await api('/api/instances', { method: 'POST', key, body: 'name=prod', headers: { 'content-type': 'text/plain' } })).status).toBe(415);
    expect((await api('/api/instances', { method: 'POST', key, body: '{"name":' })).status).toBe(400);
    const missing = await api('/api/instances', { method: 'POST', key, body: { name: 'prod', apiKey: 'n8n_api_given_key', url: 42 } });
    expect(missing.status).toBe(400);
    expect(missing.body.error.message).toBe('Give name, url and apiKey as strings (wrong or missing: url)');
    expect(missing.text).not.toContain('n8n_api_given_key');
  });

  it('counts tests and saves per credential like sign-in attempts: the fourth in a minute of a tiny limit is refused', async () => {
    const limited = { ...ON, SIGN_IN_LIMITER: (env as unknown as { TINY_LIMITER: RateLimit }).TINY_LIMITER };
    const [{ key }, other] = [await workspaceKey(), await workspaceKey()];
    const attempt = (k: string) =>
      api('/api/instances/test', { method: 'POST', key: k, body: { url: 'https://10.0.0.1', apiKey: n8nKey }, overrides: limited });
    for (let i = 0; i < 3; i++) expect((await attempt(key)).status).toBe(422);
    const over = await attempt(key);
    expect(over.status).toBe(429);
    expect(over.headers.get('retry-after')).toBe('60');
    expect((await attempt(other.key)).status).toBe(422);
  });

  it('puts the n8n key in no log line, whether the test passes or fails', async () => {
    const lines: string[] = [];
    for (const method of ['log', 'info', 'warn', 'error'] as const)
      vi.spyOn(console, method).mockImplementation((...args: unknown[]) => void lines.push(args.join(' ')));
    const { key } = await workspaceKey();
    expect((await add(key, {})).status).toBe(200);
    expect((await add(key, { apiKey: `${n8nKey}-wrong` })).status).toBe(422);
    expect((await api('/api/instances/test', { method: 'POST', key, body: { url: n8nUrl, apiKey: n8nKey } })).status).toBe(200);
    expect(lines.length).toBeGreaterThan(0);
    for (const line of lines) expect(line).not.toContain(n8nKey);
  });
});

describe('POST /api/instances/test', () => {
  it('runs the test a save runs and stores nothing', async () => {
    const { key, workspace } = await workspaceKey();
    const passed = await api('/api/instances/test', { method: 'POST', key, body: { url: `${n8nUrl}/n8n-1.123.81`, apiKey: n8nKey } });
    expect(passed).toMatchObject({ status: 200, body: { ok: true, url: `${n8nUrl}/n8n-1.123.81`, release: '1.123.81' } });
    expect(passed.text).not.toContain(n8nKey);
    const failed = await api('/api/instances/test', { method: 'POST', key, body: { url: n8nUrl, apiKey: 'n8n_api_wrong_key' } });
    expect(failed.status).toBe(422);
    expect(failed.body.error.message).toContain('refused the API key');
    expect((await api('/api/instances/test', { method: 'POST', key, body: { url: n8nUrl, apiKey: ' ' } })).body.error.message).toContain(
      'no n8n API key given',
    );
    expect(await listConnections(env.API_KEYS, workspace)).toEqual([]);
  });
});

describe('DELETE /api/instances/<name>', () => {
  it('removes one of the caller’s workspace’s connections, and no other workspace’s key sees or removes it', async () => {
    const mine = await workspaceKey();
    const theirs = await workspaceKey();
    expect((await add(mine.key, {})).status).toBe(200);
    expect((await api('/api/instances', { key: theirs.key })).body.instances).toEqual([]);
    const refused = await api('/api/instances/prod', { method: 'DELETE', key: theirs.key });
    expect(refused.status).toBe(404);
    expect(refused.body.error.message).toBe('This workspace has no n8n connection "prod"');
    expect((await api('/api/instances', { key: mine.key })).body.instances.map((i: { name: string }) => i.name)).toEqual(['prod']);
    expect(await api('/api/instances/prod', { method: 'DELETE', key: mine.key })).toMatchObject({ status: 200, body: { removed: 'prod' } });
    expect((await api('/api/instances', { key: mine.key })).body.instances).toEqual([]);
    expect((await api('/api/instances/prod', { method: 'DELETE', key: mine.key })).status).toBe(404);
  });

  it('refuses a name that is not a connection name', async () => {
    const { key } = await workspaceKey();
    const response = await api('/api/instances/Prod', { method: 'DELETE', key });
    expect(response.status).toBe(400);
    expect(response.body.error.message).toContain('is not a connection name');
  });
});

describe('the landing page with workspaces on', () => {
  it('offers the form, its n8n key a password field, and never holds the key', async () => {
    const { key } = await workspaceKey();
    await add(key, {});
    const response = await worker.fetch(
      new Request(`${LOCAL}/`, { headers: { accept: 'text/html', authorization: `Bearer ${key}` } }) as Parameters<typeof worker.fetch>[0],
      { ...env, ...ON },
      createExecutionContext(),
    );
    const page = await response.text();
    expect(page).not.toContain(n8nKey);
    expect((await elements(page, '#n8n-form input')).map((i) => [i.attrs.id, i.attrs.type ?? 'text'])).toEqual([
      ['n8n-name', 'text'],
      ['n8n-url', 'url'],
      ['n8n-key', 'password'],
    ]);
  });
});
