import { env } from 'cloudflare:workers';
import { createExecutionContext, waitOnExecutionContext } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import worker from '../../src/worker';
import { bearer, createKey } from '../support/keys';
import { initializeRequest, messagesOf, openSession, ORIGIN, postJson, sessionHeaders } from '../support/mcp';

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
        headers: { ...bearer(key), 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'server/discover' },
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
    const info = await postJson('/mcp', { jsonrpc: '2.0', id: id + 1, method: 'tools/call', params: { name: 'server_info', arguments: {} } }, { ...auth, ...sessionHeaders(sessionId) });
    expect((await messagesOf(info))[0]!.result.isError).toBeUndefined();
  });
});
