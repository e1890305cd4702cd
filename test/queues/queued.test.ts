import { env } from 'cloudflare:workers';
import { evictDurableObject, runInDurableObject } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import type { TaskObject } from '../../src/tasks/TaskObject';
import { sessionStub } from '../../src/sessions/sessionId';
import { taskStub } from '../../src/tasks/taskId';
import { deliveries, inSessionStorage, pendingCalls, waitFor } from '../support/sessionStorage';
import { call, initializeRequest, messagesOf, openSession, parseSse, postJson, rpc, sessionHeaders, sseReader } from '../support/mcp';
import { modern, pollTask, withTasks } from '../support/modern';

describe('queued tool calls', () => {
  it('answers a queued call on the POST stream (Streamable HTTP)', async () => {
    const sessionId = await openSession();
    const { reply } = await rpc(sessionId, 'tools/call', { name: 'test_queued_echo', arguments: { text: 'hi' } });
    expect(reply?.result).toEqual({ content: [{ type: 'text', text: '{"echo":"hi"}' }], structuredContent: { echo: 'hi' } });
    expect(await pendingCalls(sessionId)).toEqual([]);
    expect(await deliveries(sessionId)).toEqual({ delivered: 1, ignored: 0 });
  });

  it('answers a queued call on the HTTP+SSE stream', async () => {
    const response = await call('/sse');
    const stream = sseReader(response);
    const endpoint = (await stream.next()).data;
    await postJson(endpoint, initializeRequest(1, '2024-11-05'));
    await stream.next((f) => f.event === 'message');
    await postJson(endpoint, { jsonrpc: '2.0', method: 'notifications/initialized' });
    await postJson(endpoint, { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'test_queued_echo', arguments: { text: 'sse' } } });
    const result = JSON.parse((await stream.next((f) => f.event === 'message')).data);
    expect(result).toMatchObject({ id: 2, result: { structuredContent: { echo: 'sse' } } });
    await stream.cancel();
  });

  it('answers a queued call in /mcp/sse query mode', async () => {
    const params = encodeURIComponent(JSON.stringify({ toolId: 'test_queued_echo', inputs: { text: 'n8n' } }));
    const [event] = parseSse(await (await call(`/mcp/sse?method=mcp/executeTool&id=3&params=${params}`)).text());
    expect(JSON.parse(event!.data)).toMatchObject({ id: 3, result: { outputs: { echo: 'n8n' } } });
  });

  it('relays the consumer’s progress on the request’s stream', async () => {
    const sessionId = await openSession();
    const response = await postJson(
      '/mcp',
      { jsonrpc: '2.0', id: 4, method: 'tools/call', params: { name: 'test_queued_progress', arguments: {}, _meta: { progressToken: 'p1' } } },
      sessionHeaders(sessionId),
    );
    const messages = await messagesOf(response);
    const progress = messages.filter((m) => m.method === 'notifications/progress').map((m) => m.params);
    expect(progress).toEqual([
      { progressToken: 'p1', progress: 1, total: 3, message: 'step 1' },
      { progressToken: 'p1', progress: 2, total: 3, message: 'step 2' },
      { progressToken: 'p1', progress: 3, total: 3, message: 'step 3' },
    ]);
    expect(messages.at(-1)).toMatchObject({ id: 4, result: { content: [{ text: 'done' }] } });
  });

  it('takes only the first of duplicate results', async () => {
    const sessionId = await openSession();
    const answer = rpc(sessionId, 'tools/call', { name: 'test_queued_slow', arguments: { ms: 700 } });
    const [pending] = await waitFor(
      () => pendingCalls(sessionId),
      (p) => p.length === 1,
    );
    const stub = sessionStub(env, sessionId);
    const first = { content: [{ type: 'text' as const, text: 'first' }] };
    expect(await stub.deliverResult(pending!.callId, first)).toBe('delivered');
    expect(await stub.deliverResult(pending!.callId, { content: [{ type: 'text', text: 'second' }] })).toBe('ignored');
    expect((await answer).reply?.result).toEqual(first);
    // The consumer's own result, when it comes, is the third and is ignored too.
    expect(
      await waitFor(
        () => deliveries(sessionId),
        (s) => s.ignored >= 2,
      ),
    ).toEqual({ delivered: 1, ignored: 2 });
  });

  it('drops a call the client cancels, and its late result', async () => {
    const sessionId = await openSession();
    const answer = postJson(
      '/mcp',
      { jsonrpc: '2.0', id: 9, method: 'tools/call', params: { name: 'test_queued_slow', arguments: { ms: 600 } } },
      sessionHeaders(sessionId),
    );
    await waitFor(
      () => pendingCalls(sessionId),
      (p) => p.length === 1,
    );
    const cancel = await postJson('/mcp', { jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 9 } }, sessionHeaders(sessionId));
    expect(cancel.status).toBe(202);
    // No response for a cancelled request: its stream ends without one.
    expect((await messagesOf(await answer)).filter((m) => m.id === 9)).toEqual([]);
    expect(
      await waitFor(
        () => deliveries(sessionId),
        (s) => s.ignored >= 1,
      ),
    ).toEqual({ delivered: 0, ignored: 1 });
  });

  it('cleans up pending calls when the session is deleted; late results are dropped', async () => {
    const sessionId = await openSession();
    void rpc(sessionId, 'tools/call', { name: 'test_queued_slow', arguments: { ms: 600 } }).catch(() => {});
    await waitFor(
      () => pendingCalls(sessionId),
      (p) => p.length === 1,
    );
    expect((await call('/mcp', { method: 'DELETE', headers: sessionHeaders(sessionId) })).status).toBe(200);
    expect(await pendingCalls(sessionId)).toEqual([]);
  });

  it('retries a throwing tool, then answers from the dead-letter queue', async () => {
    const sessionId = await openSession();
    const { reply } = await rpc(sessionId, 'tools/call', { name: 'test_queued_fail', arguments: {} });
    expect(reply?.result).toMatchObject({ isError: true, content: [{ text: expect.stringMatching(/failed repeatedly/) }] });
  }, 30_000);

  it('answers 200 concurrent queued calls across 20 sessions, each exactly once', async () => {
    const sessions = await Promise.all(Array.from({ length: 20 }, () => openSession()));
    const replies = await Promise.all(
      sessions.flatMap((sessionId, s) =>
        Array.from({ length: 10 }, (_, i) =>
          rpc(sessionId, 'tools/call', { name: 'test_queued_echo', arguments: { text: `${s}-${i}` } }, 100 + i).then(({ reply, messages }) => ({
            s,
            i,
            reply,
            answers: messages.filter((m) => m.id === 100 + i).length,
          })),
        ),
      ),
    );
    expect(replies).toHaveLength(200);
    for (const { s, i, reply, answers } of replies) {
      expect(answers).toBe(1);
      expect(reply?.result.structuredContent).toEqual({ echo: `${s}-${i}` });
    }
  }, 60_000);

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

    it('travel by reference for a task too, kept beside its record until it ends', async () => {
      const text = 'y'.repeat(300_000);
      const { body } = await modern('tools/call', { name: 'test_queued_echo', arguments: { text } }, { capabilities: withTasks });
      expect(body.result?.resultType, JSON.stringify(body.error)).toBe('task');
      expect(await pollTask(body.result.taskId)).toMatchObject({ status: 'completed', result: { structuredContent: { echo: text } } });
      const kept = await runInDurableObject(taskStub(env, body.result.taskId), async (_: TaskObject, state) => [
        ...(await state.storage.list({ prefix: 'call:' })).keys(),
      ]);
      expect(kept).toEqual([]);
    });
  });
});
