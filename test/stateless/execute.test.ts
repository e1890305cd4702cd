import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { Principal } from '../../src/principal';
import type { CallRequest } from '../../src/server/runTool';
import { modernExecutor } from '../../src/stateless/execute';
import { defineTool, type ToolContext, type ToolDefinition } from '../../src/tools/tool';
import { modern } from '../support/modern';

const caller: Principal = { id: 'key_modern', subject: 'key_modern', scopes: ['*'] };

/** A tool that waits for its signal and answers what aborted it, and when. */
const waitsForItsSignal = (timeoutMs: number): ToolDefinition =>
  defineTool({
    name: 'wait_probe',
    title: 'Wait probe',
    description: 'Waits until its signal aborts.',
    input: z.object({}),
    annotations: { readOnlyHint: true },
    execution: 'queued',
    timeoutMs,
    run: (_args, ctx) =>
      new Promise((resolve) => {
        const started = Date.now();
        ctx.signal.addEventListener('abort', () => resolve({ reason: (ctx.signal.reason as Error).name, ms: Date.now() - started }));
      }),
  });

const request = (signal = new AbortController().signal): CallRequest => ({ requestId: 1, caller, signal, notify: async () => {}, log: async () => {} });
const answerOf = (result: { content: unknown[] }) => JSON.parse((result.content[0] as { text: string }).text) as { reason: string; ms: number };

describe('a 2026-07-28 tools/call, run where the request arrived', () => {
  it('runs the tool under its deadline: its signal aborts when the tool’s time is up', async () => {
    const { reason, ms } = answerOf(await modernExecutor(env)(waitsForItsSignal(150), {}, request()));
    expect(reason).toBe('TimeoutError');
    expect(ms).toBeGreaterThanOrEqual(140);
    expect(ms).toBeLessThan(1000);
  });

  it('stops the tool when the request goes away before its deadline', async () => {
    const client = new AbortController();
    const running = modernExecutor(env)(waitsForItsSignal(60_000), {}, request(client.signal));
    client.abort(new DOMException('client gone', 'AbortError'));
    expect(answerOf(await running).reason).toBe('AbortError');
  });

  it('gives the tool the request’s caller and no session, and answers any failure as an error result', async () => {
    let seen: ToolContext | undefined;
    const failing = defineTool({
      name: 'fail_probe',
      title: 'Fail probe',
      description: 'Fails.',
      input: z.object({}),
      annotations: { readOnlyHint: true },
      execution: 'direct',
      run: (_args, ctx) => {
        seen = ctx;
        throw new Error('broke');
      },
    });
    expect(await modernExecutor(env)(failing, {}, request())).toEqual({ isError: true, content: [{ type: 'text', text: 'Error: broke' }] });
    expect(seen?.caller).toEqual(caller);
    expect(seen).not.toHaveProperty('sessionId');
  });

  it('answers a queued tool in the request’s own response for a client that does not take tasks', async () => {
    const plain = await modern('tools/call', { name: 'test_queued_echo', arguments: { text: 'inline' } });
    expect(plain.body.result).toMatchObject({ resultType: 'complete', structuredContent: { echo: 'inline' } });
  });
});
