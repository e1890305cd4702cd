import { env } from 'cloudflare:workers';
import { createExecutionContext, waitOnExecutionContext } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import { onSession } from '../../src/sessions/sessionId';
import worker from '../../src/worker';
import { call, messagesOf, openSession, ORIGIN, postJson, sessionHeaders, sseReader } from '../support/mcp';
import { pendingCalls, waitFor } from '../support/sessionStorage';

const evict = (sessionId: string) => call(`/__faults/evict?sessionId=${sessionId}`, { method: 'POST' });

describe('fault injection hooks', () => {
  it('do not exist unless FAULT_INJECTION is on: 404 before authentication', async () => {
    const ctx = createExecutionContext();
    const request = new Request(`${ORIGIN}/__faults/evict?sessionId=${'A'.repeat(43)}`, { method: 'POST' });
    const response = await worker.fetch(request as Parameters<typeof worker.fetch>[0], { ...env, FAULT_INJECTION: undefined }, ctx);
    await waitOnExecutionContext(ctx);
    expect(response.status).toBe(404);
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
    expect(await waitFor(() => pendingCalls(sessionId), (p) => p.length === 0)).toEqual([]);
  });

  it('turn a failed call on a session object into a 503 to retry, not a 500', async () => {
    const failing = onSession(env, 'A'.repeat(43), () => Promise.reject(new Error('Durable Object reset')));
    await expect(failing).rejects.toMatchObject({ status: 503, headers: { 'Retry-After': '1' } });
  });
});
