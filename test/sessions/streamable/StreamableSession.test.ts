import { env } from 'cloudflare:workers';
import { evictDurableObject, runInDurableObject } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import type { Principal } from '../../../src/principal';
import type { SessionObject } from '../../../src/sessions/SessionObject';
import type { SessionRecord } from '../../../src/sessions/session';
import { sessionStub } from '../../../src/sessions/sessionId';
import { PRINCIPAL_HEADER } from '../../../src/sessions/handoff/handoff';
import { newSessionId } from '../../../src/lib/sessionIds';
import {
  ALREADY_INITIALIZED,
  call,
  initializeRequest,
  messagesOf,
  openSession,
  openSseSession,
  ORIGIN,
  parseSse,
  postJson,
  PROTOCOL_VERSION,
  rpc,
  sessionHeaders,
  sseReader,
} from '../../support/mcp';
import { inSessionStorage, pendingCalls, sleep, waitFor } from '../../support/sessionStorage';

/**
 * The Worker holds the clients' streams; a session object only keeps hibernatable sockets to it. So
 * an object whose client waits holds no request, and evictDurableObject (which waits for in-flight
 * requests to drain) evicts it at once, mid-call; the client's streams stay open, and the answer
 * reaches them from the object rebuilt out of storage.
 */
const VERSION = '2025-11-25'; // priming events (a first event id to resume from) start with this version

const readRecord = (sessionId: string) => inSessionStorage(sessionId, (storage) => storage.get<SessionRecord>('session'));
const sockets = (sessionId: string) => runInDurableObject(sessionStub(env, sessionId), (_: SessionObject, state) => state.getWebSockets().length);
/** The stream an event was sent on, from the session's event store. */
const streamOfEvent = (sessionId: string, eventId: string) =>
  inSessionStorage(sessionId, async (storage) => (await storage.get<{ s: string }>(`event:${eventId}`))!.s);

/** Resolves 'open' if the stream neither ends nor sends within `ms`. */
const stillOpen = (next: Promise<unknown>, ms = 200) =>
  Promise.race([
    next.then(
      () => 'sent',
      () => 'ended',
    ),
    sleep(ms).then(() => 'open'),
  ]);

/** The Worker picking up a handed-off stream of the session: the object's 101, or its refusal. */
const attach = (sessionId: string, streamId: string, principal: Principal, after?: string) =>
  sessionStub(env, sessionId).fetch(`https://session/stream?${new URLSearchParams({ id: streamId, ...(after === undefined ? {} : { after }) })}`, {
    headers: { upgrade: 'websocket', [PRINCIPAL_HEADER]: JSON.stringify(principal) },
  });

/** The frames a socket carries until the object closes it. */
async function framesUntilClosed(upgrade: Response) {
  const socket = upgrade.webSocket!;
  socket.accept();
  socket.binaryType = 'arraybuffer';
  const pieces: string[] = [];
  const closed = new Promise((resolve) => socket.addEventListener('close', resolve));
  socket.addEventListener('message', (event) => {
    pieces.push(new TextDecoder().decode(event.data as ArrayBuffer));
  });
  await closed;
  return parseSse(pieces.join(''));
}

describe('a new Streamable HTTP session', () => {
  it('records transport, protocol version and client info, and the principal whose initialize made it', async () => {
    const sessionId = await openSession('2025-03-26');
    const record = await readRecord(sessionId);
    expect(record).toMatchObject({
      id: sessionId,
      transport: 'streamable-http',
      principal: { scopes: ['*'] },
      initialized: true,
      initializeParams: { protocolVersion: '2025-03-26', clientInfo: { name: 'vitest' } },
    });
    expect(record!.expiresAt).toBeGreaterThan(Date.now() + 500_000); // the test TTL is 600 s
  });
});

describe('the caller travels with each request', () => {
  /** The same credential twice: the session's creator, and the same grant after a refresh narrowed its scopes. */
  const wide = { id: 'key_interleaved', subject: 'key_interleaved', scopes: ['*'] };
  const narrow = { ...wide, scopes: ['workflows:read'] };
  const list = (id: number) => ({ jsonrpc: '2.0', id, method: 'tools/list' });
  const whoCalls = (id: number) => ({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'test_caller', arguments: {} } });

  it('gives each of two interleaved requests of a session its own principal: in the tool guard and in the tool', async () => {
    const sessionId = newSessionId();
    const replies = await runInDurableObject(sessionStub(env, sessionId), async (object: SessionObject) => {
      const headers = {
        accept: 'application/json, text/event-stream',
        'content-type': 'application/json',
        'mcp-session-id': sessionId,
        'mcp-protocol-version': PROTOCOL_VERSION,
      };
      const post = (principal: typeof wide, body: unknown, create = false) =>
        object.streamableHttp(new Request(`${ORIGIN}/mcp`, { method: 'POST', headers }), sessionId, create, principal, body);
      await (await post(wide, initializeRequest(1), true)).text();
      await post(wide, { jsonrpc: '2.0', method: 'notifications/initialized' });
      // Started together: the second request is admitted while the first one's guard is still to run.
      const lists = await Promise.all([post(wide, list(2)), post(narrow, list(3))]);
      const calls = await Promise.all([post(wide, whoCalls(4)), post(narrow, whoCalls(5))]);
      return Promise.all([...lists, ...calls].map(async (response) => (await messagesOf(response))[0]!));
    });
    const [wideList, narrowList, wideCall, narrowCall] = replies;
    const names = (reply: Record<string, any>) => reply.result.tools.map((t: { name: string }) => t.name);
    expect(names(wideList!)).toContain('search_nodes');
    expect(names(narrowList!)).not.toContain('search_nodes');
    expect(names(narrowList!)).toEqual(expect.arrayContaining(['server_info', 'test_caller']));
    expect(wideCall!.result.structuredContent).toEqual(wide);
    expect(narrowCall!.result.structuredContent).toEqual(narrow);
  });
});

describe('a session woken from storage after an eviction', () => {
  it('restores itself after eviction: the client notices nothing', async () => {
    const sessionId = await openSession();
    const stub = sessionStub(env, sessionId);
    await evictDurableObject(stub);
    const { status, reply } = await rpc(sessionId, 'tools/call', { name: 'server_info', arguments: {} });
    expect(status).toBe(200);
    expect(reply?.result.structuredContent.name).toBe('n8n-mcp-edge');
    // And again: each new instance restores from storage, not from the previous one.
    await evictDurableObject(stub);
    const { reply: list } = await rpc(sessionId, 'tools/list', undefined, 3);
    expect(list?.result.tools.length).toBeGreaterThan(0);
  });

  it('keeps refusing a second initialize after eviction', async () => {
    const sessionId = await openSession();
    await evictDurableObject(sessionStub(env, sessionId));
    const response = await postJson('/mcp', initializeRequest(9), sessionHeaders(sessionId));
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual(ALREADY_INITIALIZED);
    // The refusal came from the restored session, which still answers.
    expect((await rpc(sessionId, 'ping')).reply).toEqual({ jsonrpc: '2.0', id: 2, result: {} });
  });

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
});

describe('a handed-off stream the Worker picks up', () => {
  /** A queued call on a new session's POST stream: its id, the priming event's id (the cursor), and the POST's stream. */
  async function queuedCall(ms: number) {
    const sessionId = await openSession(VERSION);
    const params = { name: 'test_queued_slow', arguments: { ms } };
    const post = sseReader(await postJson('/mcp', { jsonrpc: '2.0', id: 4, method: 'tools/call', params }, sessionHeaders(sessionId, VERSION)));
    const cursor = (await post.next()).id!;
    const { principal } = (await readRecord(sessionId))!;
    return { sessionId, post, cursor, principal, streamId: await streamOfEvent(sessionId, cursor) };
  }

  it('gets what the stream carried after the event given, then ends: nothing more is owed on it', async () => {
    const { sessionId, post, cursor, principal, streamId } = await queuedCall(100);
    const answered = await post.next((frame) => frame.data !== '');
    const frames = await framesUntilClosed(await attach(sessionId, streamId, principal, cursor));
    expect(frames).toEqual([{ event: 'message', id: answered.id, data: answered.data }]);
    expect(JSON.parse(answered.data)).toMatchObject({ id: 4, result: { content: [{ text: 'slept 100 ms' }] } });
    // From the answer on, there is nothing to send: the stream ends at once.
    expect(await framesUntilClosed(await attach(sessionId, streamId, principal, answered.id))).toEqual([]);
  });

  it('stays open while a queued call on it is pending, even in an object that just woke, and carries its answer', async () => {
    const { sessionId, post, cursor, principal, streamId } = await queuedCall(500);
    await waitFor(
      () => sockets(sessionId),
      (n) => n === 1,
    ); // the POST stream handed to the Worker
    await post.cancel();
    await evictDurableObject(sessionStub(env, sessionId));
    const frames = await framesUntilClosed(await attach(sessionId, streamId, principal, cursor));
    expect(frames.map((frame) => JSON.parse(frame.data))).toEqual([{ jsonrpc: '2.0', id: 4, result: { content: [{ type: 'text', text: 'slept 500 ms' }] } }]);
  });

  it('is refused to anyone but the session’s creator, and on a session of another transport', async () => {
    const { sessionId, principal, streamId } = await queuedCall(0);
    const other = { ...principal, id: 'key_someone_else' };
    expect((await attach(sessionId, streamId, other)).status).toBe(404);
    const { endpoint, stream } = await openSseSession();
    const sseId = new URL(endpoint, ORIGIN).searchParams.get('sessionId')!;
    const sseCreator = (await readRecord(sseId))!.principal;
    expect((await attach(sseId, streamId, sseCreator)).status).toBe(404);
    await stream.cancel();
  });
});
