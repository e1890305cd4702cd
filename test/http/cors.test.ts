import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { allowedOrigin } from '../../src/http/cors';
import { HttpError } from '../../src/protocol/httpError';
import { loadCatalog } from '../support/catalog';
import { call, initializeRequest, ORIGIN, postJson } from '../support/mcp';

const request = (url: string, origin?: string) => new Request(url, { headers: origin ? { origin } : {} });

describe('Origin rules', () => {
  const configured = { ...env, ALLOWED_ORIGINS: 'https://claude.ai, https://app.n8n.cloud' };

  it('lets requests without an Origin through (CLI clients, n8n, mcp-remote)', () => {
    expect(allowedOrigin(request('https://mcp.example/mcp'), configured)).toBeNull();
  });

  it('allows the server’s own origin and the configured list', () => {
    expect(allowedOrigin(request('https://mcp.example/mcp', 'https://mcp.example'), configured)).toBe('https://mcp.example');
    expect(allowedOrigin(request('https://mcp.example/mcp', 'https://claude.ai'), configured)).toBe('https://claude.ai');
    expect(allowedOrigin(request('https://mcp.example/mcp', 'https://app.n8n.cloud'), configured)).toBe('https://app.n8n.cloud');
  });

  it('refuses other origins, including localhost when the server is not local (DNS rebinding)', () => {
    for (const origin of ['https://evil.example', 'http://localhost:6274', 'null', 'https://claude.ai.evil.example']) {
      expect(() => allowedOrigin(request('https://mcp.example/mcp', origin), configured)).toThrow(HttpError);
    }
  });

  it('allows localhost origins when the server itself runs on localhost (dev)', () => {
    expect(allowedOrigin(request('http://localhost:8787/mcp', 'http://localhost:6274'), env)).toBe('http://localhost:6274');
    expect(allowedOrigin(request('http://127.0.0.1:8787/mcp', 'http://127.0.0.1:5173'), env)).toBe('http://127.0.0.1:5173');
    expect(() => allowedOrigin(request('http://localhost:8787/mcp', 'https://evil.example'), env)).toThrow(HttpError);
  });
});

/** Every request header the MCP SDK's 2.x client sets itself (its Streamable HTTP transport). */
const CLIENT_HEADERS = ['content-type', 'accept', 'authorization', 'dpop', 'mcp-session-id', 'mcp-protocol-version', 'mcp-method', 'mcp-name', 'last-event-id'];

const listed = (response: Response, header: string) => (response.headers.get(header) ?? '').split(',').map((name) => name.trim().toLowerCase());

describe('CORS on the wire', () => {
  it('answers preflight on every route with every header the 2.x client sends allowed, by name', async () => {
    for (const path of ['/mcp', '/sse', '/messages', '/mcp/sse', '/health']) {
      const response = await call(path, {
        method: 'OPTIONS',
        headers: { origin: 'https://mcp.example', 'access-control-request-method': 'POST', 'access-control-request-headers': CLIENT_HEADERS.join(',') },
      });
      expect(response.status, path).toBe(204);
      expect(response.headers.get('access-control-allow-origin'), path).toBe('https://mcp.example');
      expect(listed(response, 'access-control-allow-headers'), path).toEqual(expect.arrayContaining(CLIENT_HEADERS));
    }
  });

  it('allows the headers whose names vary (a tool’s Mcp-Param-*, the caller’s own) with the wildcard, which never covers Authorization', async () => {
    const response = await call('/mcp', {
      method: 'OPTIONS',
      headers: { origin: 'https://mcp.example', 'access-control-request-method': 'POST', 'access-control-request-headers': 'mcp-param-region,x-trace-id' },
    });
    expect(listed(response, 'access-control-allow-headers')).toContain('*');
    // A browser matches Authorization only by name (Fetch: "CORS non-wildcard request-header name").
    expect(listed(response, 'access-control-allow-headers')).toContain('authorization');
  });

  it('refuses a preflight and a request from a bad Origin with 403', async () => {
    const preflight = await call('/mcp', { method: 'OPTIONS', headers: { origin: 'https://evil.example' } });
    expect(preflight.status).toBe(403);
    expect(preflight.headers.get('access-control-allow-headers')).toBeNull();
    const post = await postJson('/mcp', initializeRequest(), { origin: 'https://evil.example' });
    expect(post.status).toBe(403);
    expect(post.headers.get('mcp-session-id')).toBeNull();
  });

  it('exposes the response headers the 2.x client reads (Mcp-Session-Id, WWW-Authenticate) on real responses', async () => {
    const response = await postJson('/mcp', initializeRequest(), { origin: 'https://mcp.example' });
    expect(response.headers.get('access-control-allow-origin')).toBe('https://mcp.example');
    expect(listed(response, 'access-control-expose-headers')).toEqual(expect.arrayContaining(['mcp-session-id', 'mcp-protocol-version', 'www-authenticate']));
    await response.body?.cancel();
  });
});

describe('the Origin rule before the era', () => {
  const EVIL = 'https://evil.example';
  const originRefusal = { jsonrpc: '2.0', id: null, error: { code: -32600, message: `Forbidden: origin "${EVIL}" is not allowed` } };
  /** A 2026-07-28 request; `headers` may contradict its body. */
  const modernRequest = (headers: Record<string, string>, origin: string) =>
    postJson(
      '/mcp',
      {
        jsonrpc: '2.0',
        id: 7,
        method: 'tools/list',
        params: { _meta: { 'io.modelcontextprotocol/protocolVersion': headers['mcp-protocol-version'], 'io.modelcontextprotocol/clientCapabilities': {} } },
      },
      { ...headers, origin },
    );
  const wrongMethod = { 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'prompts/list' };
  const unsupportedVersion = { 'mcp-protocol-version': '2099-01-01', 'mcp-method': 'tools/list' };
  const good = { 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'tools/list' };

  it('would refuse these era headers from an allowed origin, each for its own reason', async () => {
    const mismatch = await modernRequest(wrongMethod, ORIGIN);
    expect(mismatch.status).toBe(400);
    expect(((await mismatch.json()) as any).error.code).toBe(-32020);
    const unsupported = await modernRequest(unsupportedVersion, ORIGIN);
    expect(unsupported.status).toBe(400);
    expect(((await unsupported.json()) as any).error.code).toBe(-32022);
  });

  it('refuses a bad Origin with the Origin refusal whatever the era headers say', async () => {
    for (const headers of [good, wrongMethod, unsupportedVersion]) {
      const response = await modernRequest(headers, EVIL);
      expect(response.status, headers['mcp-method']).toBe(403);
      expect(await response.json()).toEqual(originRefusal);
    }
  });
});

describe('GET /health', () => {
  it('reports name, version and the loaded catalog', async () => {
    const { manifest } = await loadCatalog();
    const response = await call('/health');
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({
      status: 'ok',
      name: 'n8n-mcp-edge',
      version: expect.any(String),
      catalogVersion: manifest.version,
      catalog: { specs: 46, sources: ['seed'] },
    });
  });
});
