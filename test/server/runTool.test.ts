import { env } from 'cloudflare:workers';
import type { ServerContext, ServerNotification } from '@modelcontextprotocol/server';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { Env } from '../../src/env';
import type { Principal } from '../../src/principal';
import { ANSWER_BUDGET_BYTES } from '../../src/config';
import { authInfoOf } from '../../src/server/caller';
import { answerBytes } from '../../src/protocol/answerBytes';
import { callRequestOf, invokeTool, progressNotification, runDirect, toolContext, type CallRequest } from '../../src/server/runTool';
import { defineTool, rawResult, ToolError, TransientError, type ToolContext, type ToolDefinition } from '../../src/tools/tool';

const caller: Principal = { id: 'key_run', subject: 'key_run', scopes: ['nodes:read'] };

const tool = (run: ToolDefinition['run'], overrides: Partial<ToolDefinition> = {}): ToolDefinition =>
  defineTool({
    name: 'run_probe',
    title: 'Run probe',
    description: 'A tool for the runTool tests.',
    input: z.object({}),
    annotations: { readOnlyHint: true },
    execution: 'direct',
    run,
    ...overrides,
  });

/** An Env whose Analytics Engine binding keeps the data points written, and no log lines below warn. */
function observed(): { env: Env; points: AnalyticsEngineDataPoint[] } {
  const points: AnalyticsEngineDataPoint[] = [];
  return { env: { ...env, LOG_LEVEL: 'warn', METRICS: { writeDataPoint: (point) => void points.push(point!) } } as Env, points };
}

const context = (toolEnv: Env, overrides: Partial<ToolContext> = {}): ToolContext => ({
  env: toolEnv,
  callId: crypto.randomUUID(),
  caller,
  signal: new AbortController().signal,
  deadline: Date.now() + 10_000,
  progress: async () => {},
  log: async () => {},
  beginSideEffect: async () => {},
  ...overrides,
});

describe('running a tool', () => {
  it('formats what it returns as a result: text, and structuredContent when the tool declares an output', async () => {
    const { env: toolEnv } = observed();
    expect(
      await invokeTool(
        tool(() => ({ a: 1 })),
        {},
        context(toolEnv),
      ),
    ).toEqual({ content: [{ type: 'text', text: '{"a":1}' }] });
    const structured = tool(() => ({ a: 1 }), { output: z.object({ a: z.number() }) });
    expect(await invokeTool(structured, {}, context(toolEnv))).toEqual({ content: [{ type: 'text', text: '{"a":1}' }], structuredContent: { a: 1 } });
    const raw = {
      content: [
        { type: 'text' as const, text: 'as it is' },
        { type: 'text' as const, text: 'two blocks' },
      ],
    };
    expect(
      await invokeTool(
        tool(() => rawResult(raw)),
        {},
        context(toolEnv),
      ),
    ).toEqual(raw);
  });

  it('holds every answer to the answer budget, the tool’s own errors too', async () => {
    const { env: toolEnv } = observed();
    const large = await invokeTool(
      tool(() => 'x'.repeat(ANSWER_BUDGET_BYTES)),
      {},
      context(toolEnv),
    );
    expect(answerBytes(large)).toBeLessThanOrEqual(ANSWER_BUDGET_BYTES);
    expect(large).toMatchObject({
      isError: true,
      content: [{ text: expect.stringContaining(`more than the ${ANSWER_BUDGET_BYTES.toLocaleString('en-US')} one answer may carry here`) }],
    });
    const refusal = await invokeTool(
      tool(() => {
        throw new ToolError('y'.repeat(ANSWER_BUDGET_BYTES));
      }),
      {},
      context(toolEnv),
    );
    expect(answerBytes(refusal)).toBeLessThanOrEqual(ANSWER_BUDGET_BYTES);
  });

  it('gives the tool the arguments and the context it was handed', async () => {
    const seen: unknown[] = [];
    const ctx = context(observed().env, { sessionId: 's1' });
    await invokeTool(
      tool((args, toolCtx) => void seen.push(args, toolCtx)),
      { x: 1 },
      ctx,
    );
    expect(seen).toEqual([{ x: 1 }, ctx]);
  });

  it('answers a ToolError as the tool’s own error result, and throws any other failure on, for the queue to retry or answer', async () => {
    const { env: toolEnv } = observed();
    expect(
      await invokeTool(
        tool(() => {
          throw new ToolError('no such workflow');
        }),
        {},
        context(toolEnv),
      ),
    ).toEqual({ isError: true, content: [{ type: 'text', text: 'Error: no such workflow' }] });
    const transient = new TransientError('n8n is down');
    await expect(
      invokeTool(
        tool(() => {
          throw transient;
        }),
        {},
        context(toolEnv),
      ),
    ).rejects.toBe(transient);
    await expect(
      invokeTool(
        tool(() => Promise.reject(new TypeError('a bug'))),
        {},
        context(toolEnv),
      ),
    ).rejects.toThrow('a bug');
  });

  it('records each run: the tool, where it ran, its outcome (ok, error result, or failed) and its time', async () => {
    const { env: toolEnv, points } = observed();
    await invokeTool(
      tool(() => 'fine'),
      {},
      context(toolEnv),
      'direct',
    );
    await invokeTool(
      tool(() => rawResult({ isError: true, content: [] })),
      {},
      context(toolEnv),
    );
    await invokeTool(
      tool(() => {
        throw new ToolError('refused');
      }),
      {},
      context(toolEnv),
    );
    await invokeTool(
      tool(() => {
        throw new Error('broke');
      }),
      {},
      context(toolEnv),
    ).catch(() => {});
    expect(points.map((p) => p.blobs)).toEqual([
      ['tool', 'run_probe', 'ok', 'direct'],
      ['tool', 'run_probe', 'error', 'queued'],
      ['tool', 'run_probe', 'error', 'queued'],
      ['tool', 'run_probe', 'failed', 'queued'],
    ]);
    for (const point of points) expect(point.doubles?.[0]).toBeGreaterThanOrEqual(0);
  });

  it('runs directly where the request arrived: whatever happens becomes a result, and the run is recorded as direct', async () => {
    const { env: toolEnv, points } = observed();
    expect(
      await runDirect(
        tool(() => {
          throw new Error('broke');
        }),
        {},
        context(toolEnv),
      ),
    ).toEqual({ isError: true, content: [{ type: 'text', text: 'Error: broke' }] });
    expect(
      await runDirect(
        tool(() => 'fine'),
        {},
        context(toolEnv),
      ),
    ).toEqual({ content: [{ type: 'text', text: 'fine' }] });
    expect(points.map((p) => p.blobs?.[3])).toEqual(['direct', 'direct']);
  });
});

describe('the request a tool call came in', () => {
  /** The parts of the SDK's per-request context callRequestOf reads, with what the handler sends through it. */
  function sdkContext(mcpReq: Record<string, unknown>) {
    const sent: unknown[] = [];
    const ctx = {
      mcpReq: {
        id: 'req-1',
        method: 'tools/call',
        signal: new AbortController().signal,
        notify: async (n: ServerNotification) => void sent.push(['notify', n]),
        log: async (level: string, data: unknown) => void sent.push(['log', level, data]),
        ...mcpReq,
      },
      http: { authInfo: authInfoOf(caller) },
    } as unknown as ServerContext;
    return { ctx, sent };
  }

  it('carries the SDK’s request: its id, the caller of its auth info, its signal, and the client’s progress token and input answers', async () => {
    const { ctx, sent } = sdkContext({ _meta: { progressToken: 'p1' }, inputResponses: { confirm: { action: 'accept' } } });
    const call = callRequestOf(ctx);
    expect(call).toMatchObject({ requestId: 'req-1', caller, progressToken: 'p1', inputResponses: { confirm: { action: 'accept' } } });
    expect(call.signal).toBe(ctx.mcpReq.signal);
    await call.notify({ method: 'notifications/progress', params: { progressToken: 'p1', progress: 1 } });
    await call.log('info', 'hello');
    expect(sent).toEqual([
      ['notify', { method: 'notifications/progress', params: { progressToken: 'p1', progress: 1 } }],
      ['log', 'info', 'hello'],
    ]);
  });

  it('has no progress token or input answers the client did not send', () => {
    const call = callRequestOf(sdkContext({}).ctx);
    expect(call).not.toHaveProperty('progressToken');
    expect(call).not.toHaveProperty('inputResponses');
  });
});

describe('the context of a tool run where its request arrived', () => {
  const request = (overrides: Partial<CallRequest> = {}) => {
    const sent: ServerNotification[] = [];
    const logged: unknown[] = [];
    const call: CallRequest = {
      requestId: 1,
      caller,
      signal: new AbortController().signal,
      notify: async (n) => void sent.push(n),
      log: async (level, data) => void logged.push([level, data]),
      ...overrides,
    };
    return { call, sent, logged };
  };

  it('has the caller, the session, the signal and the input answers of its request, and the tool’s deadline', () => {
    const { call } = request({ inputResponses: { a: 1 } });
    const before = Date.now();
    const ctx = toolContext(
      env,
      tool(() => 'x', { timeoutMs: 5000 }),
      'session-1',
      call,
    );
    expect(ctx).toMatchObject({ caller, sessionId: 'session-1', inputResponses: { a: 1 } });
    expect(ctx.signal).toBe(call.signal);
    expect(ctx.deadline).toBeGreaterThanOrEqual(before + 5000);
    expect(ctx.deadline).toBeLessThanOrEqual(Date.now() + 5000);
    const modern = toolContext(
      env,
      tool(() => 'x'),
      undefined,
      request().call,
    );
    expect(modern).not.toHaveProperty('sessionId');
    expect(modern).not.toHaveProperty('inputResponses');
  });

  it('sends progress on the request’s stream only when the client asked for it, with its token', async () => {
    const asked = request({ progressToken: 'tok' });
    await toolContext(
      env,
      tool(() => 'x'),
      undefined,
      asked.call,
    ).progress(2, 3, 'two of three');
    expect(asked.sent).toEqual([{ method: 'notifications/progress', params: { progressToken: 'tok', progress: 2, total: 3, message: 'two of three' } }]);
    const notAsked = request();
    await toolContext(
      env,
      tool(() => 'x'),
      undefined,
      notAsked.call,
    ).progress(2, 3);
    expect(notAsked.sent).toEqual([]);
  });

  it('passes log entries to the request, and has nothing to record for a side effect: a direct call is never repeated', async () => {
    const { call, logged } = request();
    const ctx = toolContext(
      env,
      tool(() => 'x'),
      undefined,
      call,
    );
    await ctx.log('warning', { slow: true });
    expect(logged).toEqual([['warning', { slow: true }]]);
    await expect(ctx.beginSideEffect()).resolves.toBeUndefined();
  });
});

describe('a progress notification', () => {
  it('names the token and the progress, and the total and message only when there are some', () => {
    expect(progressNotification('t', 1)).toEqual({ method: 'notifications/progress', params: { progressToken: 't', progress: 1 } });
    expect(progressNotification(7, 1, 4, 'a quarter')).toEqual({
      method: 'notifications/progress',
      params: { progressToken: 7, progress: 1, total: 4, message: 'a quarter' },
    });
    expect(progressNotification('t', 1, undefined, '')).toEqual({ method: 'notifications/progress', params: { progressToken: 't', progress: 1 } });
  });
});
