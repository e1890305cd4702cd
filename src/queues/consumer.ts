import { isInputRequiredResult, ProtocolError as SdkProtocolError, type CallToolResult, type ServerNotification } from '@modelcontextprotocol/server';
import type { Env } from '../env';
import { sessionStub } from '../durable/sessionId';
import { invokeTool, progressNotification } from '../execution/runTool';
import { taskStub } from '../tasks/taskId';
import type { TaskOutcome } from '../tasks/task';
import { injectConsumerFailure } from '../faults/inject';
import { observe } from '../observability/events';
import { formatError } from '../protocol/MessageFormatter';
import { toolsFor } from '../tools/registry';
import type { ToolContext } from '../tools/tool';
import type { CallInput, QueuedCall } from './callStorage';
import { ToolCallMessageSchema, type ToolCallMessage } from './message';

/** How often a running call checks that it is still wanted. */
const CANCEL_CHECK_MS = 1000;

/** Retry delays grow 1, 2, 4… seconds with each attempt, capped at a minute. */
const backoffSeconds = (attempts: number) => Math.min(60, 2 ** Math.max(0, attempts - 1));

/**
 * The "tool-calls" consumer: runs each call through the same registry as direct execution and hands the
 * outcome to the object that owes the answer: the session's, or the task's (CallOwner). The calls of a batch run side by side, so one slow
 * tool does not hold the others past their deadlines (the load harness found that). Every message is
 * acked on its own; a tool that throws is retried with backoff, and after the queue's max_retries it
 * goes to the dead-letter queue.
 */
export async function consumeToolCalls(batch: MessageBatch<unknown>, env: Env): Promise<void> {
  await Promise.all(batch.messages.map((message) => consumeToolCall(message, batch.queue, env)));
}

async function consumeToolCall(message: Message<unknown>, queue: string, env: Env): Promise<void> {
  const parsed = ToolCallMessageSchema.safeParse(message.body);
  if (!parsed.success) {
    // Nothing can be answered without a session and call id; retrying would not help.
    console.error(JSON.stringify({ level: 'error', queue, message: 'malformed tool call message', id: message.id }));
    return message.ack();
  }
  const call = parsed.data;
  observe(env, { kind: 'queue', tool: call.tool, waitMs: Date.now() - message.timestamp.getTime(), attempt: message.attempts });
  const owner = ownerOf(env, call);
  // Past the deadline the session's (or task's) alarm has already answered with a timeout.
  if (Date.now() > call.deadline) return message.ack();
  const tool = toolsFor(env).find((t) => t.name === call.tool);
  if (!tool) {
    await owner.deliver(call.callId, { kind: 'result', result: formatError(new Error(`Unknown tool ${call.tool}`)) });
    return message.ack();
  }
  // A tool that ignores its abort signal is not waited for past the deadline: the session has answered
  // with a timeout by then, and the batch (and the consumer) move on. (Found by the load harness.)
  let settled = false;
  const settle = (done: () => void) => {
    if (settled) return;
    settled = true;
    done();
  };
  // A call answered meanwhile (cancelled, timed out, its session ended) is no longer wanted: its tool's
  // signal is aborted, so a tool that honours it stops instead of holding the consumer.
  const cancelled = new AbortController();
  const watch = setInterval(() => {
    owner.isPending(call.callId).then((pending) => pending || cancelled.abort(), () => {});
  }, CANCEL_CHECK_MS);
  const run = async () => {
    try {
      injectConsumerFailure(env);
      const input = await inputOf(call, owner);
      // Answered meanwhile (its input went with the answer): nothing to run.
      if (input === null) return settle(() => message.ack());
      const outcome = await outcomeOf(() => invokeTool(tool, tool.input.parse(input.arguments), consumerContext(env, call, input, owner, cancelled.signal)));
      await owner.deliver(call.callId, outcome);
      settle(() => message.ack());
    } catch (error) {
      console.error(JSON.stringify({ level: 'warn', tool: call.tool, callId: call.callId, attempt: message.attempts, error: String(error) }));
      settle(() => message.retry({ delaySeconds: backoffSeconds(message.attempts) }));
    }
  };
  let timer: ReturnType<typeof setTimeout> | undefined;
  const deadline = new Promise<void>((resolve) => (timer = setTimeout(resolve, Math.max(0, call.deadline - Date.now()))));
  await Promise.race([run(), deadline]);
  clearTimeout(timer);
  clearInterval(watch);
  settle(() => message.ack());
}

/** The dead-letter consumer: a call that kept failing is answered now, not at its deadline. */
export async function consumeDeadLetters(batch: MessageBatch<unknown>, env: Env): Promise<void> {
  for (const message of batch.messages) {
    const parsed = ToolCallMessageSchema.safeParse(message.body);
    if (parsed.success) {
      const { callId, tool } = parsed.data;
      const result = formatError(new Error(`Tool ${tool} failed repeatedly and was given up`));
      await ownerOf(env, parsed.data).deliver(callId, { kind: 'result', result });
    }
    message.ack();
  }
}

/** Where a queued call's outcome and notifications go: the 2025-era session, or the 2026-07-28 task. */
interface CallOwner {
  deliver(callId: string, outcome: TaskOutcome): Promise<unknown>;
  relay(callId: string, notification: ServerNotification): Promise<unknown>;
  isPending(callId: string): Promise<boolean>;
  queuedCall(callId: string, withInput: boolean): Promise<QueuedCall | null>;
}

/**
 * What the call runs on: from its message, or from the object that owes its answer when it was too
 * large for a message; null when that object has answered the call already.
 */
async function inputOf(call: ToolCallMessage, owner: CallOwner): Promise<CallInput | null> {
  if (!call.inputStored) return { arguments: call.arguments ?? {}, ...(call.inputResponses === undefined ? {} : { inputResponses: call.inputResponses }) };
  const queued = await owner.queuedCall(call.callId, true);
  if (queued === null) return null;
  if (!queued.input) throw new Error(`the input of ${call.tool} call ${call.callId} is not in its owner's storage`);
  return queued.input;
}

function ownerOf(env: Env, call: ToolCallMessage): CallOwner {
  if (call.taskId !== undefined) {
    const task = taskStub(env, call.taskId);
    return {
      deliver: (callId, outcome) => task.deliverOutcome(callId, outcome),
      relay: (callId, n) => task.relayNotification(callId, n),
      isPending: (callId) => task.isPending(callId),
      queuedCall: (callId, withInput) => task.queuedCall(callId, withInput),
    };
  }
  const session = sessionStub(env, call.sessionId!);
  return {
    deliver: (callId, outcome) => session.deliverResult(callId, asToolResult(outcome)),
    relay: (callId, n) => session.relayNotification(callId, n),
    isPending: (callId) => session.isPending(callId),
    queuedCall: (callId, withInput) => session.queuedCall(callId, withInput),
  };
}

/**
 * A run's outcome. A tool that throws the SDK's ProtocolError ends with that JSON-RPC error (a task's
 * "failed"), not retried; any other throw is left to the queue's retries.
 */
async function outcomeOf(run: () => Promise<CallToolResult>): Promise<TaskOutcome> {
  try {
    const result = await run();
    return isInputRequiredResult(result) ? { kind: 'input_required', inputRequests: result.inputRequests ?? {} } : { kind: 'result', result };
  } catch (error) {
    if (error instanceof SdkProtocolError) return { kind: 'error', error: { code: error.code, message: error.message } };
    throw error;
  }
}

/** A session's pending call takes a tool result: an input request goes back to the session's server, an error becomes an error result. */
function asToolResult(outcome: TaskOutcome): CallToolResult {
  switch (outcome.kind) {
    case 'result':
      return outcome.result;
    case 'input_required':
      return { resultType: 'input_required', inputRequests: outcome.inputRequests } as unknown as CallToolResult;
    case 'error':
      return formatError(new Error(outcome.error.message));
  }
}

function consumerContext(env: Env, call: ToolCallMessage, input: CallInput, owner: CallOwner, cancelled: AbortSignal): ToolContext {
  return {
    env,
    caller: call.caller,
    ...(call.sessionId === undefined ? {} : { sessionId: call.sessionId }),
    signal: AbortSignal.any([AbortSignal.timeout(Math.max(1, call.deadline - Date.now())), cancelled]),
    deadline: call.deadline,
    ...(input.inputResponses === undefined ? {} : { inputResponses: input.inputResponses }),
    progress: async (progress, total, message) => {
      // A session relays progress only to a client that asked for it; a task keeps it as its status message.
      if (call.progressToken === undefined && call.taskId === undefined) return;
      await owner.relay(call.callId, progressNotification(call.progressToken ?? call.callId, progress, total, message));
    },
    log: async (level, data) => {
      await owner.relay(call.callId, { method: 'notifications/message', params: { level, data } });
    },
  };
}
