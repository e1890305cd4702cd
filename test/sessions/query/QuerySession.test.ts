import { env } from 'cloudflare:workers';
import { evictDurableObject } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import type { Principal } from '../../../src/principal';
import { sessionStub } from '../../../src/sessions/sessionId';
import { newSessionId } from '../../../src/lib/sessionIds';
import { PRINCIPAL_HEADER } from '../../../src/sessions/handoff/handoff';
import { PARKED, QUERY_STREAM_ID } from '../../../src/sessions/query/queryMessages';
import { deliveries, inSessionStorage, pendingCalls, waitFor } from '../../support/sessionStorage';
import { parseSse } from '../../support/mcp';

/**
 * One /mcp/sse query in an object of its own, driven as the Worker drives it (src/sessions/query/queryRoute.ts):
 * serveQuery, and when the answer is parked, the object's socket for it.
 */
const principal = { id: 'key_query_session', subject: 'key_query_session', scopes: ['*'] };
const executeTool = (id: number, toolId: string, inputs: Record<string, unknown>) => ({
  jsonrpc: '2.0' as const,
  id,
  method: 'mcp/executeTool',
  params: { toolId, inputs },
});
const stored = (id: string) => inSessionStorage(id, async (storage) => [...(await storage.list()).keys()]);
const socketFor = (id: string, who: Principal) =>
  sessionStub(env, id).fetch(`https://session/stream?id=${QUERY_STREAM_ID}`, {
    headers: { upgrade: 'websocket', [PRINCIPAL_HEADER]: JSON.stringify(who) },
  });

/** The Worker's end of the query's socket: resolves with the SSE events it carried once the object closes it. */
function eventsUntilClosed(socket: WebSocket) {
  socket.accept();
  socket.binaryType = 'arraybuffer';
  const frames: string[] = [];
  socket.addEventListener('message', (event) => {
    frames.push(new TextDecoder().decode(event.data as ArrayBuffer));
  });
  return new Promise<ReturnType<typeof parseSse>>((resolve) => socket.addEventListener('close', () => resolve(parseSse(frames.join('')))));
}

describe('a query-mode request in its object', () => {
  it('answers a query that waits on no queued call at once, and keeps nothing', async () => {
    const id = newSessionId();
    const reply = await sessionStub(env, id).serveQuery(executeTool(1, 'server_info', {}), id, principal);
    expect(reply).toMatchObject({ jsonrpc: '2.0', id: 1, result: { outputs: { name: 'n8n-mcp-edge' } } });
    expect(await stored(id)).toEqual([]);
  });

  it('lets a query-mode object sleep while its queued call runs; the answer waits for the Worker’s socket', async () => {
    const id = newSessionId();
    const stub = sessionStub(env, id);
    const request = executeTool(9, 'test_queued_slow', { ms: 300 });
    expect(await stub.serveQuery(request, id, principal)).toBe(PARKED);
    await evictDurableObject(stub);
    expect(await pendingCalls(id)).toHaveLength(1);
    await waitFor(
      () => pendingCalls(id),
      (p) => p.length === 0,
    ); // answered while nobody held the socket
    const [event] = await eventsUntilClosed((await socketFor(id, principal)).webSocket!);
    expect(event).toMatchObject({ event: 'mcpResponse', id: '9' });
    expect(JSON.parse(event!.data)).toMatchObject({ id: 9, result: { outputs: { text: 'slept 300 ms' } } });
    // Nothing outlives the query.
    expect(await stored(id)).toEqual([]);
  });

  it('keeps an answer too large to store as the error saying so, which the Worker’s socket then carries', async () => {
    const id = newSessionId();
    const stub = sessionStub(env, id);
    expect(await stub.serveQuery(executeTool(5, 'test_queued_slow', { ms: 900 }), id, principal)).toBe(PARKED);
    await evictDurableObject(stub);
    const [pending] = await waitFor(
      () => pendingCalls(id),
      (p) => p.length === 1,
    );
    // Past the 8 MiB a value may take in local workerd's SQLite (2 MB deployed).
    const unstorable = { content: [{ type: 'text' as const, text: 'x'.repeat(9 * 1024 * 1024) }] };
    expect(await sessionStub(env, id).deliverResult(pending!.callId, unstorable)).toBe('delivered');
    const [event] = await eventsUntilClosed((await socketFor(id, principal)).webSocket!);
    expect(JSON.parse(event!.data)).toEqual({
      jsonrpc: '2.0',
      id: 5,
      error: { code: -32603, message: expect.stringMatching(/^The answer to this request could not be stored to send \(.*SQLITE_TOOBIG/) },
    });
    // The call's own run (900 ms) is still on the queue's consumer: its result is ignored when it comes, and
    // waited for, or the next test's call (its deadline 1 s) would queue behind it.
    await waitFor(
      () => deliveries(id),
      (d) => d.ignored === 1,
    );
  });

  it('sends the answer on the Worker’s socket when it comes, then closes the socket and forgets the query', async () => {
    const id = newSessionId();
    expect(await sessionStub(env, id).serveQuery(executeTool(4, 'test_queued_slow', { ms: 200 }), id, principal)).toBe(PARKED);
    const upgrade = await socketFor(id, principal);
    expect(await pendingCalls(id)).toHaveLength(1); // the socket came before the answer
    const events = await eventsUntilClosed(upgrade.webSocket!);
    expect(events.map((event) => [event.event, event.id, JSON.parse(event.data).result.outputs])).toEqual([['mcpResponse', '4', { text: 'slept 200 ms' }]]);
    expect(await stored(id)).toEqual([]);
  });

  it('gives the socket for the answer to the query’s caller only', async () => {
    const id = newSessionId();
    expect((await socketFor(id, principal)).status).toBe(404); // no query here
    expect(await sessionStub(env, id).serveQuery(executeTool(5, 'test_queued_slow', { ms: 0 }), id, principal)).toBe(PARKED);
    expect((await socketFor(id, { ...principal, id: 'key_someone_else' })).status).toBe(404);
    const [event] = await eventsUntilClosed((await socketFor(id, principal)).webSocket!);
    expect(JSON.parse(event!.data)).toMatchObject({ id: 5 });
  });

  it('forgets a query whose client left; its result, when it comes, is ignored', async () => {
    const id = newSessionId();
    expect(await sessionStub(env, id).serveQuery(executeTool(6, 'test_queued_slow', { ms: 300 }), id, principal)).toBe(PARKED);
    const socket = (await socketFor(id, principal)).webSocket!;
    socket.accept();
    socket.close(1000, 'client gone');
    expect(
      await waitFor(
        () => stored(id),
        (keys) => keys.length === 0,
      ),
    ).toEqual([]);
    expect(
      await waitFor(
        () => deliveries(id),
        (d) => d.ignored === 1,
      ),
    ).toEqual({ delivered: 0, ignored: 1 });
  });
});
