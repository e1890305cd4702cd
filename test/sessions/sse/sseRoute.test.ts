import { describe, expect, it } from 'vitest';
import { call, initializeRequest, postJson, sseReader } from '../../support/mcp';

async function openSse(path = '/sse') {
  const response = await call(path);
  expect(response.status).toBe(200);
  expect(response.headers.get('content-type')).toBe('text/event-stream');
  expect(response.headers.get('cache-control')).toBe('no-cache, no-transform');
  expect(response.headers.get('x-accel-buffering')).toBe('no');
  const stream = sseReader(response);
  const endpoint = await stream.next();
  expect(endpoint.event).toBe('endpoint');
  expect(endpoint.data).toMatch(/^\/messages\?sessionId=[A-Za-z0-9_-]{43}$/);
  return { stream, endpoint: endpoint.data };
}

describe.each(['/sse', '/mcp/sse'])('HTTP+SSE transport on GET %s', (path) => {
  it('opens with the endpoint event, takes POSTs with 202 and answers on the stream', async () => {
    const { stream, endpoint } = await openSse(path);
    const init = await postJson(endpoint, initializeRequest(1, '2024-11-05'));
    expect([init.status, await init.text()]).toEqual([202, '']);
    const initReply = await stream.next((f) => f.event === 'message');
    expect(JSON.parse(initReply.data)).toMatchObject({ id: 1, result: { protocolVersion: '2024-11-05' } });

    expect((await postJson(endpoint, { jsonrpc: '2.0', method: 'notifications/initialized' })).status).toBe(202);
    await postJson(endpoint, { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'server_info', arguments: {} } });
    const result = JSON.parse((await stream.next((f) => f.event === 'message')).data);
    expect(result).toMatchObject({ id: 2, result: { structuredContent: { name: 'n8n-mcp-edge' } } });
    await stream.cancel();
  });

  it('ends the session when the client drops the stream: POSTs are taken (202) until the object sees it go, then refused (404) for good', async () => {
    const { stream, endpoint } = await openSse(path);
    const ping = (id: number) => postJson(endpoint, { jsonrpc: '2.0', id, method: 'ping' });
    await postJson(endpoint, initializeRequest(1, '2024-11-05'));
    await stream.next((f) => f.event === 'message');
    const open = await ping(2);
    expect(open.status).toBe(202);
    expect(JSON.parse((await stream.next((f) => f.event === 'message')).data)).toEqual({ jsonrpc: '2.0', id: 2, result: {} });
    await stream.cancel();
    // The object notices the cancelled stream after a moment; until then the session still takes POSTs.
    const statuses: number[] = [];
    for (let i = 0; i < 50 && statuses.at(-1) !== 404; i++) {
      await new Promise((r) => setTimeout(r, 20));
      statuses.push((await ping(3 + i)).status);
    }
    expect(statuses.at(-1)).toBe(404);
    expect(statuses.slice(0, -1).every((status) => status === 202)).toBe(true);
    expect((await ping(99)).status).toBe(404);
  });
});
