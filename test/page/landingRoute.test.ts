import { env } from 'cloudflare:workers';
import { beforeAll, describe, expect, it } from 'vitest';
import { scopesOf } from '../../src/auth/scopes';
import { SERVER_TITLE, SERVER_VERSION } from '../../src/config';
import { connectGuides } from '../../src/page/connect';
import { toolsFor } from '../../src/server/registry';
import { loadCatalog } from '../support/catalog';
import { elements } from '../support/html';
import { createKey } from '../support/keys';
import { call, callWithEnv, openSession, ORIGIN, sessionHeaders } from '../support/mcp';

/** What a browser sends when it opens a URL. */
const BROWSER = { accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8', authorization: '' };
const N8N = { N8N_API_URL: 'https://n8n.internal.example', N8N_API_KEY: 'n8n-secret-api-key' };

let build: Awaited<ReturnType<typeof loadCatalog>>;
beforeAll(async () => {
  build = await loadCatalog();
});

describe('GET /', () => {
  it('is an HTML page for anyone, locked down by its CSP', async () => {
    const response = await call('/', { headers: BROWSER });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8');
    const csp = response.headers.get('content-security-policy')!;
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("connect-src 'self'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).not.toContain('unsafe-inline');
    const scripts = await elements(response, 'script');
    expect(scripts.map((s) => s.attrs.src)).toEqual(['/assets/page.js']);
  });

  it('says what the server is: version, catalog version and size, transports, whether n8n is configured', async () => {
    const facts = (await elements(await call('/', { headers: BROWSER }), '.facts dd')).map((d) => d.text);
    expect(await (await call('/', { headers: BROWSER })).text()).toContain(`<h1>${SERVER_TITLE}</h1>`);
    expect(facts[0]).toBe(`${ORIGIN}/mcp Copy the MCP endpoint`);
    expect(facts[1]).toBe(SERVER_VERSION);
    expect(facts[2]).toBe(`${build.manifest.specs} node specifications (seed) · version ${build.manifest.version}`);
    expect(facts[3]).toBe('streamable-http (/mcp)sse (/sse, /mcp/sse)sse-query (/mcp/sse?method=…)');
    expect(facts[4]).toMatch(/^not configured/);
    const configured = (await elements(await callWithEnv('/', N8N, { headers: BROWSER }), '.facts dd')).map((d) => d.text);
    expect(configured[4]).toBe('configured');
  });

  it('offers node types with their sizes for the explorer filter', async () => {
    const options = await elements(await call('/', { headers: BROWSER }), '#node-type option');
    const types = await env.SPECS.get(`catalog:${build.manifest.version}:types`, 'json');
    expect(options[0]!.attrs.value).toBe('');
    expect(options.slice(1).map((o) => [o.attrs.value, o.text])).toEqual(
      Object.entries(types as Record<string, string[]>).map(([type, subtypes]) => [type, `${type} (${subtypes.length})`]),
    );
  });

  it('shows each connect snippet filled in with this server’s URL', async () => {
    const shown = (await elements(await call('/', { headers: BROWSER }), '.snippet pre')).map((p) => p.text);
    // What the snippets say: test/page/connect.test.ts; how they are shown: test/page/landingHtml.test.ts.
    expect(shown).toEqual(connectGuides(ORIGIN).flatMap((g) => g.snippets.map((s) => s.text)));
  });

  it('lists every tool of this deployment with its scope, annotations and parameters', async () => {
    for (const overrides of [{}, N8N]) {
      const tools = toolsFor({ ...env, ...overrides });
      const details = await elements(await callWithEnv('/', overrides, { headers: BROWSER }), 'details[data-tool]');
      expect(details.map((d) => [d.attrs['data-tool'], d.attrs['data-scope']])).toEqual(tools.map((t) => [t.name, scopesOf(t).join(' ')]));
    }
    // Each tool's details: test/page/toolView.test.ts and test/page/landingHtml.test.ts.
  });

  it('answers HEAD like GET without a body, and other methods 405', async () => {
    const head = await call('/', { method: 'HEAD', headers: BROWSER });
    expect(head.status).toBe(200);
    expect(head.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(await head.text()).toBe('');
    const post = await call('/', { method: 'POST', headers: BROWSER, body: 'x' });
    expect(post.status).toBe(405);
    expect(post.headers.get('allow')).toBe('GET, HEAD');
  });

  it('shows nothing secret: no API key, no n8n URL or key, no operator password', async () => {
    const { key } = await createKey(['*']);
    const text = await (await callWithEnv('/', N8N, { headers: { ...BROWSER, authorization: `Bearer ${key}` } })).text();
    for (const secret of [key, N8N.N8N_API_URL, 'n8n.internal.example', N8N.N8N_API_KEY, env.OPERATOR_PASSWORD!]) {
      expect(text).not.toContain(secret);
    }
    expect(text).not.toMatch(/n2f_[0-9A-Za-z]{40}/);
  });
});

describe('the MCP URLs opened in a browser', () => {
  it('show the landing page on GET /mcp, /sse and /mcp/sse when HTML is asked for', async () => {
    for (const path of ['/mcp', '/sse', '/mcp/sse']) {
      const response = await call(path, { headers: BROWSER });
      expect(response.status, path).toBe(200);
      expect(response.headers.get('content-type'), path).toBe('text/html; charset=utf-8');
      expect(await response.text(), path).toContain('id="connect"');
    }
  });

  it('keep their protocol behaviour for everything else', async () => {
    const streams = { accept: 'text/event-stream', authorization: '' };
    for (const path of ['/mcp', '/sse', '/mcp/sse']) {
      expect((await call(path, { headers: streams })).status, path).toBe(401);
      expect((await call(path, { headers: { accept: '*/*', authorization: '' } })).status, path).toBe(401);
      // A client that accepts both (some do on GET) wants the stream.
      expect((await call(path, { headers: { accept: 'text/html, text/event-stream', authorization: '' } })).status, path).toBe(401);
    }
    // With a credential, a stream is a stream.
    const sessionId = await openSession();
    const stream = await call('/mcp', { headers: { accept: 'text/event-stream', ...sessionHeaders(sessionId) } });
    expect(stream.status).toBe(200);
    expect(stream.headers.get('content-type')).toBe('text/event-stream');
    await stream.body!.cancel();
    const post = await call('/mcp', { method: 'POST', headers: BROWSER, body: '{}' });
    expect(post.status).toBe(401);
    expect(post.headers.get('content-type')).toBe('application/json');
  });
});
