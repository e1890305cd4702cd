import { env } from 'cloudflare:workers';
import { createExecutionContext, waitOnExecutionContext } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import worker from '../../src/worker';
import { bearer, createKey } from '../support/keys';
import { initializeRequest, messagesOf, openSseSession, openSession, ORIGIN, postJson, sessionHeaders } from '../support/mcp';
import { withTasks } from '../support/modern';
import { deliveries, pendingCalls } from '../support/sessionStorage';

const MODERN_META = { 'io.modelcontextprotocol/protocolVersion': '2026-07-28' };

/** The test configuration's 3-per-minute limiter, standing in as REQUEST_LIMITER for one Worker call. */
async function withTinyLimiter(request: Request, vars: Record<string, string> = {}) {
  const tiny = (env as unknown as { TINY_LIMITER: RateLimit }).TINY_LIMITER;
  const ctx = createExecutionContext();
  const response = await worker.fetch(request as Parameters<typeof worker.fetch>[0], { ...env, REQUEST_LIMITER: tiny, ...vars }, ctx);
  await waitOnExecutionContext(ctx);
  return response;
}

const initialize = (key: string) =>
  new Request(`${ORIGIN}/mcp`, {
    method: 'POST',
    headers: { ...bearer(key), 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
    body: JSON.stringify(initializeRequest()),
  });

describe('rate limits', () => {
  it('answers 429 with Retry-After once a principal is over its request budget, and counts each principal apart', async () => {
    const a = (await createKey(['*'])).key;
    const b = (await createKey(['*'])).key;
    const statuses = [];
    for (let i = 0; i < 4; i++) statuses.push((await withTinyLimiter(initialize(a))).status);
    expect(statuses).toEqual([200, 200, 200, 429]);
    const limited = await withTinyLimiter(initialize(a));
    expect(limited.headers.get('retry-after')).toBe('60');
    expect(await limited.json()).toMatchObject({ error: { message: expect.stringMatching(/^Too Many Requests/) } });
    expect((await withTinyLimiter(initialize(b))).status).toBe(200);
  });

  it('counts 2026-07-28 requests against the same budget as the 2025 era', async () => {
    const key = (await createKey(['*'])).key;
    const discover = () =>
      new Request(`${ORIGIN}/mcp`, {
        method: 'POST',
        headers: {
          ...bearer(key),
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          'mcp-protocol-version': '2026-07-28',
          'mcp-method': 'server/discover',
        },
        body: JSON.stringify({
          jsonrpc: '2.0',
          id: 1,
          method: 'server/discover',
          params: { _meta: { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': {} } },
        }),
      });
    const statuses = [(await withTinyLimiter(initialize(key))).status];
    for (let i = 0; i < 3; i++) statuses.push((await withTinyLimiter(discover())).status);
    expect(statuses).toEqual([200, 200, 200, 429]);
  });

  it('lets a deployment turn the limits off (RATE_LIMITS=off, for load tests)', async () => {
    const key = (await createKey(['*'])).key;
    for (let i = 0; i < 5; i++) expect((await withTinyLimiter(initialize(key), { RATE_LIMITS: 'off' })).status).toBe(200);
  });

  it('gives search_nodes a tighter budget, answered as an error result on the stream', async () => {
    const auth = bearer((await createKey(['*'])).key);
    const sessionId = await openSession(undefined, auth);
    const search = async (id: number) => {
      const response = await postJson(
        '/mcp',
        { jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'search_nodes', arguments: { query: 'slack' } } },
        { ...auth, ...sessionHeaders(sessionId) },
      );
      expect(response.status).toBe(200);
      return (await messagesOf(response))[0]!.result;
    };
    // SEARCH_LIMITER allows 60 a minute (wrangler.toml); the request budget is ten times that. Its windows
    // are fixed, so one may end while the test runs: then the refusal comes within the next 60.
    let id = 0;
    let refused: unknown;
    while (id < 121 && refused === undefined) {
      const result = await search(++id);
      if (/Too Many Requests/.test(result.content[0].text)) refused = result;
    }
    expect(id - 1).toBeGreaterThanOrEqual(60);
    expect(id - 1).toBeLessThanOrEqual(120);
    expect(refused).toEqual({
      isError: true,
      content: [{ type: 'text', text: 'Error: Too Many Requests: the rate limit of search_nodes is used up; try again in 60 s' }],
    });
    // Other tools are not held back.
    const info = await postJson(
      '/mcp',
      { jsonrpc: '2.0', id: id + 1, method: 'tools/call', params: { name: 'server_info', arguments: {} } },
      { ...auth, ...sessionHeaders(sessionId) },
    );
    expect((await messagesOf(info))[0]!.result.isError).toBeUndefined();
  });
});

describe('rate limits count JSON-RPC requests, not HTTP requests', () => {
  /** A POST with `key` through withTinyLimiter (3 a minute): JSON bodies on /mcp or /messages. */
  const post = (key: string, path: string, body: unknown, headers: Record<string, string> = {}) =>
    withTinyLimiter(
      new Request(`${ORIGIN}${path}`, {
        method: 'POST',
        headers: { ...bearer(key), 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
        body: JSON.stringify(body),
      }),
    );
  const calls = (n: number, name = 'test_queued_echo') =>
    Array.from({ length: n }, (_, i) => ({ jsonrpc: '2.0', id: i + 1, method: 'tools/call', params: { name, arguments: { text: `${i}` } } }));

  it('POST /mcp: a batch is as many requests as it holds; one over what is left is refused whole, before any of it runs', async () => {
    const key = (await createKey(['*'])).key;
    const sessionId = await openSession(undefined, bearer(key));
    const over = await post(key, '/mcp', calls(4), sessionHeaders(sessionId));
    expect(over.status).toBe(429);
    expect(over.headers.get('retry-after')).toBe('60');
    expect(await over.json()).toEqual({
      jsonrpc: '2.0',
      id: null,
      error: { code: -32600, message: "Too Many Requests: a batch of 4 requests is more than what is left of this credential's request rate limit" },
    });
    // None of its queued calls ran: the session holds none and was handed no result.
    expect(await pendingCalls(sessionId)).toEqual([]);
    expect(await deliveries(sessionId)).toEqual({ delivered: 0, ignored: 0 });
  });

  it('POST /mcp: a batch that fits uses the budget up, and the next request is refused', async () => {
    const key = (await createKey(['*'])).key;
    const sessionId = await openSession(undefined, bearer(key));
    const fits = await post(key, '/mcp', calls(3, 'server_info'), sessionHeaders(sessionId));
    expect(fits.status).toBe(200);
    expect((await messagesOf(fits)).map((m) => m.id).sort()).toEqual([1, 2, 3]);
    expect((await post(key, '/mcp', { jsonrpc: '2.0', id: 9, method: 'ping' }, sessionHeaders(sessionId))).status).toBe(429);
  });

  it('POST /messages: a batch is as many requests as it holds, and no more than 100 messages, as on /mcp', async () => {
    const key = (await createKey(['*'])).key;
    const { endpoint, stream } = await openSseSession(bearer(key));
    const over = await post(key, endpoint, calls(4));
    expect(over.status).toBe(429);
    expect(await over.json()).toMatchObject({ error: { message: expect.stringMatching(/^Too Many Requests: a batch of 4 requests/) } });

    const other = (await createKey(['*'])).key;
    const legacy = await openSseSession(bearer(other));
    for (const path of ['/mcp', legacy.endpoint]) {
      const tooMany = await postJson(path, calls(101, 'server_info'), bearer(other));
      expect(tooMany.status).toBe(400);
      expect(await tooMany.json()).toEqual({
        jsonrpc: '2.0',
        id: null,
        error: { code: -32600, message: 'Invalid Request: a batch of 101 messages; the limit is 100' },
      });
    }
    await stream.cancel();
    await legacy.stream.cancel();
  });

  it('counts one per request in /mcp/sse query mode and for 2026-07-28 tasks: the fourth in a minute is refused', async () => {
    const key = (await createKey(['*'])).key;
    const query = () => withTinyLimiter(new Request(`${ORIGIN}/mcp/sse?method=ping&id=1`, { headers: bearer(key) }));
    const statuses = [];
    for (let i = 0; i < 4; i++) statuses.push((await query()).status);
    expect(statuses).toEqual([200, 200, 200, 429]);

    const tasksKey = (await createKey(['*'])).key;
    const tasksGet = () =>
      post(
        tasksKey,
        '/mcp',
        {
          jsonrpc: '2.0',
          id: 1,
          method: 'tasks/get',
          params: { taskId: 'A'.repeat(43), _meta: { ...MODERN_META, 'io.modelcontextprotocol/clientCapabilities': withTasks } },
        },
        {
          'mcp-protocol-version': '2026-07-28',
          'mcp-method': 'tasks/get',
        },
      );
    const tasks = [];
    for (let i = 0; i < 4; i++) tasks.push((await tasksGet()).status);
    expect(tasks.slice(3)).toEqual([429]);
    expect(tasks.slice(0, 3)).not.toContain(429);
  });

  it('search_nodes keeps its own budget per call, within one batch too', async () => {
    const auth = bearer((await createKey(['*'])).key);
    const sessionId = await openSession(undefined, auth);
    const window = () => Math.floor(Date.now() / 60_000);
    const before = window();
    const response = await postJson(
      '/mcp',
      calls(100, 'search_nodes').map((c) => ({ ...c, params: { name: 'search_nodes', arguments: { query: 'slack' } } })),
      { ...auth, ...sessionHeaders(sessionId) },
    );
    const after = window();
    const texts = (await messagesOf(response)).map((m) => m.result.content[0].text as string);
    const answered = texts.filter((text) => !/Too Many Requests/.test(text)).length;
    // SEARCH_LIMITER allows 60 a minute (wrangler.toml); a fixed window that ends mid-batch allows more.
    if (before === after) expect(answered).toBe(60);
    else expect(answered).toBeGreaterThanOrEqual(60);
    expect(texts).toHaveLength(100);
  });
});
