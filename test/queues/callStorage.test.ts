import { env } from 'cloudflare:workers';
import { evictDurableObject, runInDurableObject } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import type { SessionObject } from '../../src/sessions/SessionObject';
import { sessionStub } from '../../src/sessions/sessionId';
import { newSessionId } from '../../src/lib/sessionIds';
import { forgetCall, keepInput, loadInput, tooLargeForMessage } from '../../src/queues/callStorage';
import { openSession, rpc } from '../support/mcp';
import { inSessionStorage, pendingCalls, waitFor } from '../support/sessionStorage';

/** SQLite-backed Durable Objects take at most 2 MB a value on Cloudflare (local workerd does not enforce it). */
const VALUE_LIMIT = 2_000_000;

describe('a queued call’s input, kept by the object that owes its answer', () => {
  it('keeps an input larger than one value in pieces under the value limit, reads it back whole, and forgets it', async () => {
    const input = { arguments: { text: 'é'.repeat(1_600_000), list: Array.from({ length: 1000 }, (_, i) => i) }, inputResponses: { a: { ok: true } } };
    await runInDurableObject(sessionStub(env, newSessionId()), async (_: SessionObject, state) => {
      await keepInput(state.storage, 'call-1', input);
      const stored = await state.storage.list({ prefix: 'call:call-1:' });
      const sizes = [...stored.values()].filter((value) => value instanceof Uint8Array).map((value) => (value as Uint8Array).byteLength);
      expect(sizes.length).toBeGreaterThanOrEqual(4);
      expect(Math.max(...sizes)).toBeLessThan(VALUE_LIMIT);
      expect(await loadInput(state.storage, 'call-1')).toEqual(input);
      await forgetCall(state.storage, 'call-1');
      expect((await state.storage.list({ prefix: 'call:call-1:' })).size).toBe(0);
      expect(await loadInput(state.storage, 'call-1')).toBeUndefined();
    });
  });

  it('sends input up to 64 KB in the message: the queue takes 128 KB a message', () => {
    expect(tooLargeForMessage({ arguments: { text: 'x'.repeat(60_000) } })).toBe(false);
    expect(tooLargeForMessage({ arguments: { text: 'x'.repeat(70_000) } })).toBe(true);
    // Bytes, not characters: 30,000 three-byte characters are 90 KB.
    expect(tooLargeForMessage({ arguments: { text: '€'.repeat(30_000) } })).toBe(true);
  });
});

/** Through a session and the real queue (a task's: test/tasks/TaskObject.test.ts). */
describe('arguments too large for a queue message (128 KB)', () => {
  const keptFor = (sessionId: string) => inSessionStorage(sessionId, async (s) => [...(await s.list({ prefix: 'call:' })).keys()]);

  it('travel by reference: kept in the session’s object, read by the consumer, deleted once answered', async () => {
    const sessionId = await openSession();
    const text = 'x'.repeat(200_000);
    const { reply } = await rpc(sessionId, 'tools/call', { name: 'test_queued_echo', arguments: { text } });
    expect(reply?.result.structuredContent).toEqual({ echo: text });
    expect(await keptFor(sessionId)).toEqual([]);
  });

  it('are not lost when the object is evicted while the call waits, and go with its answer', async () => {
    const sessionId = await openSession();
    const padding = 'p'.repeat(3_000_000);
    const answer = rpc(sessionId, 'tools/call', { name: 'test_queued_slow', arguments: { ms: 500, padding } });
    const [pending] = await waitFor(
      () => pendingCalls(sessionId),
      (p) => p.length === 1,
    );
    await evictDurableObject(sessionStub(env, sessionId));
    // What the consumer reads, from the object rebuilt out of storage.
    expect(await sessionStub(env, sessionId).queuedCall(pending!.callId, true)).toEqual({
      input: { arguments: { ms: 500, padding } },
      sideEffectBegan: false,
    });
    expect((await answer).reply?.result).toEqual({ content: [{ type: 'text', text: 'slept 500 ms' }] });
    expect(await keptFor(sessionId)).toEqual([]);
    expect(await sessionStub(env, sessionId).queuedCall(pending!.callId, true)).toBeNull();
  });
});
