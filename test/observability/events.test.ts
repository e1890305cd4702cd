import { env } from 'cloudflare:workers';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { dataPoint, observe, requestEvent } from '../../src/observability/events';
import { newSessionId } from '../../src/lib/sessionIds';
import type { WorkerRequest } from '../../src/http/request';
import { loadCatalog } from '../support/catalog';
import { bearer, createKey, revokeKey } from '../support/keys';
import { call, messagesOf, openSession, postJson, sessionHeaders } from '../support/mcp';
import { pendingCalls, waitFor } from '../support/sessionStorage';

/** The JSON lines the server printed while a test ran, and the Analytics Engine points it wrote. */
let lines: Record<string, any>[] = [];
let points: AnalyticsEngineDataPoint[] = [];
beforeAll(() => loadCatalog());
beforeEach(() => {
  lines = [];
  points = [];
  vi.spyOn(console, 'log').mockImplementation((text: unknown) => {
    try {
      lines.push(JSON.parse(String(text)));
    } catch {
      // not one of ours
    }
  });
  vi.spyOn(env.METRICS!, 'writeDataPoint').mockImplementation((point) => void points.push(point!));
});
afterEach(() => vi.restoreAllMocks());

const of = (kind: string) => lines.filter((l) => l.kind === kind);

describe('structured logs and metrics', () => {
  it('log every request with route, session, method, tool, status and time; count tool runs and searches; never arguments', async () => {
    const sessionId = await openSession();
    const query = 'unmistakable-query-text-4711';
    const response = await postJson(
      '/mcp',
      { jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'search_nodes', arguments: { query } } },
      sessionHeaders(sessionId),
    );
    await messagesOf(response);

    expect(of('request').at(-1)).toEqual({
      level: 'info',
      kind: 'request',
      route: '/mcp',
      httpMethod: 'POST',
      status: 200,
      ms: expect.any(Number),
      rpc: 'tools/call',
      tool: 'search_nodes',
      session: sessionId,
      principal: expect.stringMatching(/^key_[0-9a-f]{12}$/),
    });
    // A tool run that went well and a search are counted, not logged.
    expect(of('tool')).toEqual([]);
    expect(of('search')).toEqual([]);
    for (const line of lines) expect(JSON.stringify(line)).not.toContain(query);

    // Analytics Engine rows: kind, name, outcome, detail; duration and a count.
    expect(points).toContainEqual({ indexes: ['request'], blobs: ['request', '/mcp', '200', 'POST tools/call'], doubles: [expect.any(Number), 200] });
    expect(points).toContainEqual({ indexes: ['tool'], blobs: ['tool', 'search_nodes', 'ok', 'direct'], doubles: [expect.any(Number), 1] });
    expect(points).toContainEqual({
      indexes: ['search'],
      blobs: ['search', 'search_nodes', 'hits', ''],
      doubles: [expect.any(Number), expect.any(Number), query.length],
    });
    expect(JSON.stringify(points)).not.toContain(query);
  });

  it('log a tool run that failed, as a warning', async () => {
    const sessionId = await openSession();
    const response = await postJson(
      '/mcp',
      { jsonrpc: '2.0', id: 5, method: 'tools/call', params: { name: 'test_error_handling', arguments: {} } },
      sessionHeaders(sessionId),
    );
    expect((await messagesOf(response))[0]!.result.isError).toBe(true);
    expect(of('tool')).toEqual([
      { level: 'warn', kind: 'tool', tool: 'test_error_handling', execution: 'direct', outcome: 'failed', ms: expect.any(Number), session: sessionId },
    ]);
  });

  it('log refused and unknown requests by route pattern, never by the raw path', async () => {
    await call('/mcp', { method: 'POST', headers: { authorization: 'Bearer nope', 'content-type': 'application/json' }, body: '{}' });
    await call('/some/secret-looking/path?token=abc');
    const [refused, unknown] = of('request');
    expect(refused).toMatchObject({ level: 'warn', route: '/mcp', status: 401 });
    expect(refused).not.toHaveProperty('principal');
    expect(unknown).toMatchObject({ route: 'other', status: 404 });
    expect(JSON.stringify(lines)).not.toContain('secret-looking');
  });

  it('with LOG_LEVEL=warn, write failures only: the metrics still count every request', async () => {
    const quiet = { ...env, LOG_LEVEL: 'warn' };
    observe(quiet, { kind: 'request', route: '/mcp', httpMethod: 'POST', status: 200, ms: 3 });
    observe(quiet, { kind: 'request', route: '/mcp', httpMethod: 'POST', status: 429, ms: 1 });
    observe(quiet, { kind: 'tool', tool: 't', execution: 'direct', outcome: 'failed', ms: 1 });
    expect(lines.map((l) => [l.kind, l.level, l.status])).toEqual([
      ['request', 'warn', 429],
      ['tool', 'warn', undefined],
    ]);
    expect(points).toHaveLength(3);
  });

  it('report how long a queued call waited and how its run went', async () => {
    const sessionId = await openSession();
    const response = await postJson(
      '/mcp',
      { jsonrpc: '2.0', id: 4, method: 'tools/call', params: { name: 'test_queued_echo', arguments: { text: 'hi' } } },
      sessionHeaders(sessionId),
    );
    await messagesOf(response);
    await waitFor(
      () => pendingCalls(sessionId),
      (p) => p.length === 0,
    );
    expect(points).toContainEqual({ indexes: ['queue'], blobs: ['queue', 'test_queued_echo', 'picked-up', ''], doubles: [expect.any(Number), 1] });
    expect(points).toContainEqual({ indexes: ['tool'], blobs: ['tool', 'test_queued_echo', 'ok', 'queued'], doubles: [expect.any(Number), 1] });
  });

  it('lay out every kind of event in the same columns', () => {
    expect(dataPoint({ kind: 'search', ms: 0.2, hits: 0, queryLength: 5 })).toEqual({
      indexes: ['search'],
      blobs: ['search', 'search_nodes', 'no-hits', ''],
      doubles: [0.2, 0, 5],
    });
    expect(dataPoint({ kind: 'queue', tool: 'list_workflows', waitMs: 12, attempt: 2 })).toEqual({
      indexes: ['queue'],
      blobs: ['queue', 'list_workflows', 'picked-up', ''],
      doubles: [12, 2],
    });
    expect(dataPoint({ kind: 'alarm', outcome: 'closed', ms: 3, session: 'x' })).toEqual({
      indexes: ['alarm'],
      blobs: ['alarm', 'session', 'closed', ''],
      doubles: [3, 1],
    });
  });
});

describe('requestEvent', () => {
  const id = newSessionId();
  const sessionOf = (url: string, requestHeaders: Record<string, string> = {}, responseHeaders: Record<string, string> = {}) =>
    (
      requestEvent(
        Object.assign(new Request(url, { headers: requestHeaders }), { route: '/x' }) as unknown as WorkerRequest,
        new Response(null, { headers: responseHeaders }),
      ) as { session?: string }
    ).session;

  it('names the session from the request header, the response header (initialize) or the legacy query, and only a well-formed one', () => {
    expect(sessionOf('https://h/mcp', { 'mcp-session-id': id })).toBe(id);
    expect(sessionOf('https://h/mcp', {}, { 'mcp-session-id': id })).toBe(id);
    expect(sessionOf(`https://h/messages?sessionId=${id}`)).toBe(id);
    expect(sessionOf('https://h/messages?sessionId=not-a-session')).toBeUndefined();
    expect(sessionOf('https://h/mcp', { 'mcp-session-id': 'nope' })).toBeUndefined();
  });
});

describe('no key material in logs', () => {
  /** Everything the Worker, the session objects and the queue consumer print while the test runs, at any level, JSON or not. */
  let printed: string[] = [];
  beforeEach(() => {
    printed = [];
    for (const level of ['log', 'info', 'warn', 'error', 'debug'] as const) {
      vi.spyOn(console, level).mockImplementation((...args: unknown[]) => void printed.push(args.map(String).join(' ')));
    }
  });

  it('prints no API key, OAuth token, code verifier or operator password, whatever happens', async () => {
    const secrets: string[] = [env.OPERATOR_PASSWORD!];
    const good = await createKey(['*']);
    const revoked = await createKey(['*']);
    await revokeKey(revoked.record);
    secrets.push(good.key, revoked.key, `n2f_${'Q'.repeat(40)}`);

    // Refused credentials of every kind.
    for (const key of secrets.slice(1)) await postJson('/mcp', { jsonrpc: '2.0', id: 1, method: 'ping' }, bearer(key));
    await postJson('/mcp', { jsonrpc: '2.0', id: 1, method: 'ping' }, { authorization: `Bearer key_x:${'a'.repeat(16)}:${'s'.repeat(32)}` });

    // An OAuth client, a token request that fails (the library reports it through onError) and one that works.
    const registered = await call('/oauth/register', {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: '' },
      body: JSON.stringify({ client_name: 'logs', redirect_uris: ['http://127.0.0.1:1/cb'], token_endpoint_auth_method: 'none' }),
    });
    const clientId = ((await registered.json()) as { client_id: string }).client_id;
    const badCode = `key_x:${'g'.repeat(16)}:${'c'.repeat(32)}`;
    secrets.push(badCode);
    await call('/oauth/token', {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', authorization: '' },
      body: new URLSearchParams({
        grant_type: 'authorization_code',
        code: badCode,
        code_verifier: 'v'.repeat(43),
        client_id: clientId,
        redirect_uri: 'http://127.0.0.1:1/cb',
      }).toString(),
    });

    // A session doing work, and a queued tool that fails and is retried until the dead-letter queue answers.
    const auth = bearer(good.key);
    const sessionId = await openSession(undefined, auth);
    const failing = await postJson(
      '/mcp',
      { jsonrpc: '2.0', id: 5, method: 'tools/call', params: { name: 'test_queued_fail', arguments: {} } },
      { ...auth, ...sessionHeaders(sessionId) },
    );
    await messagesOf(failing);
    await waitFor(
      () => pendingCalls(sessionId),
      (p) => p.length === 0,
      15_000,
    );

    expect(printed.length).toBeGreaterThan(0); // something was printed, so the check below means something
    for (const line of printed) for (const secret of secrets) expect(line).not.toContain(secret);
  }, 30_000);
});
