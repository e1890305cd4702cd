import { describe, expect, it } from 'vitest';
import { MAX_JSON_DEPTH } from '../src/protocol/jsonDepth';
import { call, messagesOf, openSseSession, openSession, parseSse, postJson, sessionHeaders } from './support/mcp';
import { modern, withTasks } from './support/modern';

/** Every bad input gets a clear error of the right kind, and never a 5xx. */
describe('bad input on POST /mcp', () => {
  it('answers 404 to a session id of another transport kind', async () => {
    const sse = await call('/sse');
    const endpoint = parseSse(
      await sse
        .body!.getReader()
        .read()
        .then((r) => new TextDecoder().decode(r.value)),
    )[0]!;
    const legacyId = new URL(endpoint.data, 'https://x').searchParams.get('sessionId')!;
    const response = await postJson('/mcp', { jsonrpc: '2.0', id: 1, method: 'tools/list' }, sessionHeaders(legacyId));
    expect(response.status).toBe(404);
    await sse.body?.cancel().catch(() => {});

    const streamable = await openSession();
    const message = await postJson(`/messages?sessionId=${streamable}`, { jsonrpc: '2.0', id: 1, method: 'ping' });
    expect(message.status).toBe(404);
  });
});

describe('bad input on the other routes', () => {
  it('answers /messages without a sessionId with 400 and an unknown one with 404', async () => {
    const ping = { jsonrpc: '2.0', id: 1, method: 'ping' };
    expect((await postJson('/messages', ping)).status).toBe(400);
    expect((await postJson(`/messages?sessionId=${'B'.repeat(43)}`, ping)).status).toBe(404);
    expect((await postJson('/messages?sessionId=nope', ping)).status).toBe(404);
  });

  it('answers unknown routes with 404 and wrong methods with 405 and Allow', async () => {
    expect((await call('/nope')).status).toBe(404);
    const put = await call('/mcp', { method: 'PUT' });
    expect(put.status).toBe(405);
    expect(put.headers.get('allow')).toBe('GET, POST, DELETE, OPTIONS');
    expect((await call('/messages')).status).toBe(405);
  });
});

/**
 * `arguments` whose value `x` nests `depth` levels in all: the message's own three (message, params,
 * arguments) and `x`'s arrays.
 */
const argumentsNested = (depth: number) => ({ x: JSON.parse('['.repeat(depth - 3) + ']'.repeat(depth - 3)) });
const TOO_DEEP = 4000;
const refusedDepth = { code: -32600, message: `Invalid Request: the body nests objects and arrays deeper than ${MAX_JSON_DEPTH} levels, the limit` };

describe('JSON nested past the limit, on every route that reads JSON', () => {
  it('POST /mcp (2025 era): 400 naming the limit, where it was a 503 to retry forever; the session goes on', async () => {
    const sessionId = await openSession();
    const call = (depth: number) =>
      postJson(
        '/mcp',
        { jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'server_info', arguments: argumentsNested(depth) } },
        sessionHeaders(sessionId),
      );
    const deep = await call(TOO_DEEP);
    expect(deep.status).toBe(400);
    expect(deep.headers.get('retry-after')).toBeNull();
    expect(await deep.json()).toEqual({ jsonrpc: '2.0', id: null, error: refusedDepth });
    const atLimit = await call(MAX_JSON_DEPTH);
    expect(atLimit.status).toBe(200);
    expect((await messagesOf(atLimit))[0]).toMatchObject({ id: 3, result: { structuredContent: { name: 'n8n-mcp-edge' } } });
  });

  it('POST /mcp (2026-07-28): 400 naming the limit, before a task is made of it', async () => {
    const deep = await modern('tools/call', { name: 'slow_compute', arguments: { seconds: 0, ...argumentsNested(TOO_DEEP) } }, { capabilities: withTasks });
    expect(deep.status).toBe(400);
    expect(deep.body).toEqual({ jsonrpc: '2.0', id: null, error: refusedDepth });
    const atLimit = await modern(
      'tools/call',
      { name: 'slow_compute', arguments: { seconds: 0, ...argumentsNested(MAX_JSON_DEPTH) } },
      { capabilities: withTasks },
    );
    expect(atLimit.body.result).toMatchObject({ resultType: 'task', status: 'working' });
  });

  it('POST /messages: 400 naming the limit; the session goes on', async () => {
    const { endpoint, stream } = await openSseSession();
    const message = (depth: number) =>
      postJson(endpoint, { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'server_info', arguments: argumentsNested(depth) } });
    const deep = await message(TOO_DEEP);
    expect(deep.status).toBe(400);
    expect(await deep.json()).toEqual({ jsonrpc: '2.0', id: null, error: refusedDepth });
    expect((await message(MAX_JSON_DEPTH)).status).toBe(202);
    expect(JSON.parse((await stream.next((f) => f.event === 'message')).data)).toMatchObject({
      id: 2,
      result: { structuredContent: { name: 'n8n-mcp-edge' } },
    });
    await stream.cancel();
  });

  it('GET /mcp/sse query mode: an error event naming the limit', async () => {
    // The query's params are the message's params: one level less than a body.
    const query = (depth: number) =>
      `/mcp/sse?method=tools/call&id=5&params=${encodeURIComponent(JSON.stringify({ name: 'server_info', arguments: argumentsNested(depth + 1) }))}`;
    const [deep] = parseSse(await (await call(query(TOO_DEEP))).text());
    expect(JSON.parse(deep!.data)).toEqual({
      jsonrpc: '2.0',
      id: 5,
      error: { code: -32600, message: `Invalid Request: "params" nests objects and arrays deeper than ${MAX_JSON_DEPTH} levels, the limit` },
    });
    const [atLimit] = parseSse(await (await call(query(MAX_JSON_DEPTH))).text());
    expect(JSON.parse(atLimit!.data)).toMatchObject({ id: 5, result: { structuredContent: { name: 'n8n-mcp-edge' } } });
  });
});
