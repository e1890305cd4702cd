import { describe, expect, it } from 'vitest';
import { sseToJson } from '../../src/http/accept';

const sse = (body: string) => new Response(body, { status: 200, headers: { 'content-type': 'text/event-stream', 'mcp-session-id': 's1' } });

describe('sseToJson (a JSON-only client of a streamed answer)', () => {
  it('returns the one response of a stream as its JSON body, leaving out the priming event, notifications and keepalives', async () => {
    const stream = [
      'id: 0001\r\ndata: \r\n\r\n',
      ': keepalive\n\n',
      'event: message\ndata: {"jsonrpc":"2.0","method":"notifications/progress","params":{"progress":1}}\n\n',
      // A message split over two data lines is one message (the newline between them is JSON whitespace).
      'event: message\nid: 0002\ndata: {"jsonrpc":"2.0","id":3,\ndata: "result":{"ok":true}}\n\n',
    ].join('');
    const response = await sseToJson(sse(stream));
    expect(response.headers.get('content-type')).toBe('application/json');
    expect(response.headers.get('mcp-session-id')).toBe('s1');
    expect(await response.json()).toEqual({ jsonrpc: '2.0', id: 3, result: { ok: true } });
  });

  it('returns the responses of a batch as a JSON array, errors included', async () => {
    const stream = 'data: {"jsonrpc":"2.0","id":1,"result":{}}\n\ndata: {"jsonrpc":"2.0","id":2,"error":{"code":-32601,"message":"Method not found"}}\n\n';
    expect(await (await sseToJson(sse(stream))).json()).toEqual([
      { jsonrpc: '2.0', id: 1, result: {} },
      { jsonrpc: '2.0', id: 2, error: { code: -32601, message: 'Method not found' } },
    ]);
  });
});
