import fc from 'fast-check';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { MAX_JSON_DEPTH } from '../src/protocol/jsonDepth';
import { JSONRPCMessageSchema } from '@modelcontextprotocol/core';
import { loadCatalog } from './support/catalog';
import { anyJson, body, clippedReport, RUNS } from './support/fuzz';
import { pollutedSince, prototypesSnapshot, restorePrototypes } from './support/specialNames';
import { hostileString } from './support/hostileInputs';
import { bearer, createKey } from './support/keys';
import { call, ErrorBodySchema, messagesOf, ORIGIN, openSession, parseSse, postJson, sessionHeaders } from './support/mcp';

beforeAll(async () => {
  await loadCatalog();
});

/** The isolate's built-in prototypes, checked after every request of every property here. */
const pristine = prototypesSnapshot();
afterEach(() => restorePrototypes(pristine));

/**
 * One live session the generated requests aim at, made again whenever one of them ends it, and the
 * key it belongs to: a new key every 250 runs keeps long runs under the per-key rate limit.
 */
let session = '';
let auth: Record<string, string> = {};
let runs = 0;
const LIVE = Symbol('the live session id');

async function freshSession(): Promise<void> {
  if (runs % 250 === 0) auth = bearer((await createKey(['*'])).key);
  session = await openSession(undefined, auth);
}

const printable = fc.string({ unit: fc.integer({ min: 0x20, max: 0x7e }).map((c) => String.fromCharCode(c)), maxLength: 60 });
const header = <T>(...values: T[]) => fc.option(fc.oneof(fc.constantFrom(...values), printable), { nil: undefined });

const MCP_PATHS = ['/mcp', '/sse', '/messages', '/mcp/sse'];
const PATHS = [
  ...MCP_PATHS,
  '/health',
  '/',
  '/authorize',
  '/oauth/token',
  '/oauth/register',
  '/.well-known/oauth-protected-resource/mcp',
  '/.well-known/oauth-authorization-server',
  '/mcp/',
  '/MCP',
];

/** Query strings: seed 004's query mode with any field wrong, a sessionId, or junk. */
const query = fc.oneof(
  fc.record(
    {
      jsonrpc: fc.oneof(fc.constant('2.0'), printable),
      method: fc.oneof(fc.constantFrom('mcp/getServerCapabilities', 'mcp/executeTool', 'tools/list', 'tools/call', 'ping', 'initialize'), printable),
      id: fc.oneof(fc.integer().map(String), printable),
      params: fc.oneof(
        anyJson.map((v) => JSON.stringify(v) ?? ''),
        printable,
        fc.constant(JSON.stringify({ toolId: 'server_info', inputs: {} })),
      ),
    },
    { requiredKeys: [] },
  ),
  fc.record({ sessionId: fc.oneof(fc.constant(LIVE as unknown as string), printable) }),
  fc.dictionary(printable, printable, { maxKeys: 3 }),
);

const request = fc.record({
  method: fc.constantFrom('GET', 'POST', 'DELETE', 'PUT', 'OPTIONS', 'PATCH'),
  path: fc.oneof(
    fc.constantFrom(...PATHS),
    printable.map((p) => `/${encodeURIComponent(p)}`),
  ),
  query,
  accept: header('application/json, text/event-stream', 'application/json', 'text/event-stream', '*/*', 'text/html'),
  contentType: header('application/json', 'application/json; charset=utf-8', 'text/plain', 'application/x-www-form-urlencoded'),
  sessionId: fc.option(fc.oneof(fc.constant(LIVE), fc.constant('A'.repeat(43)), printable), { nil: undefined }),
  protocolVersion: header('2025-06-18', '2025-11-25', '2025-03-26', '2024-11-05', '1999-01-01'),
  origin: header(ORIGIN, 'https://evil.example', 'null', 'http://localhost:6274'),
  authorization: fc.option(
    fc.oneof(
      fc.constant('key'),
      fc.constant(''),
      printable.map((t) => `Bearer ${t}`),
      printable,
    ),
    { nil: undefined },
  ),
  lastEventId: header('0', '1763840000000000'),
  body: fc.oneof(
    body.map((text) => new TextEncoder().encode(text)),
    fc.uint8Array({ maxLength: 64 }),
  ),
});

type Generated = typeof request extends fc.Arbitrary<infer T> ? T : never;

async function send(r: Generated): Promise<Response> {
  const live = (v: unknown) => (v === LIVE ? session : (v as string));
  const params = new URLSearchParams(Object.entries(r.query).map(([k, v]) => [k, live(v)]));
  const headers: Record<string, string> = {};
  const set = (name: string, value: string | undefined) => value !== undefined && (headers[name] = value);
  set('accept', r.accept);
  set('content-type', r.contentType);
  set('mcp-session-id', r.sessionId === undefined ? undefined : live(r.sessionId));
  set('mcp-protocol-version', r.protocolVersion);
  set('origin', r.origin);
  set('last-event-id', r.lastEventId);
  set('authorization', r.authorization === 'key' ? auth.authorization : r.authorization);
  const withBody = r.method !== 'GET' && r.method !== 'OPTIONS';
  return call(`${r.path}${params.size ? `?${params}` : ''}`, { method: r.method, headers, redirect: 'manual', ...(withBody ? { body: r.body } : {}) });
}

/** The session still answers a valid request after whatever was sent. */
async function sessionStillWorks(): Promise<void> {
  const response = await postJson('/mcp', { jsonrpc: '2.0', id: 'after', method: 'ping' }, { ...auth, ...sessionHeaders(session) });
  if (response.status === 404) {
    // Only a DELETE with the session's own credential may have ended it; start another.
    await freshSession();
    return;
  }
  expect(response.status).toBe(200);
  expect(await messagesOf(response)).toContainEqual({ jsonrpc: '2.0', id: 'after', result: {} });
}

describe('the Worker routes, property-based', () => {
  it(`never answers 5xx; errors are well-formed; a valid request after a bad one still succeeds (${RUNS} requests)`, async ({ task }) => {
    await freshSession();
    const before = runs;
    await fc.assert(
      fc.asyncProperty(request, async (r) => {
        if (++runs % 250 === 0) await freshSession();
        const response = await send(r);
        expect(response.status, `${r.method} ${r.path}`).toBeLessThan(500);
        const type = response.headers.get('content-type') ?? '';
        const mcpRoute = MCP_PATHS.includes(r.path);
        // A browser (Accept: text/html) opening a query-mode URL gets the landing page instead.
        const queryMode = r.path === '/mcp/sse' && r.method === 'GET' && 'method' in r.query && response.status === 200 && type.startsWith('text/event-stream');
        if (type.startsWith('text/event-stream') && !queryMode && !(r.method === 'POST' && r.path === '/mcp')) {
          await response.body?.cancel(); // an open stream (GET /mcp, /sse, /mcp/sse): its status is the answer
        } else if (queryMode) {
          // Seed 004's query mode: exactly one mcpResponse event holding a JSON-RPC message, then the end.
          const frames = parseSse(await response.text());
          expect(frames).toHaveLength(1);
          expect(frames[0]!.event).toBe('mcpResponse');
          // A request whose id is missing or invalid is answered with id null, as JSON-RPC 2.0 says (ErrorBodySchema).
          const message: unknown = JSON.parse(frames[0]!.data);
          expect(JSONRPCMessageSchema.safeParse(message).success || ErrorBodySchema.safeParse(message).success, frames[0]!.data).toBe(true);
        } else {
          const text = await response.text();
          if (mcpRoute && response.status >= 400 && type.startsWith('application/json')) {
            expect(ErrorBodySchema.safeParse(JSON.parse(text)).success, text).toBe(true);
          }
        }
        if (r.sessionId === LIVE || Object.values(r.query).includes(LIVE as unknown as string)) await sessionStillWorks();
        expect(pollutedSince(pristine)).toEqual([]);
      }),
      { numRuns: RUNS },
    );
    expect(runs - before).toBe(RUNS);
    task.meta.inputs = runs - before;
  }, 600_000);
});

describe('valid requests nested to any depth, property-based', () => {
  const deep = Math.max(20, Math.round(RUNS / 10));
  it(`answer the live session, query mode and the 2026-07-28 era below the limit, and a 400 past it; never a 5xx (${deep} depths up to 20,000)`, async ({
    task,
  }) => {
    await freshSession();
    const before = runs;
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(fc.integer({ min: 4, max: MAX_JSON_DEPTH + 2 }), fc.integer({ min: 4, max: 20_000 })),
        fc.constantFrom('session', 'query', 'modern'),
        async (depth, route) => {
          if (++runs % 250 === 0) await freshSession();
          // `arguments.x` nests so that the whole message nests `depth` levels (message, params, arguments, then x).
          const x = JSON.parse('['.repeat(depth - 3) + ']'.repeat(depth - 3));
          const params = { name: 'server_info', arguments: { x } };
          const tooDeep = depth > MAX_JSON_DEPTH;
          if (route === 'query') {
            // Its params alone: one level less than the message.
            const response = await call(`/mcp/sse?method=tools/call&id=1&params=${encodeURIComponent(JSON.stringify(params))}`, { headers: auth });
            expect(response.status).toBe(200);
            const reply = JSON.parse(parseSse(await response.text())[0]!.data);
            if (depth - 1 > MAX_JSON_DEPTH) expect(reply.error?.code).toBe(-32600);
            else expect(reply.result?.isError).toBeUndefined();
            return;
          }
          const meta = { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': {} };
          const response =
            route === 'session'
              ? await postJson('/mcp', { jsonrpc: '2.0', id: 1, method: 'tools/call', params }, { ...auth, ...sessionHeaders(session) })
              : await postJson(
                  '/mcp',
                  { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { ...params, _meta: meta } },
                  { ...auth, 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'tools/call', 'mcp-name': 'server_info' },
                );
          expect(response.status, `${route} at ${depth}`).toBe(tooDeep ? 400 : 200);
          if (tooDeep) expect(ErrorBodySchema.safeParse(await response.json()).success).toBe(true);
          else await response.body?.cancel();
        },
      ),
      { numRuns: deep },
    );
    task.meta.inputs = runs - before;
  }, 120_000);
});

describe('batches, property-based', () => {
  /** Calls whose arguments hold a hostile string, pings, and cancellations of calls of the same batch. */
  const message = (id: number) =>
    fc.oneof(
      {
        weight: 4,
        arbitrary: fc
          .record({
            name: fc.constantFrom('validate_workflow', 'autofix_workflow', 'search_nodes', 'get_node_details', 'validate_node', 'server_info'),
            text: hostileString,
          })
          .map(({ name, text }) => ({
            jsonrpc: '2.0',
            id,
            method: 'tools/call',
            params: {
              name,
              arguments: {
                workflow: { nodes: [{ name: text, type: text, typeVersion: 1, parameters: { [text.slice(0, 50)]: text } }], connections: {} },
                query: text.slice(0, 200),
                node_type: text.slice(0, 100),
                type: text.slice(0, 100),
                typeVersion: 1,
              },
            },
          })),
      },
      { weight: 1, arbitrary: fc.constant({ jsonrpc: '2.0', id, method: 'ping' }) },
      {
        weight: 1,
        arbitrary: fc.nat({ max: 20 }).map((of) => ({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: of, reason: 'fuzz' } })),
      },
    );
  const batch = fc
    .oneof({ weight: 9, arbitrary: fc.integer({ min: 1, max: 8 }) }, { weight: 1, arbitrary: fc.integer({ min: 90, max: 120 }) })
    .chain((n) => fc.tuple(...Array.from({ length: n }, (_, i) => message(i))));
  /** Past this a batch is held, not slow: every call in it answers or is cancelled well before. */
  const HANG_MS = 20_000;

  it(`ends every batch, with a status below 500, prototypes untouched (${RUNS} batches)`, async ({ task }) => {
    await freshSession();
    const before = runs;
    await fc.assert(
      fc.asyncProperty(batch, async (messages) => {
        // A key every 20 batches: each call counts against its limit, and a refusal (429) is not what is tried here.
        if (++runs % 20 === 0) {
          auth = bearer((await createKey(['*'])).key);
          session = await openSession(undefined, auth);
        }
        const body = JSON.stringify(messages);
        const request = postJson('/mcp', body, { ...auth, ...sessionHeaders(session) });
        let timer: ReturnType<typeof setTimeout> | undefined;
        const held = new Promise<'held'>((resolve) => (timer = setTimeout(() => resolve('held'), HANG_MS)));
        const outcome = await Promise.race([request.then(async (r) => [r.status, await r.text()] as const), held]);
        clearTimeout(timer);
        expect(outcome, body.slice(0, 300)).not.toBe('held');
        expect((outcome as readonly [number, string])[0]).toBeLessThan(500);
        expect(pollutedSince(pristine), body.slice(0, 300)).toEqual([]);
      }),
      { numRuns: RUNS, asyncReporter: async (details) => clippedReport(details) },
    );
    task.meta.inputs = runs - before;
  }, 1_800_000);
});
