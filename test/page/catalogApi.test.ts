import { env } from 'cloudflare:workers';
import { beforeAll, describe, expect, it } from 'vitest';
import { serializeSpec } from '../../src/catalog/serialize';
import { loadCatalog, seedSpecs } from '../support/catalog';
import { bearer, createKey } from '../support/keys';
import { call, callWithEnv, openSession, rpc } from '../support/mcp';

const PUBLIC = { PUBLIC_CATALOG: 'true' };
const json = async (response: Response) => ({ status: response.status, body: (await response.json()) as any });

beforeAll(async () => {
  await loadCatalog();
});

describe('who may read the catalog API', () => {
  it('needs a credential unless the operator made the catalog public', async () => {
    const response = await call('/api/catalog/search?q=email', { headers: { authorization: '' } });
    expect(response.status).toBe(401);
    expect(response.headers.get('www-authenticate')).toMatch(/^Bearer realm="n8n-mcp", resource_metadata=/);
    expect((await call('/api/me', { headers: { authorization: '' } })).status).toBe(401);
  });

  it('refuses a key without nodes:read with 403 insufficient_scope', async () => {
    const { key } = await createKey(['workflows:read']);
    for (const path of ['/api/catalog/search?q=email', '/api/catalog/spec?type=ACTION_NODE&subtype=HTTP_REQUEST']) {
      const response = await call(path, { headers: bearer(key) });
      expect(response.status, path).toBe(403);
      expect(response.headers.get('www-authenticate'), path).toMatch(/error="insufficient_scope", scope="nodes:read"$/);
      expect((await response.json()) as object).toMatchObject({ error: { message: 'Forbidden: this credential lacks the nodes:read scope' } });
    }
  });

  it('counts searches against the search rate limit, per visitor', async () => {
    const limited = { ...PUBLIC, SEARCH_LIMITER: (env as unknown as { TINY_LIMITER: RateLimit }).TINY_LIMITER };
    const from = (ip: string) => ({ headers: { 'cf-connecting-ip': ip } });
    for (let i = 0; i < 3; i++) expect((await callWithEnv('/api/catalog/search?q=email', limited, from('192.0.2.1'))).status).toBe(200);
    const over = await callWithEnv('/api/catalog/search?q=email', limited, from('192.0.2.1'));
    expect(over.status).toBe(429);
    expect(over.headers.get('retry-after')).toBe('60');
    expect((await callWithEnv('/api/catalog/search?q=email', limited, from('192.0.2.2'))).status).toBe(200);
  });
});

describe('GET /api/catalog/search', () => {
  it('ranks exactly as search_nodes does', async () => {
    const sessionId = await openSession();
    for (const query of ['send email', 'http request', 'gmial approval', 'vector store', 'when a webhook is called']) {
      const { reply } = await rpc(sessionId, 'tools/call', { name: 'search_nodes', arguments: { query, max_results: 20 } });
      const viaMcp = JSON.parse(reply!.result.content[0].text);
      const viaApi = await json(await call(`/api/catalog/search?${new URLSearchParams({ q: query, limit: '20' })}`));
      expect(viaApi).toEqual({ status: 200, body: { query, type: null, results: viaMcp } });
    }
  });

  it('filters by node type, and lists a type by name without a query', async () => {
    const all = (await json(await call('/api/catalog/search?q=send+a+message&limit=50'))).body.results;
    // Fewer than the limit: the unfiltered list has every match, so filtering it is the reference.
    expect(all.length).toBeLessThan(50);
    const filtered = (await json(await call('/api/catalog/search?q=send+a+message&limit=50&type=EXTERNAL_ACTION_NODE'))).body;
    expect(filtered.type).toBe('EXTERNAL_ACTION_NODE');
    expect(filtered.results.length).toBeGreaterThan(0);
    expect(filtered.results).toEqual(all.filter((h: { node_type: string }) => h.node_type === 'EXTERNAL_ACTION_NODE'));

    const browsed = (await json(await call('/api/catalog/search?type=FLOW_NODE'))).body.results;
    expect(browsed.map((h: { subtype: string }) => h.subtype)).toEqual(['FILTER', 'IF', 'LOOP', 'MERGE', 'SWITCH', 'WAIT']);
    const firstTwo = (await json(await call('/api/catalog/search?type=FLOW_NODE&limit=2'))).body.results;
    expect(firstTwo).toEqual(browsed.slice(0, 2));
  });

  it('answers bad parameters 400 with what is wrong', async () => {
    const cases: [string, RegExp][] = [
      ['', /Give a query/],
      ['q=%20%20', /Give a query/],
      ['q=email&limit=0', /limit must be an integer from 1 to 50/],
      ['q=email&limit=51', /limit must be/],
      ['q=email&limit=ten', /limit must be/],
      ['q=email&limit=1e1', /limit must be/],
      ['q=email&limit=0x10', /limit must be/],
      ['q=email&limit=', /limit must be/],
      ['q=email&type=MAGIC_NODE', /Unknown node type "MAGIC_NODE"; known: ACTION_NODE/],
      [`q=${'a'.repeat(501)}`, /longer than 500/],
    ];
    for (const [query, message] of cases) {
      const { status, body } = await json(await call(`/api/catalog/search?${query}`));
      expect(status, query).toBe(400);
      expect(body.error.message, query).toMatch(message);
    }
  });
});

describe('GET /api/catalog/spec', () => {
  it('answers a node’s whole specification with its examples', async () => {
    const spec = seedSpecs().find((s) => s.subtype === 'HTTP_REQUEST')!;
    const { status, body } = await json(await call('/api/catalog/spec?type=ACTION_NODE&subtype=HTTP_REQUEST'));
    expect(status).toBe(200);
    expect(body).toEqual(JSON.parse(JSON.stringify(serializeSpec(spec, { includeExamples: true, includeSchemas: false, detail: 'full' }))));
    expect(body.parameters.map((p: { name: string }) => p.name)).toEqual(spec.parameters.map((p) => p.name));
  });

  it('answers 404 for a node that is not in the catalog and 400 without type and subtype', async () => {
    const missing = await json(await call('/api/catalog/spec?type=ACTION_NODE&subtype=NOPE'));
    expect(missing).toMatchObject({ status: 404, body: { error: { message: 'No node ACTION_NODE/NOPE in the catalog' } } });
    // A made-up name is never looked up, however long (KV keys stop at 512 bytes).
    const long = await json(await call(`/api/catalog/spec?type=ACTION_NODE&subtype=${'x'.repeat(600)}`));
    expect(long).toMatchObject({ status: 404, body: { error: { message: expect.stringMatching(/^No node ACTION_NODE\/x+ in the catalog$/) } } });
    expect((await call('/api/catalog/spec?type=ACTION_NODE')).status).toBe(400);
    expect((await call('/api/catalog/spec?type=WRONG&subtype=HTTP_REQUEST')).status).toBe(400);
  });
});
