import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { allowedOrigin } from '../../src/http/cors';
import { HttpError } from '../../src/http/errors';
import { loadCatalog } from '../support/catalog';
import { call, initializeRequest, postJson } from '../support/mcp';

const request = (url: string, origin?: string) =>
  new Request(url, { headers: origin ? { origin } : {} });

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

describe('CORS on the wire', () => {
  it('answers preflight on every route with the MCP headers allowed', async () => {
    for (const path of ['/mcp', '/sse', '/messages', '/mcp/sse', '/health']) {
      const response = await call(path, {
        method: 'OPTIONS',
        headers: { origin: 'https://mcp.example', 'access-control-request-method': 'POST' },
      });
      expect(response.status).toBe(204);
      expect(response.headers.get('access-control-allow-origin')).toBe('https://mcp.example');
      expect(response.headers.get('access-control-allow-headers')).toMatch(/mcp-session-id/i);
      expect(response.headers.get('access-control-allow-headers')).toMatch(/mcp-protocol-version/i);
    }
  });

  it('refuses a preflight and a request from a bad Origin with 403', async () => {
    const preflight = await call('/mcp', { method: 'OPTIONS', headers: { origin: 'https://evil.example' } });
    expect(preflight.status).toBe(403);
    const post = await postJson('/mcp', initializeRequest(), { origin: 'https://evil.example' });
    expect(post.status).toBe(403);
    expect(post.headers.get('mcp-session-id')).toBeNull();
  });

  it('exposes mcp-session-id and mcp-protocol-version on real responses', async () => {
    const response = await postJson('/mcp', initializeRequest(), { origin: 'https://mcp.example' });
    expect(response.headers.get('access-control-allow-origin')).toBe('https://mcp.example');
    const exposed = response.headers.get('access-control-expose-headers')?.toLowerCase();
    expect(exposed).toContain('mcp-session-id');
    expect(exposed).toContain('mcp-protocol-version');
    await response.body?.cancel();
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
