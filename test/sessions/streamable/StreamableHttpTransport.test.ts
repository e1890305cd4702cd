import { env, exports } from 'cloudflare:workers';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { runInDurableObject } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import type { SessionObject } from '../../../src/sessions/SessionObject';
import { sessionStub } from '../../../src/sessions/sessionId';
import { deliveries, inSessionStorage, pendingCalls, waitFor } from '../../support/sessionStorage';
import { call, messagesOf, ORIGIN, openSession, postJson, sessionHeaders, sseReader, testKey } from '../../support/mcp';

/**
 * Streams kept in the session object's event store: a client whose stream dropped — or whose session
 * object was evicted mid-call — resumes with Last-Event-ID and still gets its answer, exactly once.
 */
const VERSION = '2025-11-25'; // priming events (a first event id to resume from) start with this version
const inObject = inSessionStorage;

/** Starts a queued tools/call and returns the id of the stream's priming event, the resume cursor. */
async function startCall(sessionId: string, id: number, name: string, args: Record<string, unknown>) {
  const response = await postJson('/mcp', { jsonrpc: '2.0', id, method: 'tools/call', params: { name, arguments: args } }, sessionHeaders(sessionId, VERSION));
  const stream = sseReader(response);
  const priming = await stream.next();
  expect(priming).toMatchObject({ data: '', id: expect.stringMatching(/^\d{16}$/) });
  return { stream, cursor: priming.id! };
}

/**
 * The session object goes away mid-call, as in a runtime restart: ctx.abort() resets it at once,
 * failing its in-flight requests (evictDurableObject would wait for them to finish first).
 */
async function crash(sessionId: string) {
  await runInDurableObject(sessionStub(env, sessionId), (_: SessionObject, state) => state.abort('eviction (test)')).catch(() => {});
}

const resume = (sessionId: string, lastEventId: string) =>
  call('/mcp', { headers: { accept: 'text/event-stream', 'last-event-id': lastEventId, ...sessionHeaders(sessionId, VERSION) } });

describe('resuming streams from the event store', () => {
  it('replays a result the client missed when its stream dropped, then ends the stream', async () => {
    const sessionId = await openSession(VERSION);
    const { stream, cursor } = await startCall(sessionId, 5, 'test_queued_slow', { ms: 300 });
    await stream.cancel(); // the client's connection drops mid-call
    await waitFor(
      () => pendingCalls(sessionId),
      (p) => p.length === 0,
    );
    const replayed = await messagesOf(await resume(sessionId, cursor)); // reads to the end: the stream closes
    expect(replayed).toEqual([{ jsonrpc: '2.0', id: 5, result: { content: [{ type: 'text', text: 'slept 300 ms' }] } }]);
  });

  it('lets the SDK client resume a stream the server closed mid-call (SEP-1699 polling)', async () => {
    const requests: string[] = [];
    const transport = new StreamableHTTPClientTransport(new URL('/mcp', ORIGIN), {
      requestInit: { headers: { authorization: `Bearer ${await testKey()}` } },
      fetch: (url, init) => {
        const request = new Request(url, init);
        requests.push(`${request.method} ${request.headers.get('last-event-id') ?? ''}`.trim());
        return exports.default.fetch(request);
      },
    });
    const client = new Client({ name: 'vitest-sdk', version: '1' });
    await client.connect(transport);
    try {
      const result = await client.callTool({ name: 'test_reconnection', arguments: {} });
      expect(result.content).toEqual([{ type: 'text', text: 'Reconnection test completed successfully' }]);
      // The POST stream closed after its priming event; the client came back with GET + Last-Event-ID.
      expect(requests.filter((r) => /^GET \d{16}$/.test(r))).toHaveLength(1);
    } finally {
      await client.close();
    }
  });

  it('stores no event a client could not resume to: the lone answer to a pre-2025-11-25 request', async () => {
    const sessionId = await openSession('2025-06-18');
    const events = () => inObject(sessionId, async (s) => [...(await s.list({ prefix: 'event:' })).values()]);
    await postJson('/mcp', { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'server_info', arguments: {} } }, sessionHeaders(sessionId)).then(
      messagesOf,
    );
    expect(await events()).toEqual([]);
    // Progress hands the client an event id first, so the answer after it is kept for a resume.
    const params = { name: 'test_queued_progress', arguments: {}, _meta: { progressToken: 'p' } };
    await postJson('/mcp', { jsonrpc: '2.0', id: 3, method: 'tools/call', params }, sessionHeaders(sessionId)).then(messagesOf);
    expect((await events()).map((e: any) => e.m.method ?? e.m.id)).toEqual(['notifications/progress', 'notifications/progress', 'notifications/progress', 3]);
  });

  it('refuses a Last-Event-ID it never issued', async () => {
    const sessionId = await openSession(VERSION);
    for (const bad of ['9999999999999999', 'nope']) {
      const response = await resume(sessionId, bad);
      expect(response.status).toBe(400);
      expect(await response.json()).toMatchObject({ error: { code: -32000 } });
    }
  });
});

describe('a queued call across the loss of its session object', () => {
  it('stores the result that arrives while nobody listens; the resuming client receives it once', async () => {
    const sessionId = await openSession(VERSION);
    const { stream, cursor } = await startCall(sessionId, 7, 'test_queued_slow', { ms: 400 });
    await waitFor(
      () => pendingCalls(sessionId),
      (p) => p.length === 1,
    );
    await crash(sessionId);
    // The POST stream died with the object; the result reaches a new instance, which stores it.
    await expect(stream.next((f) => f.data !== '')).rejects.toThrow();
    await waitFor(
      () => deliveries(sessionId),
      (s) => s.delivered === 1,
    );
    const replayed = await messagesOf(await resume(sessionId, cursor));
    expect(replayed.filter((m) => m.id === 7)).toEqual([{ jsonrpc: '2.0', id: 7, result: { content: [{ type: 'text', text: 'slept 400 ms' }] } }]);
    expect(await deliveries(sessionId)).toEqual({ delivered: 1, ignored: 0 });
  });

  it('answers on the resumed stream when the client is back before the result', async () => {
    const sessionId = await openSession(VERSION);
    const { cursor } = await startCall(sessionId, 8, 'test_queued_slow', { ms: 600 });
    await waitFor(
      () => pendingCalls(sessionId),
      (p) => p.length === 1,
    );
    await crash(sessionId);
    const resumed = await resume(sessionId, cursor);
    expect(resumed.status).toBe(200);
    expect(await pendingCalls(sessionId)).toHaveLength(1); // still waiting: the stream stays open for it
    const messages = await messagesOf(resumed);
    expect(messages).toEqual([{ jsonrpc: '2.0', id: 8, result: { content: [{ type: 'text', text: 'slept 600 ms' }] } }]);
  });

  it('answers with the timeout the alarm gives a call whose object was lost', async () => {
    const sessionId = await openSession(VERSION);
    const { cursor } = await startCall(sessionId, 9, 'test_queued_slow', { ms: 2500 }); // its deadline is 1 s
    const [pending] = await waitFor(
      () => pendingCalls(sessionId),
      (p) => p.length === 1,
    );
    await crash(sessionId);
    const messages = await messagesOf(await resume(sessionId, cursor));
    expect(messages).toEqual([{ jsonrpc: '2.0', id: 9, result: { isError: true, content: [{ type: 'text', text: expect.stringMatching(/timed out/) }] } }]);
    // A result that still comes is dropped, not sent as a second answer.
    expect(await sessionStub(env, sessionId).deliverResult(pending!.callId, { content: [{ type: 'text', text: 'late' }] })).toBe('ignored');
    expect(await deliveries(sessionId)).toEqual({ delivered: 0, ignored: 1 });
  });

  it('relays progress reported after the eviction on the resumed stream', async () => {
    const sessionId = await openSession(VERSION);
    const response = await postJson(
      '/mcp',
      { jsonrpc: '2.0', id: 10, method: 'tools/call', params: { name: 'test_queued_slow', arguments: { ms: 600 }, _meta: { progressToken: 't' } } },
      sessionHeaders(sessionId, VERSION),
    );
    const cursor = (await sseReader(response).next()).id!;
    const [pending] = await waitFor(
      () => pendingCalls(sessionId),
      (p) => p.length === 1,
    );
    const stub = sessionStub(env, sessionId);
    await crash(sessionId);
    const progress = { method: 'notifications/progress' as const, params: { progressToken: 't', progress: 1, total: 2 } };
    expect(await stub.relayNotification(pending!.callId, progress)).toBe(true);
    const messages = await messagesOf(await resume(sessionId, cursor));
    expect(messages.map((m) => m.method ?? m.id)).toEqual(['notifications/progress', 10]);
    expect(messages[0]).toEqual({ jsonrpc: '2.0', ...progress });
  });
});

describe('an answer the session cannot store', () => {
  /** Past the 8 MiB a value may take in local workerd's SQLite (2 MB deployed): the event store's write is refused. */
  const unstorable = { content: [{ type: 'text' as const, text: 'x'.repeat(9 * 1024 * 1024) }] };
  const undeliverable = {
    jsonrpc: '2.0',
    id: 11,
    error: { code: -32603, message: expect.stringMatching(/^The answer to this request could not be stored to send \(.*SQLITE_TOOBIG.*\)$/) },
  };

  it('becomes an error answer on the stream the client waits on, never silence', async () => {
    const sessionId = await openSession(VERSION);
    const { stream } = await startCall(sessionId, 11, 'test_queued_slow', { ms: 900 });
    const [pending] = await waitFor(
      () => pendingCalls(sessionId),
      (p) => p.length === 1,
    );
    expect(await sessionStub(env, sessionId).deliverResult(pending!.callId, unstorable)).toBe('delivered');
    const hang = new Promise<never>((_, reject) => setTimeout(() => reject(new Error('no answer in 10 s')), 10_000));
    const answer = await Promise.race([stream.next((f) => f.data !== ''), hang]);
    expect(JSON.parse(answer.data)).toEqual(undeliverable);
  });

  it('becomes an error answer a resuming client receives, when it came after the session object was lost', async () => {
    const sessionId = await openSession(VERSION);
    const { cursor } = await startCall(sessionId, 11, 'test_queued_slow', { ms: 900 });
    const [pending] = await waitFor(
      () => pendingCalls(sessionId),
      (p) => p.length === 1,
    );
    await crash(sessionId);
    expect(await sessionStub(env, sessionId).deliverResult(pending!.callId, unstorable)).toBe('delivered');
    expect(await messagesOf(await resume(sessionId, cursor))).toEqual([undeliverable]);
  });
});

describe('streams handed to the Worker', () => {
  const sockets = (sessionId: string) => runInDurableObject(sessionStub(env, sessionId), (_: SessionObject, state) => state.getWebSockets().length);

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
