import { env } from 'cloudflare:workers';
import { evictDurableObject, runDurableObjectAlarm, runInDurableObject } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import type { SessionObject } from '../../src/sessions/SessionObject';
import type { SessionRecord } from '../../src/sessions/session';
import { sessionStub } from '../../src/sessions/sessionId';
import { call, messagesOf, openSession, postJson, rpc, sessionHeaders, sseReader } from '../support/mcp';
import { pendingCalls, waitFor } from '../support/sessionStorage';

const readRecord = (sessionId: string) =>
  runInDurableObject(sessionStub(env, sessionId), (_: SessionObject, state) => state.storage.get<SessionRecord>('session'));
const sockets = (sessionId: string) => runInDurableObject(sessionStub(env, sessionId), (_: SessionObject, state) => state.getWebSockets().length);

describe('idle expiry by alarm', () => {
  it('keeps a session whose deadline has not passed', async () => {
    const sessionId = await openSession();
    expect(await runDurableObjectAlarm(sessionStub(env, sessionId))).toBe(true);
    expect((await rpc(sessionId, 'ping')).status).toBe(200);
  });

  it('closes a session once its idle deadline passes, and forgets it', async () => {
    const sessionId = await openSession();
    const stub = sessionStub(env, sessionId);
    await runInDurableObject(stub, async (_: SessionObject, state) => {
      const record = (await state.storage.get<SessionRecord>('session'))!;
      await state.storage.put('session', { ...record, expiresAt: Date.now() - 1 });
    });
    await evictDurableObject(stub); // drop the cached record, as after a real idle period
    expect(await runDurableObjectAlarm(stub)).toBe(true);
    expect(await readRecord(sessionId)).toBeUndefined();
    const after = await postJson('/mcp', { jsonrpc: '2.0', id: 1, method: 'ping' }, sessionHeaders(sessionId));
    expect(after.status).toBe(404);
  });

  it('keeps a session past its idle deadline while a call of its is pending (found by the load harness)', async () => {
    const sessionId = await openSession();
    const stub = sessionStub(env, sessionId);
    const answer = await postJson(
      '/mcp',
      { jsonrpc: '2.0', id: 5, method: 'tools/call', params: { name: 'test_queued_slow', arguments: { ms: 700 } } },
      sessionHeaders(sessionId),
    );
    await waitFor(
      () => pendingCalls(sessionId),
      (p) => p.length === 1,
    );
    await runInDurableObject(stub, async (_: SessionObject, state) => {
      const record = (await state.storage.get<SessionRecord>('session'))!;
      await state.storage.put('session', { ...record, expiresAt: Date.now() - 1 });
    });
    // A fresh instance reads the expired record (evictDurableObject would wait for the open call).
    await answer.body?.cancel();
    await runInDurableObject(stub, (_: SessionObject, state) => state.abort('reset (test)')).catch(() => {});
    expect(await runDurableObjectAlarm(sessionStub(env, sessionId))).toBe(true); // a new stub: the old one went with the reset
    expect((await readRecord(sessionId))!.expiresAt).toBeGreaterThan(Date.now());
    expect((await rpc(sessionId, 'ping')).reply).toEqual({ jsonrpc: '2.0', id: 2, result: {} });
  });

  it('keeps a session whose alarm answers its call with a timeout as the idle deadline passes (found by the load harness)', async () => {
    const sessionId = await openSession();
    const stub = sessionStub(env, sessionId);
    const answer = messagesOf(
      await postJson(
        '/mcp',
        { jsonrpc: '2.0', id: 6, method: 'tools/call', params: { name: 'test_queued_slow', arguments: { ms: 3000 } } },
        sessionHeaders(sessionId),
      ),
    );
    await waitFor(
      () => pendingCalls(sessionId),
      (p) => p.length === 1,
    );
    // Both deadlines due at once: the call's (1 s) and the session's idle one.
    await runInDurableObject(stub, async (_: SessionObject, state) => {
      const record = (await state.storage.get<SessionRecord>('session'))!;
      await state.storage.put('session', { ...record, expiresAt: Date.now() - 1 });
    });
    await evictDurableObject(stub); // the stream waits in the Worker: nothing holds the object
    // The object's alarm, set for the call's deadline, answers it with a timeout.
    await waitFor(
      () => pendingCalls(sessionId),
      (p) => p.length === 0,
    );
    expect(await answer).toContainEqual(expect.objectContaining({ id: 6, result: expect.objectContaining({ isError: true }) }));
    // The client acts on that answer next: its session is still there.
    expect((await rpc(sessionId, 'ping')).reply).toEqual({ jsonrpc: '2.0', id: 2, result: {} });
  });

  it('sets the alarm to the idle deadline and clears it on DELETE', async () => {
    const sessionId = await openSession();
    const stub = sessionStub(env, sessionId);
    const [alarm, record] = await runInDurableObject(
      stub,
      async (_: SessionObject, state) => [await state.storage.getAlarm(), await state.storage.get<SessionRecord>('session')] as const,
    );
    expect(alarm).toBe(record!.expiresAt);
    await call('/mcp', { method: 'DELETE', headers: sessionHeaders(sessionId) });
    expect(await runInDurableObject(stub, (_: SessionObject, state) => state.storage.getAlarm())).toBeNull();
    expect(await readRecord(sessionId)).toBeUndefined();
  });

  it('ends the client’s held stream when the session closes at its idle deadline', async () => {
    const sessionId = await openSession('2025-11-25');
    const stub = sessionStub(env, sessionId);
    const standalone = sseReader(await call('/mcp', { headers: { accept: 'text/event-stream', ...sessionHeaders(sessionId, '2025-11-25') } }));
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
});

describe('cancellation', () => {
  /** The stream's messages, or a failure once it has stayed open `ms` (before the fix it never ended). */
  const endsWithin = <T>(ms: number, reading: Promise<T>) =>
    Promise.race([reading, new Promise<never>((_, reject) => setTimeout(() => reject(new Error(`the stream was still open after ${ms} ms`)), ms))]);

  for (const [tool, args] of [
    ['server_info', {}],
    ['test_queued_echo', { text: 'never queued' }],
  ] as const) {
    it(`ends a batch that holds a call and its own cancellation (${tool})`, async () => {
      const sessionId = await openSession();
      const response = await postJson(
        '/mcp',
        [
          { jsonrpc: '2.0', id: 7, method: 'tools/call', params: { name: tool, arguments: args } },
          { jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 7 } },
        ],
        sessionHeaders(sessionId),
      );
      expect(response.status).toBe(200);
      // A cancelled request gets no response (MCP): the stream ends without one.
      expect(await endsWithin(5000, messagesOf(response))).toEqual([]);
      expect(await pendingCalls(sessionId)).toEqual([]);
      expect((await rpc(sessionId, 'ping')).reply).toEqual({ jsonrpc: '2.0', id: 2, result: {} });
    });
  }

  const cancel = (requestId: number) => ({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId } });
  const ping = (id: number) => ({ jsonrpc: '2.0', id, method: 'ping' });

  it('ends a batch whose request is cancelled, whatever the request and wherever the cancellation stands in it', async () => {
    const sessionId = await openSession();
    for (const batch of [
      [ping(1), cancel(1)],
      [cancel(1), ping(1)],
    ]) {
      const response = await postJson('/mcp', batch, sessionHeaders(sessionId));
      expect(await endsWithin(5000, messagesOf(response))).toEqual([]);
    }
  });

  it('still answers the other requests of the batch, and a later request that uses the cancelled id again', async () => {
    const sessionId = await openSession();
    const response = await postJson(
      '/mcp',
      [ping(1), { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'server_info', arguments: {} } }, cancel(1)],
      sessionHeaders(sessionId),
    );
    const messages = await endsWithin(5000, messagesOf(response));
    expect(messages.map((m) => m.id)).toEqual([2]);
    expect(messages[0]!.result.content).toBeInstanceOf(Array);
    expect((await rpc(sessionId, 'ping', undefined, 1)).reply).toEqual({ jsonrpc: '2.0', id: 1, result: {} });
  });
});
