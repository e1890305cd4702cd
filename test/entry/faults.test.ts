import { env } from 'cloudflare:workers';
import { createExecutionContext, createMessageBatch, getQueueResult } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import { call, callWithEnv, messagesOf, openSession, postJson, sessionHeaders, sseReader } from '../support/mcp';
import { pendingCalls, waitFor } from '../support/sessionStorage';
import entry from './worker';

const evict = (sessionId: string) => call(`/__faults/evict?sessionId=${sessionId}`, { method: 'POST' });

describe('fault injection hooks (the test entry)', () => {
  it('do not exist in the production Worker: 404', async () => {
    const response = await callWithEnv(`/__faults/evict?sessionId=${'A'.repeat(43)}`, {}, { method: 'POST' });
    expect(response.status).toBe(404);
  });

  it('refuse an eviction of something that is no session id: 400', async () => {
    const response = await evict('not-a-session');
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ error: { code: -32600, message: 'Bad Request: sessionId' } });
  });

  it('reset a session object mid-call: the call stream drops, the session and its pending call survive', async () => {
    const sessionId = await openSession();
    const response = await postJson(
      '/mcp',
      { jsonrpc: '2.0', id: 7, method: 'tools/call', params: { name: 'test_queued_slow', arguments: { ms: 300 } } },
      sessionHeaders(sessionId),
    );
    expect(response.status).toBe(200);
    const stream = sseReader(response);
    expect((await evict(sessionId)).status).toBe(204);
    await expect(stream.next((f) => f.data.includes('"id":7'))).rejects.toThrow();
    // The state is in storage: the next request is answered, and the queued call is still settled once.
    const ping = await postJson('/mcp', { jsonrpc: '2.0', id: 8, method: 'ping' }, sessionHeaders(sessionId));
    expect(await messagesOf(ping)).toContainEqual({ jsonrpc: '2.0', id: 8, result: {} });
    expect(
      await waitFor(
        () => pendingCalls(sessionId),
        (p) => p.length === 0,
      ),
    ).toEqual([]);
  });

  describe('a failing consumer attempt', () => {
    /** One message on `queue` through the test entry's consumer; what the queue was told about it. */
    const consume = async (queue: string, failRate: string | undefined, attempts: number) => {
      const batch = createMessageBatch(queue, [{ id: 'm1', timestamp: new Date(), attempts, body: { not: 'a tool call' } }]);
      const ctx = createExecutionContext();
      await entry.queue(batch, { ...env, FAULT_QUEUE_FAIL_RATE: failRate });
      return getQueueResult(batch, ctx);
    };

    it('leaves the message to the queue at FAULT_QUEUE_FAIL_RATE 1: retried, never acked', async () => {
      const result = await consume('tool-calls', '1', 3);
      // (The test queue does not record a retry's delay.)
      expect(result.retryMessages.map((m) => m.msgId)).toEqual(['m1']);
      expect(result.explicitAcks).toEqual([]);
    });

    it('never happens without a rate, nor in the dead-letter consumer: the message reaches the production consumer', async () => {
      // A body that is no tool call is acked by the consumer (nothing could answer it).
      expect((await consume('tool-calls', undefined, 1)).explicitAcks).toEqual(['m1']);
      expect((await consume('tool-calls-dlq', '1', 1)).explicitAcks).toEqual(['m1']);
    });
  });
});
