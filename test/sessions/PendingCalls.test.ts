import { env } from 'cloudflare:workers';
import { runInDurableObject } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import { PendingCalls } from '../../src/sessions/PendingCalls';
import type { SessionObject } from '../../src/sessions/SessionObject';
import { sessionStub } from '../../src/sessions/sessionId';
import { newSessionId } from '../../src/lib/sessionIds';
import type { CallRequest } from '../../src/server/runTool';

const callRequest = (signal: AbortSignal): CallRequest => ({
  requestId: 1,
  caller: { id: 'key_test', subject: 'key_test', scopes: ['*'] },
  signal,
  notify: async () => {},
  log: async () => {},
});
const call = { callId: 'call-1', tool: 'test_queued_echo', requestId: 1, deadline: Date.now() + 60_000 };

/** A PendingCalls on a real session object's storage. */
const withPending = <T>(use: (pending: PendingCalls) => Promise<T>) =>
  runInDurableObject(sessionStub(env, newSessionId()), (_: SessionObject, state) =>
    use(
      new PendingCalls(
        state.storage,
        async () => {},
        async () => {},
      ),
    ),
  );

describe('PendingCalls', () => {
  it('answers a call cancelled before it was queued as cancelled, and never queues it', async () => {
    const { result, sent, left, late } = await withPending(async (pending) => {
      const controller = new AbortController();
      controller.abort();
      let sent = 0;
      const result = await pending.start(call, callRequest(controller.signal), async () => void sent++);
      return { result, sent, left: await pending.list(), late: await pending.deliver(call.callId, { content: [{ type: 'text', text: 'late' }] }) };
    });
    expect(result).toEqual({ isError: true, content: [{ type: 'text', text: 'Error: Cancelled' }] });
    expect(sent).toBe(0);
    expect(left).toEqual([]);
    expect(late).toBe('ignored');
  });

  it('answers a call cancelled while it waits as cancelled, and ignores its late result', async () => {
    const { result, late } = await withPending(async (pending) => {
      const controller = new AbortController();
      const answer = pending.start(call, callRequest(controller.signal), async () => controller.abort());
      const result = await answer;
      return { result, late: await pending.deliver(call.callId, { content: [{ type: 'text', text: 'late' }] }) };
    });
    expect(result).toEqual({ isError: true, content: [{ type: 'text', text: 'Error: Cancelled' }] });
    expect(late).toBe('ignored');
  });
});
