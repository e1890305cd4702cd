import { env } from 'cloudflare:workers';
import { beforeAll, describe, expect, it } from 'vitest';
import { publicReader } from '../../src/auth/publicCatalog';
import type { Env } from '../../src/env';
import { loadCatalog } from '../support/catalog';
import { bearer, createKey } from '../support/keys';
import { callWithEnv } from '../support/mcp';

const PUBLIC = { PUBLIC_CATALOG: 'true' };
const json = async (response: Response) => ({ status: response.status, body: (await response.json()) as any });

beforeAll(async () => {
  await loadCatalog();
});

/** publicReader of a request with `headers`, under the test configuration with `vars` changed. */
const readerOf = (vars: Partial<Env>, headers: Record<string, string> = {}) =>
  publicReader(new Request('https://mcp.example/api/catalog/search?q=email', { headers }), { ...env, ...vars });

describe('publicReader', () => {
  it('is a nodes:read reader named by its address when the catalog is public and no credential was sent', () => {
    expect(readerOf(PUBLIC, { 'cf-connecting-ip': '192.0.2.7' })).toEqual({ id: 'public', subject: 'ip_192.0.2.7', scopes: ['nodes:read'] });
    // Each address is its own subject: the per-subject rate limits count visitors apart.
    expect(readerOf(PUBLIC, { 'cf-connecting-ip': '192.0.2.8' })?.subject).toBe('ip_192.0.2.8');
  });

  it('is nobody unless PUBLIC_CATALOG is exactly true', () => {
    for (const PUBLIC_CATALOG of [undefined, '', 'false', '1', 'TRUE', 'yes']) expect(readerOf({ PUBLIC_CATALOG }), String(PUBLIC_CATALOG)).toBeNull();
  });

  it('is nobody when a credential was sent, of any kind, so it is checked as usual', () => {
    for (const authorization of [`Bearer n2f_${'A'.repeat(40)}`, 'Basic dXNlcjpwYXNz', '']) {
      expect(readerOf(PUBLIC, { authorization }), authorization).toBeNull();
    }
  });

  it('leaves a deployment that serves everyone (ALLOW_ANONYMOUS) serving everyone', async () => {
    expect(readerOf({ ...PUBLIC, ALLOW_ANONYMOUS: 'true' })).toBeNull();
    const me = await callWithEnv('/api/me', { ...PUBLIC, ALLOW_ANONYMOUS: 'true' });
    expect((await json(me)).body.scopes).toEqual(['*']);
  });
});

describe('a public catalog, through the Worker', () => {
  it('answers anyone with nodes:read only when PUBLIC_CATALOG is true', async () => {
    const me = await callWithEnv('/api/me', PUBLIC);
    expect(me.headers.get('cache-control')).toBe('private, no-store');
    expect(await json(me)).toEqual({ status: 200, body: { credential: 'none (public catalog)', scopes: ['nodes:read'] } });
    expect((await callWithEnv('/api/catalog/search?q=email', PUBLIC)).status).toBe(200);
    // The MCP routes are not opened by it.
    expect((await callWithEnv('/mcp', PUBLIC, { headers: { accept: 'text/event-stream' } })).status).toBe(401);
  });

  it('still checks a credential that is sent, public catalog or not', async () => {
    const bad = { headers: { authorization: `Bearer n2f_${'A'.repeat(40)}` } };
    expect((await callWithEnv('/api/catalog/search?q=email', PUBLIC, bad)).status).toBe(401);
    const { key } = await createKey(['workflows:read']);
    expect(await json(await callWithEnv('/api/me', PUBLIC, { headers: bearer(key) }))).toEqual({
      status: 200,
      body: { credential: 'API key', scopes: ['workflows:read'] },
    });
  });
});
