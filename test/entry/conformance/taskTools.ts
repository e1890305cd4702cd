import { acceptedContent, inputRequired, ProtocolError, ProtocolErrorCode } from '@modelcontextprotocol/server';
import { z } from 'zod';
import { onAbort } from '../../../src/lib/abort';
import { defineTool, ToolError } from '../../../src/tools/tool';

/**
 * Test-only tools the conformance suite's tasks scenarios call (SEP-2663), served with the
 * conformance pack. `greet` answers at once; the others run on the queue, as tasks for a client that
 * declares the extension; the "required" ones only so.
 */
const readOnly = { annotations: { readOnlyHint: true, openWorldHint: false } };
const asTask = { ...readOnly, execution: 'queued' as const, taskSupport: 'required' as const };

const confirmSchema = { type: 'object' as const, properties: { confirm: { type: 'boolean' as const } }, required: ['confirm'] };
const namedConfirmSchema = {
  type: 'object' as const,
  properties: { name: { type: 'string' as const }, confirm: { type: 'boolean' as const } },
  required: ['confirm'],
};

/** Sleeps, waking early when the call is cancelled (the consumer aborts the signal of a call nobody waits for). */
const sleep = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, ms);
    onAbort(signal, () => (clearTimeout(timer), resolve()));
  });

export const TASK_TEST_TOOLS = [
  defineTool({
    ...readOnly,
    execution: 'direct',
    name: 'greet',
    title: 'Greet',
    description: 'Greets by name, at once (never a task) (tests).',
    input: z.object({ name: z.string() }),
    run: ({ name }) => `Hello, ${name}!`,
  }),
  defineTool({
    ...readOnly,
    execution: 'queued',
    taskSupport: 'optional',
    name: 'slow_compute',
    title: 'Slow compute',
    description: 'Works for `seconds` before answering; a task for clients that take tasks (tests).',
    input: z.object({ seconds: z.number().int().min(0).max(600), label: z.string().optional() }),
    timeoutMs: 11 * 60 * 1000,
    async run({ seconds, label }, ctx) {
      await sleep(seconds * 1000, ctx.signal);
      if (ctx.signal.aborted) throw new ToolError(`slow_compute ${label ?? ''} stopped`);
      return `Computed ${label ?? ''} in ${seconds} s`;
    },
  }),
  defineTool({
    ...asTask,
    name: 'failing_job',
    title: 'Failing job',
    description: 'A job that ends with a tool error (isError) (tests).',
    input: z.object({}),
    async run(_args, ctx) {
      await sleep(500, ctx.signal);
      throw new ToolError('The job failed (test)');
    },
  }),
  defineTool({
    ...asTask,
    name: 'protocol_error_job',
    title: 'Protocol error job',
    description: 'A job that ends with a JSON-RPC error: its task fails (tests).',
    input: z.object({}),
    run: () => {
      throw new ProtocolError(ProtocolErrorCode.InternalError, 'The job hit a protocol error (test)');
    },
  }),
  defineTool({
    ...asTask,
    name: 'confirm_delete',
    title: 'Confirm delete',
    description: 'Asks the user to confirm (the task waits in input_required), then "deletes" (tests).',
    input: z.object({ filename: z.string() }),
    run({ filename }, ctx) {
      const answer = acceptedContent<{ confirm?: unknown }>(ctx.inputResponses, 'confirm');
      if (answer?.confirm === undefined) {
        return inputRequired({ inputRequests: { confirm: inputRequired.elicit({ message: `Delete ${filename}?`, requestedSchema: confirmSchema }) } });
      }
      return answer.confirm === true ? `Deleted ${filename}` : `Kept ${filename}`;
    },
  }),
  defineTool({
    ...asTask,
    name: 'multi_input',
    title: 'Multiple inputs',
    description: 'Asks two questions at once; the task goes on when both are answered (tests).',
    input: z.object({}),
    run(_args, ctx) {
      const first = acceptedContent<{ name?: unknown }>(ctx.inputResponses, 'first');
      const second = acceptedContent<{ name?: unknown }>(ctx.inputResponses, 'second');
      if (first && second) return `Got ${String(first.name)} and ${String(second.name)}`;
      return inputRequired({
        inputRequests: {
          first: inputRequired.elicit({ message: 'First answer?', requestedSchema: namedConfirmSchema }),
          second: inputRequired.elicit({ message: 'Second answer?', requestedSchema: namedConfirmSchema }),
        },
      });
    },
  }),
  defineTool({
    ...asTask,
    name: 'test_tool_with_task',
    title: 'Input, then a task',
    description: 'Asks for a name in a synchronous round, then runs as a task (tests).',
    input: z.object({}),
    inputFirst(_args, inputResponses) {
      if (typeof acceptedContent<{ name?: unknown }>(inputResponses, 'user_name')?.name === 'string') return undefined;
      const requestedSchema = { type: 'object' as const, properties: { name: { type: 'string' as const } }, required: ['name'] };
      return inputRequired({ inputRequests: { user_name: inputRequired.elicit({ message: 'Your name?', requestedSchema }) } });
    },
    run(_args, ctx) {
      return `Hello from the task, ${String(acceptedContent<{ name?: unknown }>(ctx.inputResponses, 'user_name')?.name)}!`;
    },
  }),
];
