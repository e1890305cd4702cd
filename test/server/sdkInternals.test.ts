import { McpServer, WebStandardStreamableHTTPServerTransport, type EventStore, type JSONRPCMessage } from '@modelcontextprotocol/server';
import { describe, expect, it } from 'vitest';
import { requestHandlers, STANDALONE_STREAM_ID, streamBookkeeping, wrapRequestHandler } from '../../src/server/sdkInternals';
import { parseSse } from '../support/mcp';

/**
 * Each SDK private this server reaches (src/server/sdkInternals.ts), checked on a real SDK server and
 * transport doing the work this server relies on it for: an SDK upgrade that renames, drops or
 * repurposes one fails here, under its name.
 */
const SESSION = 'session-under-test';
const VERSION = '2025-11-25';
const headers = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
const inSession = { ...headers, 'mcp-session-id': SESSION, 'mcp-protocol-version': VERSION };
const initialize = {
  jsonrpc: '2.0',
  id: 0,
  method: 'initialize',
  params: { protocolVersion: VERSION, capabilities: {}, clientInfo: { name: 'vitest', version: '1' } },
};
const post = (body: unknown, sent: Record<string, string> = inSession) =>
  new Request('https://mcp.test/mcp', { method: 'POST', headers: sent, body: JSON.stringify(body) });
const toolCall = (id: number, name = 'wait') => ({ jsonrpc: '2.0', id, method: 'tools/call', params: { name, arguments: {} } });

/** Events in memory, numbered: enough for the SDK to write ids on its events. */
class MemoryEventStore implements EventStore {
  readonly events: [string, string, JSONRPCMessage][] = [];
  async storeEvent(streamId: string, message: JSONRPCMessage) {
    const id = String(this.events.length + 1);
    this.events.push([id, streamId, message]);
    return id;
  }
  async replayEventsAfter() {
    return '';
  }
}

/** A connected server with a tool `wait` that answers when the test releases it, and `now`, which answers at once. */
async function connected(options: { eventStore?: EventStore } = {}) {
  const server = new McpServer({ name: 'internals', version: '1' });
  const release: (() => void)[] = [];
  server.registerTool('wait', { description: 'waits' }, () => new Promise((resolve) => release.push(() => resolve({ content: [] }))));
  server.registerTool('now', { description: 'answers at once' }, () => ({ content: [{ type: 'text', text: 'now' }] }));
  const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: () => SESSION, keepAliveMs: 0, ...options });
  await server.connect(transport);
  await (await transport.handleRequest(post(initialize, headers))).text();
  return { server, transport, bookkeeping: streamBookkeeping(transport), release: () => release.shift()?.() };
}

const tick = () => new Promise((resolve) => setTimeout(resolve, 0));

describe('the MCP SDK privates this server relies on', () => {
  it('McpServer.server still keeps `_requestHandlers` as a Map by method, whose entries it dispatches to', async () => {
    const { server, transport } = await connected();
    expect(requestHandlers(server).has('tools/call')).toBe(true);
    wrapRequestHandler(server, 'tools/list', (list) => async (request, ctx) => ({ ...(await list(request, ctx)), wrapped: true }));
    const [reply] = parseSse(await (await transport.handleRequest(post({ jsonrpc: '2.0', id: 1, method: 'tools/list' }))).text());
    expect(JSON.parse(reply!.data).result).toMatchObject({ wrapped: true, tools: [{ name: 'wait' }, { name: 'now' }] });
  });

  it('WebStandardStreamableHTTPServerTransport still keeps `_streamMapping` as a Map of the SSE streams it writes, each with its controller and a cleanup that ends the body', async () => {
    const { transport, bookkeeping } = await connected();
    const response = await transport.handleRequest(post(toolCall(1)));
    const [streamId, stream] = [...bookkeeping.streams].find(([id]) => id !== STANDALONE_STREAM_ID)!;
    expect(typeof streamId).toBe('string');
    expect(stream.controller).toBeDefined();
    stream.controller!.enqueue(new TextEncoder().encode(': written by the test\n\n'));
    stream.cleanup();
    expect(bookkeeping.streams.has(streamId)).toBe(false);
    expect(await response.text()).toBe(': written by the test\n\n'); // ended: text() returns
  });

  it('WebStandardStreamableHTTPServerTransport still keeps `_requestToStreamMapping` as a Map from each request id to the stream answering it', async () => {
    const { transport, bookkeeping, release } = await connected();
    const response = await transport.handleRequest(post(toolCall(7)));
    const streamId = bookkeeping.requestStreams.get(7);
    expect(bookkeeping.streams.has(streamId!)).toBe(true);
    release();
    await response.text();
    expect(bookkeeping.requestStreams.has(7)).toBe(false); // forgotten once the stream is done
  });

  it('WebStandardStreamableHTTPServerTransport still keeps `_requestResponseMap` as a Map of answers sent while others of their stream are pending', async () => {
    const { transport, bookkeeping, release } = await connected();
    const response = await transport.handleRequest(post([toolCall(1, 'now'), toolCall(2)]));
    for (let i = 0; i < 10 && !bookkeeping.answers.has(1); i++) await tick();
    expect(bookkeeping.answers.get(1)).toMatchObject({ id: 1, result: { content: [{ text: 'now' }] } });
    expect(bookkeeping.answers.has(2)).toBe(false);
    release();
    expect(parseSse(await response.text()).map((frame) => JSON.parse(frame.data).id)).toEqual([1, 2]);
    expect(bookkeeping.answers.size).toBe(0);
  });

  it('WebStandardStreamableHTTPServerTransport still keeps `_initialized` as the flag that lets requests of a session it did not initialize itself through', async () => {
    const server = new McpServer({ name: 'internals', version: '1' });
    const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: () => SESSION, keepAliveMs: 0 });
    await server.connect(transport);
    transport.sessionId = SESSION;
    const before = await transport.handleRequest(post({ jsonrpc: '2.0', id: 1, method: 'ping' }));
    expect(before.status).toBe(400);
    expect(await before.json()).toMatchObject({ error: { message: 'Bad Request: Server not initialized' } });
    streamBookkeeping(transport).markInitialized();
    const after = await transport.handleRequest(post({ jsonrpc: '2.0', id: 2, method: 'ping' }));
    expect(after.status).toBe(200);
  });

  it(`WebStandardStreamableHTTPServerTransport still names the session's GET stream \`_standaloneSseStreamId\` = "${STANDALONE_STREAM_ID}"`, async () => {
    const eventStore = new MemoryEventStore();
    const { transport, bookkeeping } = await connected({ eventStore });
    const response = await transport.handleRequest(
      new Request('https://mcp.test/mcp', { headers: { accept: 'text/event-stream', 'mcp-session-id': SESSION } }),
    );
    expect(response.status).toBe(200);
    expect(bookkeeping.streams.has(STANDALONE_STREAM_ID)).toBe(true);
    await transport.send({ jsonrpc: '2.0', method: 'notifications/message', params: { level: 'info', data: 'x' } });
    expect(eventStore.events.at(-1)?.[1]).toBe(STANDALONE_STREAM_ID); // the event store files its events under it
  });

  it('WebStandardStreamableHTTPServerTransport still writes every event with an id through `writeSSEEvent`', async () => {
    const eventStore = new MemoryEventStore();
    const { transport, bookkeeping } = await connected({ eventStore });
    const written: string[] = [];
    bookkeeping.onEventWritten((_, eventId) => written.push(eventId));
    const frames = parseSse(await (await transport.handleRequest(post(toolCall(3, 'now')))).text());
    const answer = frames.find((frame) => frame.data !== '')!;
    expect(written).toEqual([answer.id]);
  });

  it('refuses, by name, an SDK whose transport lacks one of them', () => {
    const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: () => SESSION });
    delete (transport as unknown as Record<string, unknown>)._requestResponseMap;
    expect(() => streamBookkeeping(transport).answers).toThrow(
      'MCP SDK changed: WebStandardStreamableHTTPServerTransport has no _requestResponseMap of the expected kind',
    );
  });
});
