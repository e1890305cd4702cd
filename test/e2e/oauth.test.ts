import { auth, type OAuthClientProvider } from '@modelcontextprotocol/sdk/client/auth.js';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { SSEClientTransport } from '@modelcontextprotocol/sdk/client/sse.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { OAuthClientInformationMixed, OAuthClientMetadata, OAuthTokens } from '@modelcontextprotocol/sdk/shared/auth.js';
import { UnauthorizedError } from '@modelcontextprotocol/sdk/client/auth.js';
import { request as httpRequest } from 'node:http';
import { describe, expect, inject, it } from 'vitest';

const baseUrl = inject('baseUrl');
const apiKey = inject('apiKey');
const REDIRECT = 'http://127.0.0.1:47913/oauth/callback';

/**
 * The SDK client's OAuth provider as an app like mcp-remote implements it, with the browser step done
 * by hand: open the authorization URL, paste the API key into the consent page, follow the redirect.
 */
class TestOAuthProvider implements OAuthClientProvider {
  client?: OAuthClientInformationMixed;
  saved?: OAuthTokens;
  verifier = '';
  /** The code the consent page's redirect brought back. */
  code?: string;
  consentPages = 0;

  get redirectUrl() {
    return REDIRECT;
  }
  get clientMetadata(): OAuthClientMetadata {
    return {
      client_name: 'e2e mcp-remote',
      redirect_uris: [REDIRECT],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
    };
  }
  clientInformation() {
    return this.client;
  }
  saveClientInformation(info: OAuthClientInformationMixed) {
    this.client = info;
  }
  tokens() {
    return this.saved;
  }
  saveTokens(tokens: OAuthTokens) {
    this.saved = tokens;
  }
  saveCodeVerifier(verifier: string) {
    this.verifier = verifier;
  }
  codeVerifier() {
    return this.verifier;
  }
  async redirectToAuthorization(url: URL) {
    this.consentPages++;
    const page = await fetch(url, { redirect: 'manual' });
    expect(page.status).toBe(200);
    const html = await page.text();
    const handle = /name="handle" value="([^"]+)"/.exec(html)![1]!;
    const action = /<form method="post" action="([^"]+)"/.exec(html)![1]!.replace(/&#38;/g, '&');
    const cookie = page.headers
      .getSetCookie()
      .map((c) => c.split(';')[0])
      .join('; ');
    const approved = await fetch(new URL(action, baseUrl), {
      method: 'POST',
      redirect: 'manual',
      headers: { 'content-type': 'application/x-www-form-urlencoded', cookie },
      body: new URLSearchParams({ handle, credential: apiKey, decision: 'approve' }),
    });
    expect(approved.status).toBe(302);
    const location = new URL(approved.headers.get('location')!);
    expect(location.origin + location.pathname).toBe(REDIRECT);
    this.code = location.searchParams.get('code') ?? undefined;
  }
}

describe('the MCP SDK client with its OAuth provider, against wrangler dev', () => {
  it('discovers, registers, authorizes with PKCE, gets tokens, calls tools on both transports, and refreshes', async () => {
    const provider = new TestOAuthProvider();
    const mcpUrl = new URL('/mcp', baseUrl);

    // First connect: 401 → discovery → dynamic registration → the consent page, then UnauthorizedError.
    const first = new StreamableHTTPClientTransport(mcpUrl, { authProvider: provider });
    await expect(new Client({ name: 'e2e-oauth', version: '1' }).connect(first)).rejects.toThrow(UnauthorizedError);
    expect(provider.client?.client_id).toEqual(expect.any(String));
    expect(provider.consentPages).toBe(1);
    expect(provider.code).toEqual(expect.any(String));
    await first.finishAuth(provider.code!);
    expect(provider.saved).toMatchObject({ token_type: expect.stringMatching(/^bearer$/i), refresh_token: expect.any(String) });

    const client = new Client({ name: 'e2e-oauth', version: '1' });
    await client.connect(new StreamableHTTPClientTransport(mcpUrl, { authProvider: provider }));
    const names = (await client.listTools()).tools.map((t) => t.name);
    expect(names).toEqual(expect.arrayContaining(['search_nodes', 'list_workflows']));
    const result = await client.callTool({ name: 'search_nodes', arguments: { query: 'slack' } });
    expect(result.isError).toBeFalsy();
    await client.close();

    // The same token on the legacy HTTP+SSE transport.
    const legacy = new Client({ name: 'e2e-oauth-sse', version: '1' });
    await legacy.connect(new SSEClientTransport(new URL('/sse', baseUrl), { authProvider: provider }));
    expect((await legacy.callTool({ name: 'server_info', arguments: {} })).isError).toBeFalsy();
    await legacy.close();

    // Refresh: the SDK trades the refresh token for a new access token, which works; no consent page again.
    const before = provider.saved!.access_token;
    expect(await auth(provider, { serverUrl: mcpUrl })).toBe('AUTHORIZED');
    expect(provider.saved!.access_token).not.toBe(before);
    expect(provider.consentPages).toBe(1);
    const after = new Client({ name: 'e2e-oauth', version: '1' });
    await after.connect(new StreamableHTTPClientTransport(mcpUrl, { authProvider: provider }));
    expect((await after.callTool({ name: 'server_info', arguments: {} })).isError).toBeFalsy();
    await after.close();
  });
});

/**
 * Under `wrangler dev` a client sets CF-Connecting-IP as it likes (miniflare keeps one it sent): the
 * server, not behind Cloudflare, counts every caller as one address. These run after the flow above,
 * and use up its address's budgets for the minute.
 */
describe('limits per address under wrangler dev, whatever CF-Connecting-IP a client sends', () => {
  const rotating = (i: number) => ({ 'cf-connecting-ip': `198.51.100.${i}` });
  const registration = (i: number) =>
    fetch(new URL('/oauth/register', baseUrl), {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...rotating(i) },
      body: JSON.stringify({ client_name: 'e2e flood', redirect_uris: [REDIRECT], token_endpoint_auth_method: 'none' }),
    });

  it('refuses the consent page’s sign-in past 10 attempts a minute', async () => {
    const registered = (await (await registration(1)).json()) as { client_id: string };
    const query = new URLSearchParams({
      response_type: 'code',
      client_id: registered.client_id,
      redirect_uri: REDIRECT,
      code_challenge: 'x'.repeat(43),
      code_challenge_method: 'S256',
    });
    const page = await fetch(new URL(`/authorize?${query}`, baseUrl), { redirect: 'manual' });
    const handle = /name="handle" value="([^"]+)"/.exec(await page.text())![1]!;
    const cookie = page.headers
      .getSetCookie()
      .map((c) => c.split(';')[0])
      .join('; ');
    const statuses = [];
    for (let i = 0; i < 11; i++) {
      const attempt = await fetch(new URL(`/authorize?${query}`, baseUrl), {
        method: 'POST',
        redirect: 'manual',
        headers: { 'content-type': 'application/x-www-form-urlencoded', cookie, ...rotating(i) },
        body: new URLSearchParams({ handle, credential: `guess ${i}`, decision: 'approve' }),
      });
      statuses.push(attempt.status);
    }
    // SIGN_IN_LIMITER allows 10 a minute (the flow above may have used one of them).
    expect(statuses.filter((status) => status === 401).length).toBeLessThanOrEqual(10);
    expect(statuses.at(-1)).toBe(429);
  });

  it('refuses registrations past 20 a minute, in OAuth’s error format', async () => {
    let refused: Response | undefined;
    // The limiter counts in fixed one-minute windows, and other files register clients too: 41 tries
    // see a refusal even if a window ends among them.
    for (let i = 0; i < 41 && !refused; i++) {
      const response = await registration(i);
      if (response.status === 429) refused = response;
      else expect(response.status).toBe(201);
    }
    expect(refused?.headers.get('retry-after')).toBe('60');
    expect(await refused?.json()).toEqual({
      error: 'temporarily_unavailable',
      error_description: 'Too many registration and token requests from this address: try again in 60 seconds',
    });
  });
});

describe('OAuth metadata under npm run dev', () => {
  /** GET with a Host header of the caller's choosing (fetch does not let one set it). */
  const withHost = (path: string, host: string) =>
    new Promise<{ status: number; body: string }>((resolve, reject) => {
      const url = new URL(path, baseUrl);
      const request = httpRequest({ host: url.hostname, port: url.port, path: url.pathname, headers: { host } }, (response) => {
        let body = '';
        response.on('data', (chunk) => (body += chunk));
        response.on('end', () => resolve({ status: response.statusCode!, body }));
      });
      request.on('error', reject);
      request.end();
    });

  it('names the origin the server serves, and refuses a Host with another port rather than reflect it', async () => {
    const served = new URL(baseUrl).host;
    const metadata = await withHost('/.well-known/oauth-authorization-server', served);
    expect(metadata.status).toBe(200);
    expect(JSON.parse(metadata.body)).toMatchObject({ issuer: `http://${served}` });
    const other = await withHost('/.well-known/oauth-authorization-server', `${new URL(baseUrl).hostname}:31337`);
    expect(other.status).toBe(403);
    expect(other.body).not.toContain('31337/');
  });
});
