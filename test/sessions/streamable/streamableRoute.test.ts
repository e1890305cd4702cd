import { JSONRPCMessageSchema } from '@modelcontextprotocol/core';
import { describe, expect, it, vi } from 'vitest';
import { REQUEST_SCHEMAS } from '../../../src/protocol/messages';
import { ALREADY_INITIALIZED, call, initializeRequest, messagesOf, openSession, postJson, rpc, sessionHeaders, sseReader } from '../../support/mcp';

describe('POST /mcp initialize', () => {
  it('creates a session with an unguessable visible-ASCII id, exposed to browsers', async () => {
    const response = await postJson('/mcp', initializeRequest());
    expect(response.status).toBe(200);
    const id = response.headers.get('mcp-session-id');
    expect(id).toMatch(/^[\x21-\x7e]{32,}$/);
    expect(response.headers.get('access-control-expose-headers')).toMatch(/mcp-session-id/i);
    const [reply] = await messagesOf(response);
    expect(reply).toMatchObject({ id: 1, result: { protocolVersion: '2025-06-18', serverInfo: { name: 'n8n-mcp-edge' } } });
  });

  it.each(['2024-11-05', '2025-03-26', '2025-06-18', '2025-11-25'])('negotiates protocol %s', async (version) => {
    const [reply] = await messagesOf(await postJson('/mcp', initializeRequest(1, version)));
    expect(reply?.result.protocolVersion).toBe(version);
  });

  it('gives each initialize its own session', async () => {
    const a = await openSession();
    const b = await openSession();
    expect(a).not.toBe(b);
  });
});

describe('requests on a session', () => {
  it('lists and calls tools', async () => {
    const sessionId = await openSession();
    const { reply: list } = await rpc(sessionId, 'tools/list');
    const info = list?.result.tools.find((t: { name: string }) => t.name === 'server_info');
    expect(info).toMatchObject({ title: 'Server information', inputSchema: { type: 'object' }, annotations: { readOnlyHint: true } });
    const { reply } = await rpc(sessionId, 'tools/call', { name: 'server_info', arguments: {} }, 3);
    expect(reply?.result.structuredContent).toMatchObject({ name: 'n8n-mcp-edge' });
    expect(JSON.parse(reply?.result.content[0].text)).toEqual(reply?.result.structuredContent);
  });

  it('answers notifications and responses with 202 and no body', async () => {
    const sessionId = await openSession();
    const headers = sessionHeaders(sessionId);
    const note = await postJson('/mcp', { jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 99 } }, headers);
    expect([note.status, await note.text()]).toEqual([202, '']);
    const reply = await postJson('/mcp', { jsonrpc: '2.0', id: 'srv-1', result: {} }, headers);
    expect(reply.status).toBe(202);
  });

  it('requires a session id on anything but initialize (400)', async () => {
    const response = await postJson('/mcp', { jsonrpc: '2.0', id: 1, method: 'tools/list' });
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ error: { code: -32600, message: expect.stringMatching(/Mcp-Session-Id/) } });
    expect((await call('/mcp', { method: 'GET', headers: { accept: 'text/event-stream' } })).status).toBe(400);
    expect((await call('/mcp', { method: 'DELETE' })).status).toBe(400);
  });

  it.each([
    ['well-formed but unknown', 'A'.repeat(43)],
    ['malformed', 'not a session id'],
  ])('answers a %s session id with 404', async (_, sessionId) => {
    const response = await postJson('/mcp', { jsonrpc: '2.0', id: 1, method: 'tools/list' }, { 'mcp-session-id': sessionId });
    expect(response.status).toBe(404);
    expect(await response.json()).toMatchObject({ jsonrpc: '2.0', error: { code: -32600 } });
  });

  it('rejects an unsupported MCP-Protocol-Version with 400', async () => {
    const sessionId = await openSession();
    const response = await postJson(
      '/mcp',
      { jsonrpc: '2.0', id: 1, method: 'tools/list' },
      {
        ...sessionHeaders(sessionId),
        'mcp-protocol-version': '1999-01-01',
      },
    );
    expect(response.status).toBe(400);
    expect(await response.text()).toMatch(/Unsupported protocol version/);
  });

  it('refuses a second initialize on the same session, and the session goes on', async () => {
    const sessionId = await openSession();
    const response = await postJson('/mcp', initializeRequest(5), sessionHeaders(sessionId));
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual(ALREADY_INITIALIZED);
    expect((await rpc(sessionId, 'ping')).reply).toEqual({ jsonrpc: '2.0', id: 2, result: {} });
  });
});

describe('validation', () => {
  it("runs one schema per message of a 2025-era body, from the Worker to the tool (the SDK's own checks aside)", async () => {
    const sessionId = await openSession();
    const ours = [...REQUEST_SCHEMAS.values(), JSONRPCMessageSchema].map((schema) => vi.spyOn(schema, 'safeParse'));
    try {
      const call = { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'server_info', arguments: {} } };
      const [reply] = await messagesOf(await postJson('/mcp', call, sessionHeaders(sessionId)));
      expect(reply).toMatchObject({ id: 2, result: { structuredContent: { name: 'n8n-mcp-edge' } } });
      expect(REQUEST_SCHEMAS.get('tools/call')!.safeParse).toHaveBeenCalledTimes(1);
      expect(ours.reduce((runs, spy) => runs + spy.mock.calls.length, 0)).toBe(1);
      for (const spy of ours) spy.mockClear();
      await messagesOf(
        await postJson(
          '/mcp',
          [
            { jsonrpc: '2.0', id: 3, method: 'ping' },
            { jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken: 1, progress: 1 } },
          ],
          sessionHeaders(sessionId),
        ),
      );
      expect(REQUEST_SCHEMAS.get('ping')!.safeParse).toHaveBeenCalledTimes(1);
      expect(JSONRPCMessageSchema.safeParse).toHaveBeenCalledTimes(1); // the notification
      expect(ours.reduce((runs, spy) => runs + spy.mock.calls.length, 0)).toBe(2);
    } finally {
      for (const spy of ours) spy.mockRestore();
    }
  });
});

describe('Accept header leniency', () => {
  it('serves a client that sends no Accept header', async () => {
    const response = await call('/mcp', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(initializeRequest()),
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('mcp-session-id')).toBeTruthy();
  });

  it('answers plain JSON to a client that accepts only JSON', async () => {
    const sessionId = await openSession();
    const response = await postJson(
      '/mcp',
      { jsonrpc: '2.0', id: 7, method: 'ping' },
      {
        ...sessionHeaders(sessionId),
        accept: 'application/json',
      },
    );
    expect(response.headers.get('content-type')).toMatch(/^application\/json/);
    expect(await response.json()).toEqual({ jsonrpc: '2.0', id: 7, result: {} });
  });
});

describe('GET and DELETE /mcp', () => {
  it('opens one standalone SSE stream per session', async () => {
    const sessionId = await openSession();
    const headers = { ...sessionHeaders(sessionId), accept: 'text/event-stream' };
    const first = await call('/mcp', { method: 'GET', headers });
    expect(first.status).toBe(200);
    expect(first.headers.get('content-type')).toBe('text/event-stream');
    expect(first.headers.get('cache-control')).toBe('no-cache, no-transform');
    expect(first.headers.get('x-accel-buffering')).toBe('no');
    const second = await call('/mcp', { method: 'GET', headers });
    expect(second.status).toBe(409);
    await first.body?.cancel();
  });

  it('terminates the session on DELETE; the id is then unknown', async () => {
    const sessionId = await openSession();
    const deleted = await call('/mcp', { method: 'DELETE', headers: sessionHeaders(sessionId) });
    expect(deleted.status).toBe(200);
    const after = await postJson('/mcp', { jsonrpc: '2.0', id: 1, method: 'tools/list' }, sessionHeaders(sessionId));
    expect(after.status).toBe(404);
  });

  it('closes the standalone stream when the session is deleted', async () => {
    const sessionId = await openSession();
    const stream = await call('/mcp', { method: 'GET', headers: { ...sessionHeaders(sessionId), accept: 'text/event-stream' } });
    const reader = sseReader(stream);
    await call('/mcp', { method: 'DELETE', headers: sessionHeaders(sessionId) });
    await expect(reader.next()).rejects.toThrow('stream ended');
  });
});
