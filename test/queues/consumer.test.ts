import { env } from 'cloudflare:workers';
import { createExecutionContext, createMessageBatch, getQueueResult } from 'cloudflare:test';
import { describe, expect, inject, it } from 'vitest';
import type { Env } from '../../src/env';
import type { ToolCallMessage } from '../../src/queues/message';
import { sessionStub } from '../../src/sessions/sessionId';
import { runMessage, type TaskRecord } from '../../src/tasks/task';
import { taskStub } from '../../src/tasks/taskId';
import worker from '../../src/worker';
import { call, initializeRequest, messagesOf, openSession, parseSse, postJson, rpc, sessionHeaders, sseReader } from '../support/mcp';
import { deliveries, pendingCalls, waitFor } from '../support/sessionStorage';
import { deliverRun, TASK_OWNER, taskWaitingOn, type RunView } from '../support/tasks';
import { fakeN8n } from '../support/tools';

/**
 * The consumer's decisions on one delivery of a message, read from the queue's own record of them
 * (getQueueResult: acked or retried) and from the task that owes the answer (a real TaskObject whose
 * run waits on the call, stored as the task's object stores it).
 */
describe('what the consumer retries and what it answers at once', () => {
  it('answers a fault at once: a bug fails the same way every time', async () => {
    const run = await deliverRun(await taskWaitingOn('test_queued_bug', {}));
    expect(run).toMatchObject({ acked: true, retried: false, task: { status: 'completed', result: { isError: true } } });
    expect(run.text).toMatch(/^Error: test_queued_bug failed: .*null.*It was not retried: this fault would happen again\.$/);
  });

  it('answers arguments the tool does not take at once, naming them', async () => {
    const run = await deliverRun(await taskWaitingOn('test_queued_change', { ms: 'soon' }));
    expect(run).toMatchObject({ acked: true, retried: false, task: { status: 'completed' } });
    expect(run.text).toMatch(/Invalid arguments for test_queued_change: .*ms/s);
  });

  it('retries a failure that may pass, of a run that had changed nothing', async () => {
    const run = await deliverRun(await taskWaitingOn('test_queued_fail', {}));
    expect(run).toMatchObject({ acked: false, retried: true, task: { status: 'working' } });
  });

  it('answers at once, without repeating it, a run that failed after it had begun its change', async () => {
    const run = await deliverRun(await taskWaitingOn('test_queued_change', { fail: true }));
    expect(run).toMatchObject({ acked: true, retried: false, task: { status: 'completed', result: { isError: true } } });
    expect(run.text).toMatch(
      /the service failed after the change was sent \(test\)\. test_queued_change had already sent its change, so whether it was made is unknown; it was not repeated\. Check with test_queued_echo/,
    );
  });

  it('answers "outcome unknown" on a later delivery of a call whose earlier run began its change, instead of running it again', async () => {
    const record = await taskWaitingOn('test_queued_change', {});
    // What an earlier run recorded before its consumer died.
    expect(await taskStub(env, record.taskId).beginSideEffect(record.callId)).toBe(true);
    const run = await deliverRun(record, { attempts: 2 });
    expect(run).toMatchObject({ acked: true, task: { status: 'completed' } });
    expect(run.text).toMatch(/An earlier attempt of this test_queued_change call stopped after it had begun its change.*Check with test_queued_echo/);
    // A later delivery of a call whose earlier run changed nothing runs as usual.
    expect((await deliverRun(await taskWaitingOn('test_queued_change', {}), { attempts: 2 })).text).toBe('changed');
  });

  it('leaves a call answered meanwhile alone, and a run that begins its change after that changes nothing', async () => {
    const cancelled = await taskWaitingOn('test_queued_change', {}, { status: 'cancelled' });
    expect(await deliverRun(cancelled, { attempts: 2 })).toMatchObject({ acked: true, retried: false, task: { status: 'cancelled' } });
    expect(await taskStub(env, cancelled.taskId).beginSideEffect(cancelled.callId)).toBe(false);
  });
});

/**
 * Which queue a call runs from: one that runs a workflow in n8n (src/server/policy.ts runsLong) is moved
 * from tool-calls to tool-calls-long, whose consumer runs it, so the next batch of tool-calls does not
 * wait for it. Against the contract fake of n8n; what the consumer sends to tool-calls-long is kept.
 */
describe('long calls on a queue of their own', () => {
  /** The consumer given one batch of `queue` with these tasks' runs, with an n8n and tool-calls-long kept in `moved`. */
  async function consume(queue: string, runs: ToolCallMessage[], moved: ToolCallMessage[]) {
    const batch = createMessageBatch(
      queue,
      runs.map((body) => ({ id: `${body.callId}-${queue}`, timestamp: new Date(), attempts: 1, body })),
    );
    const toolCallsLong = { send: async (body: ToolCallMessage) => void moved.push(body) } as unknown as Queue<ToolCallMessage>;
    const overrides: Partial<Env> = { N8N_API_URL: inject('n8nUrl'), N8N_API_KEY: inject('n8nKey'), TOOL_CALLS_LONG: toolCallsLong };
    await worker.queue(batch, { ...env, ...overrides });
    return getQueueResult(batch, createExecutionContext());
  }
  /** The task as its owner sees it: its status, and its answer's JSON once there is one. */
  const answerOf = async (task: TaskRecord) => {
    const { status, result } = (await taskStub(env, task.taskId).view(TASK_OWNER)) as unknown as RunView;
    return { status, json: result && JSON.parse(result.content[0]!.text) };
  };

  it('moves a long call from tool-calls to tool-calls-long unrun, runs the short calls of its batch, and runs the long one from there', async () => {
    const noOp = { name: 'Pass', type: 'n8n-nodes-base.noOp', typeVersion: 1, parameters: {} };
    const long = await taskWaitingOn('try_nodes', { nodes: [noOp] });
    const short = await taskWaitingOn('list_workflows', {});
    const moved: ToolCallMessage[] = [];
    const sentBefore = ((await fakeN8n('requests')) as string[]).length;

    const first = await consume('tool-calls', [runMessage(long), runMessage(short)], moved);
    expect(first.explicitAcks.sort()).toEqual([`${long.callId}-tool-calls`, `${short.callId}-tool-calls`].sort());
    expect(moved).toEqual([runMessage(long)]);
    // try_nodes sent nothing to n8n from tool-calls; list_workflows ran and answered.
    expect(((await fakeN8n('requests')) as string[]).slice(sentBefore).filter((r) => r.startsWith('POST '))).toEqual([]);
    expect(await answerOf(long)).toEqual({ status: 'working', json: undefined });
    expect(await answerOf(short)).toEqual({ status: 'completed', json: expect.objectContaining({ workflows: expect.any(Array) }) });

    const second = await consume('tool-calls-long', moved.slice(), moved);
    expect(second.explicitAcks).toEqual([`${long.callId}-tool-calls-long`]);
    expect(moved).toHaveLength(1);
    expect(await answerOf(long)).toMatchObject({ status: 'completed', json: { output: { node: 'Pass' }, cleanUp: { deleted: true } } });
  });
});

/** Queued calls through the real queue and consumer, answered to the session that asked, on each transport. */
describe('a queued call, run by the consumer and answered where it was asked', () => {
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
});

/**
 * What becomes of the consumer's answer at the session that owes it (src/sessions/PendingCalls.ts, seen
 * from the queue's side): the first answer is taken, anything later is ignored.
 */
describe('the consumer’s answer, taken once by the session that owes it', () => {
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
});
