import { z } from 'zod';
import { defineTool, TransientError, type ToolContext } from '../../../src/tools/tool';

/**
 * Test-only tools that run through the tool-calls queue (and one that runs where its request arrives),
 * served with the conformance pack by the test entry (../worker.ts): they exercise
 * results, progress, retries and the dead-letter answer, deadlines, and what a run knows of its caller.
 */
const queued = { annotations: { readOnlyHint: true, openWorldHint: false }, execution: 'queued' as const };
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const callerOutput = z.object({ id: z.string(), subject: z.string(), scopes: z.array(z.string()) });
const caller = { input: z.object({}), output: callerOutput, run: (_args: unknown, ctx: ToolContext) => ({ ...ctx.caller }) };

export const QUEUE_TEST_TOOLS = [
  defineTool({
    ...queued,
    ...caller,
    execution: 'direct',
    name: 'test_caller',
    title: 'Caller',
    description: 'Answers the caller it was given (id, subject, scopes), where its request arrived (tests).',
  }),
  defineTool({
    ...queued,
    ...caller,
    name: 'test_queued_caller',
    title: 'Queued caller',
    description: 'Answers the caller it was given (id, subject, scopes), through the queue (tests).',
  }),
  defineTool({
    ...queued,
    name: 'test_queued_echo',
    title: 'Queued echo',
    description: 'Echoes its text back, through the queue (tests).',
    input: z.object({ text: z.string() }),
    output: z.object({ echo: z.string() }),
    run: ({ text }) => ({ echo: text }),
  }),
  defineTool({
    ...queued,
    name: 'test_queued_progress',
    title: 'Queued progress',
    description: 'Reports progress 1/3, 2/3, 3/3 from the consumer, then answers (tests).',
    input: z.object({}),
    async run(_args, ctx) {
      for (let step = 1; step <= 3; step++) await ctx.progress(step, 3, `step ${step}`);
      return 'done';
    },
  }),
  defineTool({
    ...queued,
    name: 'test_queued_slow',
    title: 'Queued slow',
    description: 'Sleeps for `ms` before answering; its deadline is 1 s (tests). `padding` is ignored: it makes the arguments as large as a test needs.',
    timeoutMs: 1000,
    input: z.object({ ms: z.number().int().min(0).max(30_000), padding: z.string().optional() }),
    async run({ ms }) {
      await sleep(ms);
      return `slept ${ms} ms`;
    },
  }),
  defineTool({
    ...queued,
    name: 'test_queued_fail',
    title: 'Queued failure',
    description: 'Always fails in a way that may pass, so the queue retries it and the dead-letter consumer answers (tests).',
    input: z.object({}),
    run: () => {
      throw new TransientError('transient failure (test)');
    },
  }),
  defineTool({
    ...queued,
    name: 'test_queued_bug',
    title: 'Queued fault',
    description: 'Always fails as a bug does (a TypeError): answered at once, never retried (tests).',
    input: z.object({}),
    run: () => (null as unknown as { field: string }).field,
  }),
  defineTool({
    ...queued,
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
    checkWith: 'test_queued_echo',
    name: 'test_queued_change',
    title: 'Queued change',
    description: 'Begins a side effect, then answers "changed" after `ms`, or fails in a way that may pass if `fail` (tests).',
    input: z.object({ ms: z.number().int().min(0).max(30_000).default(0), fail: z.boolean().default(false) }),
    async run({ ms, fail }, ctx) {
      await ctx.beginSideEffect();
      await sleep(ms);
      if (fail) throw new TransientError('the service failed after the change was sent (test)');
      return 'changed';
    },
  }),
];
