import { describe, expect, it } from 'vitest';
import type { JSONRPCRequest, JSONRPCResponse } from '@modelcontextprotocol/server';
import { HttpError } from '../../../src/protocol/httpError';
import { parseQueryRequest, queryReply, queryResponseEvent } from '../../../src/sessions/query/queryMessages';
import { call, parseSse, queryMode as query } from '../../support/mcp';

const url = (query: string) => new URL(`https://mcp.example/mcp/sse?${query}`);

/** What parseQueryRequest throws for `query`. */
function refusal(query: string): HttpError {
  try {
    parseQueryRequest(url(query));
  } catch (error) {
    expect(error).toBeInstanceOf(HttpError);
    return error as HttpError;
  }
  throw new Error(`parsed: ${query}`);
}

describe('a query-mode request, rebuilt from the query string', () => {
  it('is the JSON-RPC request spread over jsonrpc, method, id and URL-encoded params', () => {
    const params = { toolId: 'search_nodes', inputs: { query: 'a & b' } };
    expect(parseQueryRequest(url(`jsonrpc=2.0&method=mcp/executeTool&id=7&params=${encodeURIComponent(JSON.stringify(params))}`))).toEqual({
      jsonrpc: '2.0',
      id: 7,
      method: 'mcp/executeTool',
      params,
    });
    // jsonrpc may be left out; empty params are none.
    expect(parseQueryRequest(url('method=ping&id=n8n_req_1&params='))).toEqual({ jsonrpc: '2.0', id: 'n8n_req_1', method: 'ping' });
  });

  it('takes an id of up to 15 digits as a number, and any other id as a string', () => {
    const idOf = (id: string) => parseQueryRequest(url(`method=ping&id=${encodeURIComponent(id)}`)).id;
    expect(idOf('42')).toBe(42);
    expect(idOf('-3')).toBe(-3);
    expect(idOf('123456789012345')).toBe(123456789012345);
    expect(idOf('1234567890123456')).toBe('1234567890123456'); // past what a double holds exactly
    expect(idOf('1.5')).toBe('1.5');
    expect(idOf('007x')).toBe('007x');
  });

  it('is refused as too long (414) past 64 KB of query string, before anything in it is read', () => {
    const pad = 'x'.repeat(64 * 1024);
    expect(refusal(`method=ping&id=6&params=${pad}`)).toMatchObject({ status: 414, code: -32600, message: expect.stringMatching(/query longer/) });
    expect(refusal(`method=ping&id=6&params=${pad.slice(0, -40)}`)).toMatchObject({ status: 400, code: -32700 }); // read: not JSON
  });

  it('refuses an oversized query with an error event', async () => {
    const { message } = await query({ method: 'ping', id: '1', params: JSON.stringify({ pad: 'x'.repeat(70_000) }) });
    expect(message.error).toMatchObject({ code: -32600, message: expect.stringMatching(/query longer/) });
  });

  it('answers malformed /mcp/sse params with an error event, not a broken stream', async () => {
    const response = await call('/mcp/sse?jsonrpc=2.0&method=tools/call&id=4&params=%7Bbroken');
    expect(response.status).toBe(200);
    const [event] = parseSse(await response.text());
    expect(event).toMatchObject({ event: 'mcpResponse', id: '4' });
    expect(JSON.parse(event!.data)).toMatchObject({ jsonrpc: '2.0', id: 4, error: { code: -32700 } });
  });

  it('answers an /mcp/sse request whose params are not an object with -32602', async () => {
    const [event] = parseSse(await (await call('/mcp/sse?method=tools/list&id=x&params=%5B1%5D')).text());
    expect(JSON.parse(event!.data)).toMatchObject({ id: 'x', error: { code: -32602 } });
  });
});

describe('seed 004’s methods', () => {
  it('answers mcp/getServerCapabilities with capabilities and tools carrying toolId', async () => {
    const { event, message } = await query({ jsonrpc: '2.0', method: 'mcp/getServerCapabilities', id: 'n8n_req_1' });
    expect(event.id).toBe('n8n_req_1');
    expect(message).toMatchObject({ jsonrpc: '2.0', id: 'n8n_req_1', result: { capabilities: { tools: {} } } });
    expect(message.result.tools).toContainEqual(expect.objectContaining({ toolId: 'server_info', name: 'server_info' }));
  });

  it('runs mcp/executeTool and returns outputs', async () => {
    const { message } = await query({
      jsonrpc: '2.0',
      method: 'mcp/executeTool',
      id: '2',
      params: JSON.stringify({ toolId: 'server_info', inputs: {} }),
    });
    expect(message.id).toBe(2);
    expect(message.result.outputs).toMatchObject({ name: 'n8n-mcp-edge', transports: expect.any(Array) });
  });
});

describe('the answer to a query-mode tool call', () => {
  const executeTool: JSONRPCRequest = { jsonrpc: '2.0', id: 3, method: 'mcp/executeTool', params: { toolId: 'some_tool', inputs: {} } };
  const called = (result: Record<string, unknown>): JSONRPCResponse => ({ jsonrpc: '2.0', id: 3, result });
  const text = (t: string) => ({ content: [{ type: 'text', text: t }] });

  it('gives mcp/executeTool the outputs: the structured content, else the text read as JSON, else the text itself', () => {
    expect(queryReply(executeTool, called({ ...text('{"a":1}'), structuredContent: { b: 2 } }))).toEqual({
      jsonrpc: '2.0',
      id: 3,
      result: { outputs: { b: 2 }, content: text('{"a":1}').content },
    });
    expect(queryReply(executeTool, called(text('{"a":1}')))).toMatchObject({ result: { outputs: { a: 1 } } });
    expect(queryReply(executeTool, called(text('slept 300 ms')))).toMatchObject({ result: { outputs: { text: 'slept 300 ms' } } });
  });

  it('answers a tool’s failure to mcp/executeTool as an error naming what failed', () => {
    expect(queryReply(executeTool, called({ ...text('n8n said no'), isError: true }))).toEqual({
      jsonrpc: '2.0',
      id: 3,
      error: { code: -32000, message: 'n8n said no', data: text('n8n said no') },
    });
    expect(queryReply(executeTool, called({ content: [], isError: true }))).toMatchObject({ error: { code: -32000, message: 'Tool some_tool failed' } });
  });

  it('leaves a tools/call answer, and an error response, as they are', () => {
    const toolsCall: JSONRPCRequest = { jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'some_tool', arguments: {} } };
    const answer = called({ ...text('x'), isError: true });
    expect(queryReply(toolsCall, answer)).toBe(answer);
    const refused = { jsonrpc: '2.0', id: 3, error: { code: -32602, message: 'bad' } } as unknown as JSONRPCResponse;
    expect(queryReply(executeTool, refused)).toBe(refused);
  });

  it('travels as the stream’s one mcpResponse event, with the request’s id when it has one', () => {
    expect(queryResponseEvent({ jsonrpc: '2.0', id: 9, result: {} }, 9)).toEqual({
      event: 'mcpResponse',
      data: '{"jsonrpc":"2.0","id":9,"result":{}}',
      id: '9',
    });
    expect(queryResponseEvent({ jsonrpc: '2.0', id: null, error: { code: -32700, message: 'x' } }, null)).toEqual({
      event: 'mcpResponse',
      data: '{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"x"}}',
    });
  });
});
