/**
 * The server's security rules, one test each, through the real Worker (src/worker.ts). Every test
 * shows the refusal and, beside it, its positive control: the allowed case goes through, so a refusal
 * cannot pass by the server refusing everything. The rules and their answers are in
 * docs/access-control.md and docs/hostile-input.md; each test names its rule in its title.
 */
import { env } from 'cloudflare:workers';
import { afterEach, describe, expect, inject, it, vi } from 'vitest';
import { MAX_BODY_BYTES, MAX_HEADER_BYTES } from '../src/config';
import type { Env } from '../src/env';
import { loadCatalog } from './support/catalog';
import { bearer, createKey, revokeKey } from './support/keys';
import { call, callWithEnv, initializeRequest, messagesOf, openSession, postJson, sessionHeaders } from './support/mcp';
import { modern, modernCallWith } from './support/modern';
import { consentPage, form, pkce, register } from './support/oauth';

const ping = { jsonrpc: '2.0', id: 1, method: 'ping' };
const MCP_HEADERS = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };

/** A key of its own for each test: rate limits and sessions count per key. */
const newKey = async (scopes: Parameters<typeof createKey>[0] = ['*']) => (await createKey(scopes)).key;

/** POST /mcp to the Worker run with `vars` changed (ALLOWED_HOSTS, a limiter, an n8n): as the runtime would with that configuration. */
const postWith = (vars: Partial<Env>, body: unknown, headers: Record<string, string> = {}) =>
  callWithEnv('/mcp', vars, { method: 'POST', headers: { ...MCP_HEADERS, ...headers }, body: typeof body === 'string' ? body : JSON.stringify(body) });

afterEach(() => vi.restoreAllMocks());

describe('security rules', () => {
  it('Rule: a request for a Host outside ALLOWED_HOSTS is refused (403) on every route, before authentication', async () => {
    const elsewhere = { ALLOWED_HOSTS: 'localhost:8787' };
    const refused = await callWithEnv('/health', elsewhere);
    expect(refused.status).toBe(403);
    expect(await refused.json()).toMatchObject({ error: { message: 'Forbidden: host "mcp.example" is not allowed' } });
    // No credential and no valid body: the Host is looked at first.
    expect((await postWith(elsewhere, '{')).status).toBe(403);
    // Positive control: the host it is served on.
    expect((await callWithEnv('/health', { ALLOWED_HOSTS: 'mcp.example' })).status).toBe(200);
    expect((await postWith({ ALLOWED_HOSTS: 'mcp.example' }, initializeRequest(), bearer(await newKey()))).status).toBe(200);
  });

  it('Rule: a disallowed Origin is refused (403) before anything else: credential, body, protocol era', async () => {
    const evil = { origin: 'https://evil.example' };
    const key = await newKey();
    // Without a credential (not 401), with a broken body (not 400), with a good credential and body, in either era.
    const answers = [
      await postJson('/mcp', '{', { ...evil, authorization: '' }).then(async (r) => ({ status: r.status, body: await r.json() })),
      await postJson('/mcp', initializeRequest(), { ...evil, ...bearer(key) }).then(async (r) => ({ status: r.status, body: await r.json() })),
      await modern('server/discover', {}, { headers: { ...evil, ...bearer(key) } }),
    ];
    for (const { status, body } of answers) {
      expect(status).toBe(403);
      expect(body).toMatchObject({ error: { message: 'Forbidden: origin "https://evil.example" is not allowed' } });
    }
    const preflight = await call('/mcp', { method: 'OPTIONS', headers: { ...evil, 'access-control-request-method': 'POST' } });
    // A browser fails a preflight that is not 2xx; nothing in it allows the origin or a method.
    expect(preflight.status).toBe(403);
    expect(preflight.headers.get('access-control-allow-origin')).not.toBe('https://evil.example');
    expect(preflight.headers.get('access-control-allow-methods')).toBeNull();
    // Positive control: the server's own origin is served, and told it may read the answer.
    const own = await postJson('/mcp', initializeRequest(), { origin: 'https://mcp.example', ...bearer(key) });
    expect(own.status).toBe(200);
    expect(own.headers.get('access-control-allow-origin')).toBe('https://mcp.example');
  });

  it('Rule: a request without a credential is 401, its WWW-Authenticate naming the resource metadata of the route it called', async () => {
    for (const [path, resource] of [
      ['/mcp', '/mcp'],
      ['/mcp/sse', '/mcp'],
      ['/sse', '/sse'],
      ['/messages', '/sse'],
    ] as const) {
      const response = await call(path, { method: path === '/messages' ? 'POST' : 'GET', headers: { authorization: '', accept: 'text/event-stream' } });
      expect(response.status, path).toBe(401);
      const metadataUrl = `https://mcp.example/.well-known/oauth-protected-resource${resource}`;
      expect(response.headers.get('www-authenticate'), path).toBe(`Bearer realm="n8n-mcp", resource_metadata="${metadataUrl}"`);
      // The metadata it points to is public, and names the resource a token must be for.
      const metadata = await call(new URL(metadataUrl).pathname, { headers: { authorization: '' } });
      expect(await metadata.json(), path).toMatchObject({ resource: `https://mcp.example${resource}` });
    }
    // Positive control: with a credential the same request is served.
    expect((await postJson('/mcp', initializeRequest(), bearer(await newKey()))).status).toBe(200);
  });

  it('Rule: an unknown, revoked, expired or malformed credential is 401 invalid_token, all answered alike', async () => {
    const revoked = await createKey(['*']);
    await revokeKey(revoked.record);
    const expired = await createKey(['*'], { expiresAt: Date.now() - 1_000 });
    const answers = [];
    for (const authorization of [
      `Bearer n2f_${'Q'.repeat(40)}`,
      `Bearer ${revoked.key}`,
      `Bearer ${expired.key}`,
      `Bearer ${'x'.repeat(2_000)}`,
      'Basic dXNlcjpwYXNz',
    ]) {
      const response = await postJson('/mcp', initializeRequest(), { authorization });
      expect(response.status, authorization.slice(0, 20)).toBe(401);
      expect(response.headers.get('www-authenticate')).toMatch(/error="invalid_token"/);
      answers.push(await response.text());
    }
    // Nothing tells a guessed key from a revoked one.
    expect(new Set(answers).size).toBe(1);
    // Positive control: a key in force.
    expect((await postJson('/mcp', initializeRequest(), bearer(await newKey()))).status).toBe(200);
  });

  it("Rule: a session answers only the principal that created it: another principal's request is 404, like an unknown session", async () => {
    const owner = bearer(await newKey());
    const other = bearer(await newKey());
    const sessionId = await openSession(undefined, owner);
    const stolen = await postJson('/mcp', ping, { ...other, ...sessionHeaders(sessionId) });
    const unknown = await postJson('/mcp', ping, { ...other, ...sessionHeaders('A'.repeat(43)) });
    expect(stolen.status).toBe(404);
    expect(await stolen.text()).toBe(await unknown.text());
    expect((await call('/mcp', { method: 'DELETE', headers: { ...other, ...sessionHeaders(sessionId) } })).status).toBe(404);
    // Positive control: its creator is answered.
    const own = await postJson('/mcp', ping, { ...owner, ...sessionHeaders(sessionId) });
    expect(await messagesOf(own)).toEqual([{ jsonrpc: '2.0', id: 1, result: {} }]);
  });

  it("Rule: a tool outside the caller's scopes is neither listed nor callable, in either protocol era", async () => {
    await loadCatalog();
    const narrow = bearer(await newKey(['workflows:read']));
    const allowed = bearer(await newKey(['nodes:read']));
    const listed = async (headers: Record<string, string>) => {
      const sessionId = await openSession(undefined, headers);
      const { reply } = await postJson('/mcp', { jsonrpc: '2.0', id: 2, method: 'tools/list' }, { ...headers, ...sessionHeaders(sessionId) }).then(
        async (r) => ({ reply: (await messagesOf(r))[0] }),
      );
      return (reply!.result.tools as { name: string }[]).map((t) => t.name);
    };
    const search = { name: 'search_nodes', arguments: { query: 'http request' } };
    const callIn = async (headers: Record<string, string>) => {
      const sessionId = await openSession(undefined, headers);
      return (
        await messagesOf(await postJson('/mcp', { jsonrpc: '2.0', id: 3, method: 'tools/call', params: search }, { ...headers, ...sessionHeaders(sessionId) }))
      )[0]!.result;
    };
    const refusal = 'Error: Forbidden: search_nodes needs the scope "nodes:read", which this credential does not have';

    expect(await listed(narrow)).not.toContain('search_nodes');
    expect(await listed(narrow)).toContain('server_info');
    expect(await callIn(narrow)).toEqual({ isError: true, content: [{ type: 'text', text: refusal }] });
    const modernList = await modern('tools/list', {}, { headers: narrow });
    expect((modernList.body.result.tools as { name: string }[]).map((t) => t.name)).not.toContain('search_nodes');
    expect((await modern('tools/call', search, { headers: narrow })).body.result).toMatchObject({ isError: true, content: [{ type: 'text', text: refusal }] });
    // Positive control: with the scope, listed and run.
    expect(await listed(allowed)).toContain('search_nodes');
    const ran = await callIn(allowed);
    expect(ran.isError).toBeUndefined();
    expect(JSON.parse(ran.content[0].text)[0]).toMatchObject({ subtype: 'HTTP_REQUEST' });
    expect((await modern('tools/call', search, { headers: allowed })).body.result.isError).toBeUndefined();
  });

  it("Rule: a resource outside the caller's scopes is refused, and its template not listed", async () => {
    await loadCatalog();
    const uri = 'node-spec://ACTION_NODE/HTTP_REQUEST';
    const read = async (scopes: Parameters<typeof createKey>[0]) => {
      const headers = bearer(await newKey(scopes));
      const sessionId = await openSession(undefined, headers);
      const call = (method: string, params: unknown, id: number) =>
        postJson('/mcp', { jsonrpc: '2.0', id, method, params }, { ...headers, ...sessionHeaders(sessionId) }).then(async (r) => (await messagesOf(r))[0]!);
      return { read: await call('resources/read', { uri }, 2), templates: await call('resources/templates/list', {}, 3) };
    };
    const narrow = await read(['workflows:read']);
    expect(narrow.read.error).toMatchObject({
      message: expect.stringContaining('Forbidden: node-spec:// resources need the scope "nodes:read", which this credential does not have'),
    });
    const template = expect.objectContaining({ uriTemplate: 'node-spec://{node_type}/{+subtype}' });
    expect(narrow.templates.result.resourceTemplates).not.toContainEqual(template);
    // Positive control: with nodes:read, the spec is read and the template listed.
    const allowed = await read(['nodes:read']);
    expect(JSON.parse(allowed.read.result.contents[0].text)).toMatchObject({ subtype: 'HTTP_REQUEST' });
    expect(allowed.templates.result.resourceTemplates).toContainEqual(template);
  });

  it('Rule: a principal over its request rate limit is answered 429 with Retry-After, others go on', async () => {
    // The test configuration's limiter of 3 a minute, standing in as the request limiter.
    const tiny = { REQUEST_LIMITER: (env as unknown as { TINY_LIMITER: RateLimit }).TINY_LIMITER };
    const key = bearer(await newKey());
    const statuses = [];
    for (let i = 0; i < 3; i++) statuses.push((await postWith(tiny, initializeRequest(), key)).status);
    const limited = await postWith(tiny, initializeRequest(), key);
    // Positive control: the first three were served, and another principal still is.
    expect(statuses).toEqual([200, 200, 200]);
    expect(limited.status).toBe(429);
    expect(limited.headers.get('retry-after')).toBe('60');
    expect(await limited.json()).toMatchObject({ error: { message: 'Too Many Requests: this credential is over its request rate limit' } });
    expect((await postWith(tiny, initializeRequest(), bearer(await newKey()))).status).toBe(200);
  });

  it("Rule: secrets (the caller's API key, the deployment's n8n key) never appear in an answer or a log line", async () => {
    const printed: string[] = [];
    for (const level of ['log', 'info', 'warn', 'error', 'debug'] as const) {
      vi.spyOn(console, level).mockImplementation((...args: unknown[]) => void printed.push(args.map(String).join(' ')));
    }
    const apiKey = await newKey();
    const n8nKey = inject('n8nKey');
    const wrongN8nKey = `n8n_api_wrong_${crypto.randomUUID()}`;
    const withN8n = { N8N_API_URL: inject('n8nUrl'), N8N_API_KEY: n8nKey, CONFORMANCE_PACK: 'off' };
    const answers = [
      // Positive control: the n8n key is used, and works.
      await modernCallWith(withN8n, apiKey, 'list_tags'),
      // n8n refuses a wrong key; an unreachable n8n fails; both are reported.
      await modernCallWith({ ...withN8n, N8N_API_KEY: wrongN8nKey }, apiKey, 'list_tags'),
      await modernCallWith({ ...withN8n, N8N_API_URL: 'http://127.0.0.1:9/' }, apiKey, 'list_workflows'),
      await modernCallWith(withN8n, apiKey, 'server_info'),
      await modernCallWith(withN8n, apiKey, 'get_workflow', { id: 'missing1' }),
    ];
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 200, 200]);
    expect(answers[0]!.text).toContain('{\\"tags\\":[');
    expect(answers[1]!.text).toContain('n8n rejected the API key (401)');
    expect(answers[2]!.text).toContain('Could not reach n8n');
    expect(printed.length).toBeGreaterThan(0);
    for (const text of [...answers.map((a) => a.text), ...printed]) {
      for (const secret of [apiKey, n8nKey, wrongN8nKey]) expect(text).not.toContain(secret);
    }
  });

  it('Rule: the OAuth consent gives a code only for a valid credential', async () => {
    const clientId = await register('Security rules');
    const revoked = await createKey(['*']);
    await revokeKey(revoked.record);
    const approve = async (credential: string) => {
      const { challenge } = await pkce();
      const page = await consentPage(clientId, challenge);
      return call(page.path, form({ handle: page.handle, credential, decision: 'approve' }, { cookie: page.cookie }));
    };
    for (const credential of ['', `n2f_${'Q'.repeat(40)}`, revoked.key, 'not the operator password']) {
      const refused = await approve(credential);
      expect(refused.status, credential).toBe(401);
      expect(refused.headers.get('location'), credential).toBeNull();
      expect(await refused.text()).toContain('That API key or password is not valid.');
    }
    // Positive control: a valid key sends the browser back to the client with a code.
    const approved = await approve(await newKey());
    expect(approved.status).toBe(302);
    expect(new URL(approved.headers.get('location')!).searchParams.get('code')).toMatch(/.+/);
  });

  it('Rule: the fault-injection routes do not exist in production, whoever asks', async () => {
    const key = bearer(await newKey());
    const sessionId = await openSession(undefined, key);
    const path = `/__faults/evict?sessionId=${sessionId}`;
    // Production: the Worker of src/worker.ts has no such route.
    const production = await callWithEnv(path, {}, { method: 'POST', headers: key });
    expect(production.status).toBe(404);
    expect(await production.json()).toMatchObject({ error: { message: 'Not Found' } });
    // Positive control: the test entry (test/entry/worker.ts), which composes the fault hooks, has it.
    expect((await call(path, { method: 'POST', headers: key })).status).toBe(204);
  });

  it('Rule: oversized headers are refused with 431 before authentication, oversized bodies with 413', async () => {
    const key = bearer(await newKey());
    const padding = (bytes: number) => ({ 'x-padding': 'p'.repeat(bytes) });
    const tooManyHeaders = await postJson('/mcp', initializeRequest(), { authorization: '', ...padding(MAX_HEADER_BYTES) });
    expect(tooManyHeaders.status).toBe(431);
    expect(await tooManyHeaders.json()).toMatchObject({ error: { message: `Request Header Fields Too Large: the limit is ${MAX_HEADER_BYTES} bytes` } });
    const body = (bytes: number) => JSON.stringify({ ...ping, params: { _meta: { pad: 'x'.repeat(bytes) } } });
    const tooLarge = await postJson('/mcp', body(MAX_BODY_BYTES), key);
    expect(tooLarge.status).toBe(413);
    expect(await tooLarge.json()).toMatchObject({ error: { message: `Payload Too Large: the body limit is ${MAX_BODY_BYTES} bytes` } });
    // Positive control: just under both limits, the request is served.
    const sessionId = await openSession(undefined, key);
    const within = await postJson('/mcp', body(MAX_BODY_BYTES - 1_000), { ...key, ...sessionHeaders(sessionId), ...padding(MAX_HEADER_BYTES - 1_000) });
    expect(within.status).toBe(200);
    expect(await messagesOf(within)).toEqual([{ jsonrpc: '2.0', id: 1, result: {} }]);
  });

  it('Rule: a sealed requestState (MRTR, 2026-07-28) is refused from any caller but the one it was minted for', async () => {
    const tool = 'test_input_required_result_request_state';
    const capabilities = { elicitation: {} };
    const owner = bearer(await newKey());
    const other = bearer(await newKey());
    const first = await modern('tools/call', { name: tool, arguments: {} }, { capabilities, headers: owner });
    const { requestState } = first.body.result;
    expect(requestState).toEqual(expect.any(String));
    const retry = { name: tool, arguments: {}, inputResponses: { confirm: { action: 'accept', content: { ok: true } } }, requestState };
    const replayed = await modern('tools/call', retry, { capabilities, headers: other });
    expect(replayed.body.error).toMatchObject({ code: -32602 });
    expect(replayed.body).not.toHaveProperty('result');
    // Positive control: its own caller's retry is answered.
    const own = await modern('tools/call', retry, { capabilities, headers: owner });
    expect(own.body.result.content[0].text).toBe('state-ok: confirmed true');
  });
});
