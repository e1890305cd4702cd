import { JSONRPCMessageSchema } from '@modelcontextprotocol/core';
import { describe, expect, it, vi } from 'vitest';
import { REQUEST_SCHEMAS } from '../../src/protocol/messages';
import { call, openSession, postJson, rpc, sessionHeaders } from '../support/mcp';
import { modern } from '../support/modern';

/** A session id no session has: a request naming it that reached the sessions would be answered 404. */
const NO_SUCH_SESSION = sessionHeaders('a'.repeat(43));

/** Runs `send` while counting the runs of this server's own schemas (src/protocol/messages.ts). */
async function countingOurSchemas<T>(send: () => Promise<T>): Promise<{ result: T; runs: number }> {
  const spies = [...REQUEST_SCHEMAS.values(), JSONRPCMessageSchema].map((schema) => vi.spyOn(schema, 'safeParse'));
  try {
    const result = await send();
    return { result, runs: spies.reduce((runs, spy) => runs + spy.mock.calls.length, 0) };
  } finally {
    for (const spy of spies) spy.mockRestore();
  }
}

/** Every bad input gets a clear error of the right kind, and never a 5xx. */
describe('bad input on POST /mcp', () => {
  it.each([
    ['invalid JSON', '{"jsonrpc":', 400, -32700, 'Parse error: body is not valid JSON'],
    ['a JSON array of scalars', '[1,2]', 400, -32600, 'Invalid Request: expected a JSON-RPC object, got number (batch item 0)'],
    ['a JSON scalar', '"hello"', 400, -32600, 'Invalid Request: expected a JSON-RPC object, got string'],
    ['null', 'null', 400, -32600, 'Invalid Request: expected a JSON-RPC object, got null'],
    ['an empty batch', '[]', 400, -32600, 'Invalid Request: an empty batch'],
    ['a message without jsonrpc', '{"id":1,"method":"initialize"}', 400, -32600, 'Invalid Request: "jsonrpc" must be "2.0"'],
    ['a request without method', '{"jsonrpc":"2.0","id":1}', 400, -32600, 'Invalid Request: missing "method"'],
    ['a method that is no string', '{"jsonrpc":"2.0","id":1,"method":5}', 400, -32600, 'Invalid Request: "method" must be a string'],
    [
      'initialize without clientInfo',
      '{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{}}}',
      400,
      -32602,
      'Invalid params for initialize: clientInfo: Invalid input: expected object, received undefined',
    ],
  ])('rejects %s before any session is touched, naming what is wrong', async (_, body, status, code, message) => {
    const response = await postJson('/mcp', body);
    expect(response.status).toBe(status);
    expect(response.headers.get('mcp-session-id')).toBeNull();
    const reply = (await response.json()) as { id: unknown };
    expect(reply).toEqual({ jsonrpc: '2.0', id: body.includes('"id":1') ? 1 : null, error: { code, message } });
  });

  it('rejects a body over 4 MiB with 413', async () => {
    const big = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping', params: { pad: 'x'.repeat(4 * 1024 * 1024) } });
    const response = await postJson('/mcp', big);
    expect(response.status).toBe(413);
    expect(await response.json()).toMatchObject({ error: { message: expect.stringMatching(/Payload Too Large/) } });
  });

  it('rejects a non-JSON content type with 415', async () => {
    const response = await call('/mcp', { method: 'POST', headers: { 'content-type': 'text/plain' }, body: '{}' });
    expect(response.status).toBe(415);
  });

  it('rejects invalid UTF-8 with a parse error', async () => {
    const response = await call('/mcp', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: new Uint8Array([0x7b, 0xff, 0xfe, 0x7d]),
    });
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ error: { code: -32700 } });
  });

  it('answers an unknown method with -32601 and keeps the session usable', async () => {
    const sessionId = await openSession();
    const { reply } = await rpc(sessionId, 'no/such/method');
    expect(reply?.error).toMatchObject({ code: -32601 });
    const { reply: ping } = await rpc(sessionId, 'ping', undefined, 3);
    expect(ping?.result).toEqual({});
  });

  it('answers invalid params with -32602 or an isError result naming the problem', async () => {
    const sessionId = await openSession();
    const { reply: unknownTool } = await rpc(sessionId, 'tools/call', { name: 'no_such_tool', arguments: {} });
    const problem = unknownTool?.error ?? unknownTool?.result;
    expect(JSON.stringify(problem)).toMatch(/no_such_tool/);
    const missingName = await postJson('/mcp', { jsonrpc: '2.0', id: 3, method: 'tools/call', params: { arguments: {} } }, sessionHeaders(sessionId));
    expect(missingName.status).toBe(400);
    expect(await missingName.json()).toMatchObject({ id: 3, error: { code: -32602, message: expect.stringMatching(/tools\/call: name/) } });
    const { reply: wrongType } = await rpc(sessionId, 'logging/setLevel', { level: 'loud' }, 4);
    expect(wrongType?.error).toMatchObject({ code: -32602, message: expect.stringMatching(/level/) });
  });
});

describe('the era of a POST /mcp, decided first', () => {
  it('refuses a 2025-era body with bad params (-32602) here, before any session object wakes', async () => {
    // The session it names does not exist: had the request reached the sessions, it would be a 404.
    const response = await postJson('/mcp', { jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 3 } }, NO_SUCH_SESSION);
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({
      jsonrpc: '2.0',
      id: 3,
      error: { code: -32602, message: 'Invalid params for tools/call: name: Invalid input: expected string, received number' },
    });
    expect((await postJson('/mcp', { jsonrpc: '2.0', id: 4, method: 'tools/call', params: { name: 'server_info' } }, NO_SUCH_SESSION)).status).toBe(404);
  });

  it('answers a body that is no JSON-RPC message by the 2025 era’s validation, naming what is wrong, on a session too', async () => {
    const sessionId = await openSession();
    for (const headers of [{}, sessionHeaders(sessionId)]) {
      const response = await postJson('/mcp', { jsonrpc: '1.0', id: 5, method: 'ping' }, headers);
      expect(response.status).toBe(400);
      expect(await response.json()).toEqual({ jsonrpc: '2.0', id: 5, error: { code: -32600, message: 'Invalid Request: "jsonrpc" must be "2.0"' } });
    }
  });

  it('leaves a 2026-07-28 request’s params to the SDK that serves it: its -32602, with none of our schemas run', async () => {
    const { result: refused, runs } = await countingOurSchemas(() => modern('tools/call', { name: 3, arguments: {} }));
    expect(refused.body).toEqual({ jsonrpc: '2.0', id: refused.id, error: { code: -32602, message: expect.stringMatching(/^Invalid tools\/call request: /) } });
    expect(refused.body.error.message).toMatch(/"name"[\s\S]*expected string, received number/);
    expect(runs).toBe(0);
    // A good one runs none of them either.
    const { result: served, runs: none } = await countingOurSchemas(() => modern('tools/call', { name: 'server_info', arguments: {} }));
    expect(served.body.result.structuredContent).toMatchObject({ name: 'n8n-mcp-edge' });
    expect(none).toBe(0);
  });

  it('refuses a request that names a session while carrying the 2026-07-28 envelope: HeaderMismatch (-32020)', async () => {
    const mixed = await modern('tools/list', {}, { headers: { 'mcp-session-id': 'a'.repeat(43) } });
    expect(mixed.status).toBe(400);
    expect(mixed.body).toMatchObject({ id: mixed.id, error: { code: -32020 } });
    // Of a live session too: the session is not where a 2026-07-28 request goes.
    const sessionId = await openSession();
    const onSession = await modern('tools/list', {}, { headers: { 'mcp-session-id': sessionId } });
    expect(onSession.body).toMatchObject({ id: onSession.id, error: { code: -32020 } });
    expect((await rpc(sessionId, 'ping')).reply).toEqual({ jsonrpc: '2.0', id: 2, result: {} });
  });
});
