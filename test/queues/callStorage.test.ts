import { env } from 'cloudflare:workers';
import { runInDurableObject } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import type { SessionObject } from '../../src/sessions/SessionObject';
import { sessionStub } from '../../src/sessions/sessionId';
import { newSessionId } from '../../src/lib/sessionIds';
import { forgetCall, keepInput, loadInput, tooLargeForMessage } from '../../src/queues/callStorage';

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
