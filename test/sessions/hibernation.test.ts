import { env } from 'cloudflare:workers';
import { evictDurableObject, runDurableObjectAlarm, runInDurableObject } from 'cloudflare:test';
import type { SessionRecord } from '../../src/sessions/session';
import { describe, expect, it } from 'vitest';
import type { SessionObject } from '../../src/sessions/SessionObject';
import { sessionStub } from '../../src/sessions/sessionId';
import { newSessionId } from '../../src/lib/sessionIds';
import { PRINCIPAL_HEADER } from '../../src/sessions/handoff/handoff';
import { PARKED, QUERY_STREAM_ID } from '../../src/sessions/query/queryMessages';
import { inSessionStorage, pendingCalls, sleep, waitFor } from '../support/sessionStorage';
import { call, initializeRequest, ORIGIN, openSession, parseSse, postJson, sessionHeaders, sseReader } from '../support/mcp';

/**
 * The Worker holds the clients' streams; a session object only keeps hibernatable sockets to it. So
 * an object whose client waits holds no request, and evictDurableObject (which waits for in-flight
 * requests to drain) evicts it at once, mid-call; the client's streams stay open, and the answer
 * reaches them from the object rebuilt out of storage.
 */
const VERSION = '2025-11-25';
const sockets = (sessionId: string) => runInDurableObject(sessionStub(env, sessionId), (_: SessionObject, state) => state.getWebSockets().length);
/** Resolves 'open' if the stream neither ends nor sends within `ms`. */
const stillOpen = (next: Promise<unknown>, ms = 200) =>
  Promise.race([
    next.then(
      () => 'sent',
      () => 'ended',
    ),
    sleep(ms).then(() => 'open'),
  ]);

describe('idle clients cost their session object nothing', () => {
  it('evicts a Streamable HTTP session mid-call; the call is answered on its stream and the GET stream stays open', async () => {
    const sessionId = await openSession(VERSION);
    const headers = sessionHeaders(sessionId, VERSION);
    const standalone = sseReader(await call('/mcp', { headers: { accept: 'text/event-stream', ...headers } }));
    const params = { name: 'test_queued_slow', arguments: { ms: 600 } };
    const post = sseReader(await postJson('/mcp', { jsonrpc: '2.0', id: 7, method: 'tools/call', params }, headers));
    await post.next(); // the priming event
    // Both streams handed to the Worker: the GET at once, the POST once its call is queued.
    expect(
      await waitFor(
        () => sockets(sessionId),
        (n) => n === 2,
      ),
    ).toBe(2);

    await evictDurableObject(sessionStub(env, sessionId));
    // Evicted while its call was still pending: nothing in the object waited on it.
    expect(await pendingCalls(sessionId)).toHaveLength(1);

    const answer = JSON.parse((await post.next((frame) => frame.data !== '')).data);
    expect(answer).toEqual({ jsonrpc: '2.0', id: 7, result: { content: [{ type: 'text', text: 'slept 600 ms' }] } });
    expect(await stillOpen(standalone.next())).toBe('open');
    await standalone.cancel();
  });

  it('leaves no SDK keep-alive timer on a stream it handed to the Worker (a timer keeps an object from hibernating)', async () => {
    // The SDK arms a keep-alive interval per SSE body it writes; the Worker keeps held streams alive itself.
    const live = new Set<unknown>();
    let armed = 0;
    const { setInterval: set, clearInterval: clear } = globalThis;
    globalThis.setInterval = ((handler: () => void, ms?: number) => {
      const timer = set(handler, ms);
      if (/startKeepAlive/.test(new Error().stack ?? '')) {
        armed++;
        live.add(timer);
      }
      return timer;
    }) as typeof setInterval;
    globalThis.clearInterval = ((timer: Parameters<typeof clearInterval>[0]) => {
      live.delete(timer);
      clear(timer);
    }) as typeof clearInterval;
    try {
      const sessionId = await openSession(VERSION);
      const headers = sessionHeaders(sessionId, VERSION);
      const standalone = sseReader(await call('/mcp', { headers: { accept: 'text/event-stream', ...headers } }));
      const params = { name: 'test_queued_slow', arguments: { ms: 300 } };
      const post = sseReader(await postJson('/mcp', { jsonrpc: '2.0', id: 8, method: 'tools/call', params }, headers));
      expect(
        await waitFor(
          () => sockets(sessionId),
          (n) => n === 2,
        ),
      ).toBe(2); // both streams parked
      expect(armed).toBeGreaterThanOrEqual(2); // one per body the object wrote: the GET's and the POST's
      expect(live.size).toBe(0);
      await post.next((frame) => frame.data !== '');
      await standalone.cancel();
    } finally {
      Object.assign(globalThis, { setInterval: set, clearInterval: clear });
    }
  });

  it('evicts an HTTP+SSE session between and during calls; its server comes back initialized on the same stream', async () => {
    const stream = sseReader(await call('/sse'));
    const endpoint = (await stream.next()).data;
    const sessionId = new URL(endpoint, ORIGIN).searchParams.get('sessionId')!;
    await postJson(endpoint, initializeRequest(1, '2024-11-05'));
    await stream.next((frame) => frame.event === 'message');
    await postJson(endpoint, { jsonrpc: '2.0', method: 'notifications/initialized' });

    await evictDurableObject(sessionStub(env, sessionId));
    await postJson(endpoint, { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'test_queued_slow', arguments: { ms: 400 } } });
    await evictDurableObject(sessionStub(env, sessionId));
    expect(await pendingCalls(sessionId)).toHaveLength(1);
    expect(JSON.parse((await stream.next((frame) => frame.event === 'message')).data)).toMatchObject({
      id: 2,
      result: { content: [{ text: 'slept 400 ms' }] },
    });

    // A server rebuilt without the client's initialize would refuse this with "not initialized".
    await evictDurableObject(sessionStub(env, sessionId));
    await postJson(endpoint, { jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'server_info', arguments: {} } });
    expect(JSON.parse((await stream.next((frame) => frame.event === 'message')).data)).toMatchObject({ id: 3, result: { content: [{ type: 'text' }] } });
    await stream.cancel();
  });

  it('lets a query-mode object sleep while its queued call runs; the answer waits for the Worker’s socket', async () => {
    const id = newSessionId();
    const stub = sessionStub(env, id);
    const principal = { id: 'key_hibernation', subject: 'key_hibernation', scopes: ['*'] };
    const request = { jsonrpc: '2.0' as const, id: 9, method: 'mcp/executeTool', params: { toolId: 'test_queued_slow', inputs: { ms: 300 } } };
    expect(await stub.serveQuery(request, id, principal)).toBe(PARKED);
    await evictDurableObject(stub);
    expect(await pendingCalls(id)).toHaveLength(1);
    await waitFor(
      () => pendingCalls(id),
      (p) => p.length === 0,
    ); // answered while nobody held the socket
    const upgrade = await stub.fetch(`https://session/stream?id=${QUERY_STREAM_ID}`, {
      headers: { upgrade: 'websocket', [PRINCIPAL_HEADER]: JSON.stringify(principal) },
    });
    const socket = upgrade.webSocket!;
    socket.accept();
    socket.binaryType = 'arraybuffer';
    const frames: string[] = [];
    const closed = new Promise((resolve) => socket.addEventListener('close', resolve));
    socket.addEventListener('message', (event) => frames.push(new TextDecoder().decode(event.data as ArrayBuffer)));
    await closed;
    const [event] = parseSse(frames.join(''));
    expect(event).toMatchObject({ event: 'mcpResponse', id: '9' });
    expect(JSON.parse(event!.data)).toMatchObject({ id: 9, result: { outputs: { text: 'slept 300 ms' } } });
    // Nothing outlives the query.
    expect(await inSessionStorage(id, async (storage) => [...(await storage.list()).keys()])).toEqual([]);
  });

  it('ends the client’s held stream when the session closes at its idle deadline', async () => {
    const sessionId = await openSession(VERSION);
    const stub = sessionStub(env, sessionId);
    const standalone = sseReader(await call('/mcp', { headers: { accept: 'text/event-stream', ...sessionHeaders(sessionId, VERSION) } }));
    await waitFor(
      () => sockets(sessionId),
      (n) => n === 1,
    );
    await runInDurableObject(stub, async (_: SessionObject, state) => {
      const record = (await state.storage.get<SessionRecord>('session'))!;
      await state.storage.put('session', { ...record, expiresAt: Date.now() - 1 });
    });
    await evictDurableObject(stub); // an idle object, woken by its alarm alone
    expect(await runDurableObjectAlarm(stub)).toBe(true);
    await expect(standalone.next()).rejects.toThrow('stream ended');
  });

  it('refuses a second GET stream while the first is held, as the SDK does', async () => {
    const sessionId = await openSession(VERSION);
    const headers = { accept: 'text/event-stream', ...sessionHeaders(sessionId, VERSION) };
    const first = sseReader(await call('/mcp', { headers }));
    await waitFor(
      () => sockets(sessionId),
      (n) => n === 1,
    );
    expect((await call('/mcp', { headers })).status).toBe(409);
    await first.cancel();
  });
});
