import { env } from 'cloudflare:workers';
import { LATEST_PROTOCOL_VERSION, type JSONRPCMessage } from '@modelcontextprotocol/server';
import { describe, expect, it } from 'vitest';
import { authInfoOf } from '../../../src/server/caller';
import { createMcpServer } from '../../../src/server/createServer';
import { runDirect, toolContext } from '../../../src/server/runTool';
import { QueryTransport } from '../../../src/sessions/query/QueryTransport';

const caller = { id: 'key_query_transport', subject: 'key_query_transport', scopes: ['*'] };

/** The production server on a query transport for `caller`, its tools run where they are called. */
async function connected() {
  const server = createMcpServer(env, { execute: (tool, args, request) => runDirect(tool, args, toolContext(env, tool, undefined, request)), era: 'sessions' });
  const transport = new QueryTransport(authInfoOf(caller));
  await server.connect(transport);
  return { server, transport };
}

/** A transport whose peer is `answer` instead of a server. */
function withPeer(answer: (message: JSONRPCMessage, transport: QueryTransport) => void) {
  const transport = new QueryTransport(authInfoOf(caller));
  transport.onmessage = (message) => answer(message, transport);
  return transport;
}

describe('the in-process transport of a query', () => {
  it('initializes the server on the caller’s behalf, at the latest protocol version, as a client would; the server then serves requests', async () => {
    const { server, transport } = await connected();
    let told = false;
    server.server.oninitialized = () => (told = true);
    const initialized = await transport.initialize('mcp-sse-query');
    expect(told).toBe(true); // the initialized notification, as a client sends it
    expect(initialized).toMatchObject({ protocolVersion: LATEST_PROTOCOL_VERSION, serverInfo: { name: 'n8n-mcp-edge' } });
    expect(server.server.getClientVersion()).toEqual({ name: 'mcp-sse-query', version: '0' });
    expect(await transport.request({ jsonrpc: '2.0', id: 1, method: 'ping' })).toEqual({ jsonrpc: '2.0', id: 1, result: {} });
    await server.close();
  });

  it('answers each request with its own response, however they interleave', async () => {
    const { server, transport } = await connected();
    await transport.initialize('mcp-sse-query');
    const [call, list, ping] = await Promise.all([
      transport.request({ jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'server_info', arguments: {} } }),
      transport.request({ jsonrpc: '2.0', id: 'list', method: 'tools/list' }),
      transport.request({ jsonrpc: '2.0', id: 5, method: 'ping' }),
    ]);
    expect(call).toMatchObject({ id: 3, result: { structuredContent: { name: 'n8n-mcp-edge' } } });
    expect(list).toMatchObject({ id: 'list', result: { tools: expect.arrayContaining([expect.objectContaining({ name: 'server_info' })]) } });
    expect(ping).toEqual({ jsonrpc: '2.0', id: 5, result: {} });
    await server.close();
  });

  it('hands the server the caller’s auth info with each request', async () => {
    const { server, transport } = await connected();
    await transport.initialize('mcp-sse-query');
    const called = await transport.request({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'test_caller', arguments: {} } });
    expect(called).toMatchObject({ id: 2, result: { structuredContent: caller } });
    await server.close();
  });

  it('takes only a response to a request it sent as that request’s answer', async () => {
    const transport = withPeer((message, peer) => {
      if (!('id' in message) || message.id === undefined) return;
      void peer.send({ jsonrpc: '2.0', method: 'notifications/message', params: { level: 'info', data: 'working' } });
      void peer.send({ jsonrpc: '2.0', id: 'someone else', result: {} });
      void peer.send({ jsonrpc: '2.0', id: message.id, result: { answered: message.id } });
    });
    expect(await transport.request({ jsonrpc: '2.0', id: 7, method: 'ping' })).toEqual({ jsonrpc: '2.0', id: 7, result: { answered: 7 } });
  });

  it('fails the query when the server refuses to initialize', async () => {
    const transport = withPeer((message, peer) => {
      if ('id' in message) void peer.send({ jsonrpc: '2.0', id: message.id, error: { code: -32603, message: 'no' } });
    });
    await expect(transport.initialize('mcp-sse-query')).rejects.toThrow('The server refused to initialize');
  });

  it('tells its server when it closes', async () => {
    const transport = new QueryTransport(authInfoOf(caller));
    let closed = 0;
    transport.onclose = () => closed++;
    await transport.close();
    expect(closed).toBe(1);
  });
});
