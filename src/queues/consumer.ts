import { isInputRequiredResult, ProtocolError as SdkProtocolError, type CallToolResult, type ServerNotification } from '@modelcontextprotocol/server';
import { LONG_CALLS_QUEUE } from '../config';
import type { Env } from '../env';
import { sessionStub } from '../sessions/sessionId';
import { invokeTool, progressNotification } from '../server/runTool';
import { taskStub } from '../tasks/taskId';
import type { TaskOutcome } from '../tasks/task';
import { observe } from '../observability/events';
import { formatError } from '../server/formatResult';
import { runsLong } from '../server/policy';
import { toolsFor } from '../server/registry';
import { ToolError, TransientError, type ToolContext, type ToolDefinition } from '../tools/tool';
import type { CallInput, QueuedCall } from './callStorage';
import { afterFailure, interruptedChange, invalidArguments } from './failures';
import { ToolCallMessageSchema, type ToolCallMessage } from './message';

/** How often a running call checks that it is still wanted. */
const CANCEL_CHECK_MS = 1000;

/** Retry delays grow 1, 2, 4… seconds with each attempt, capped at a minute. */
export const backoffSeconds = (attempts: number) => Math.min(60, 2 ** Math.max(0, attempts - 1));

/**
 * The consumer of "tool-calls" and of "tool-calls-long": runs each call through the same registry as
 * direct execution and hands the outcome to the object that owes the answer: the session's, or the
 * task's (CallOwner). The calls of a batch run side by side, so one slow tool does not hold the others
 * past their deadlines (the load harness found that); a call that runs long (runsLong) is moved from
 * "tool-calls" to "tool-calls-long" at once, since the next batch of a queue waits for the current one.
 * Every message is acked on its own. Only a failure that may pass, of a run that had not begun to
 * change anything, is retried with backoff (after the queue's max_retries the dead-letter consumer
 * answers it); any other failure is answered at once (src/queues/failures.ts).
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
  if (queue !== LONG_CALLS_QUEUE && runsLong(tool, call.arguments)) return moveToLongCalls(message, call, env);
  // A tool that ignores its abort signal is not waited for past the deadline: the session has answered
  // with a timeout by then, and the batch (and the consumer) move on. (Found by the load harness.)
  let settled = false;
  const settle = (done: () => void) => {
    if (settled) return;
    settled = true;
    done();
  };
  const retry = (error: unknown) => {
    console.error(JSON.stringify({ level: 'warn', tool: call.tool, callId: call.callId, attempt: message.attempts, error: String(error) }));
    settle(() => message.retry({ delaySeconds: backoffSeconds(message.attempts) }));
  };
  // A call answered meanwhile (cancelled, timed out, its session ended) is no longer wanted: its tool's
  // signal is aborted, so a tool that honours it stops instead of holding the consumer.
  const cancelled = new AbortController();
  const watch = setInterval(() => {
    owner.isPending(call.callId).then(
      (pending) => pending || cancelled.abort(),
      () => {},
    );
  }, CANCEL_CHECK_MS);
  const run = async () => {
    let outcome: TaskOutcome | null;
    try {
      outcome = await attempt(env, call, message.attempts, tool, owner, cancelled.signal);
    } catch (error) {
      return retry(error);
    }
    if (outcome === null) return settle(() => message.ack());
    try {
      await owner.deliver(call.callId, outcome);
      settle(() => message.ack());
    } catch (error) {
      // The answer did not reach its owner: the next attempt runs again, unless this run had begun its change.
      retry(error);
    }
  };
  let timer: ReturnType<typeof setTimeout> | undefined;
  const deadline = new Promise<void>((resolve) => (timer = setTimeout(resolve, Math.max(0, call.deadline - Date.now()))));
  await Promise.race([run(), deadline]);
  clearTimeout(timer);
  clearInterval(watch);
  settle(() => message.ack());
}

/**
 * Hands a long call to the queue of its own, unchanged: nothing of it has run, so its run there is its
 * first. A send that fails is retried as any failure that may pass.
 */
async function moveToLongCalls(message: Message<unknown>, call: ToolCallMessage, env: Env): Promise<void> {
  try {
    await env.TOOL_CALLS_LONG.send(call);
    message.ack();
  } catch (error) {
    console.error(
      JSON.stringify({ level: 'warn', tool: call.tool, callId: call.callId, attempt: message.attempts, error: String(error), movedTo: LONG_CALLS_QUEUE }),
    );
    message.retry({ delaySeconds: backoffSeconds(message.attempts) });
  }
}

/**
 * One attempt at a call: its outcome, or null when its owner has answered it meanwhile; throws when the
 * attempt is to be retried. A later attempt (a retry, or a redelivery after a consumer died) first asks
 * the owner whether an earlier run began its change: then it answers that instead of running again.
 */
async function attempt(
  env: Env,
  call: ToolCallMessage,
  attempts: number,
  tool: ToolDefinition,
  owner: CallOwner,
  cancelled: AbortSignal,
): Promise<TaskOutcome | null> {
  const queued = call.inputStored || attempts > 1 ? await owner.queuedCall(call.callId, call.inputStored === true) : undefined;
  if (queued === null) return null;
  if (queued?.sideEffectBegan) return interruptedChange(tool);
  const input = call.inputStored
    ? queued?.input
    : { arguments: call.arguments ?? {}, ...(call.inputResponses === undefined ? {} : { inputResponses: call.inputResponses }) };
  if (!input) throw new Error(`the input of ${call.tool} call ${call.callId} is not in its owner's storage`);
  const args = tool.input.safeParse(input.arguments);
  if (!args.success) return invalidArguments(tool, args.error);
  let began: Promise<void> | undefined;
  let sideEffectBegan = false;
  const beginSideEffect = () =>
    (began ??= owner.beginSideEffect(call.callId).then(
      (pending) => {
        if (!pending) throw new ToolError(`The call was answered (cancelled or timed out) before ${tool.name} changed anything: nothing was changed.`);
        sideEffectBegan = true;
      },
      (error: unknown) => {
        throw new TransientError(`Could not record with the call's owner that ${tool.name} begins its change: ${String(error)}`);
      },
    ));
  try {
    return await outcomeOf(() => invokeTool(tool, args.data, consumerContext(env, call, input, owner, cancelled, beginSideEffect)));
  } catch (error) {
    const handling = afterFailure(tool, error, sideEffectBegan);
    if (handling.retry) throw error;
    console.error(JSON.stringify({ level: 'warn', tool: call.tool, callId: call.callId, attempt: attempts, error: String(error), retried: false }));
    return handling.outcome;
  }
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
  beginSideEffect(callId: string): Promise<boolean>;
}

function ownerOf(env: Env, call: ToolCallMessage): CallOwner {
  if (call.taskId !== undefined) {
    const task = taskStub(env, call.taskId);
    return {
      deliver: (callId, outcome) => task.deliverOutcome(callId, outcome),
      relay: (callId, n) => task.relayNotification(callId, n),
      isPending: (callId) => task.isPending(callId),
      queuedCall: (callId, withInput) => task.queuedCall(callId, withInput),
      beginSideEffect: (callId) => task.beginSideEffect(callId),
    };
  }
  const session = sessionStub(env, call.sessionId!);
  return {
    deliver: (callId, outcome) => session.deliverResult(callId, asToolResult(outcome)),
    relay: (callId, n) => session.relayNotification(callId, n),
    isPending: (callId) => session.isPending(callId),
    queuedCall: (callId, withInput) => session.queuedCall(callId, withInput),
    beginSideEffect: (callId) => session.beginSideEffect(callId),
  };
}

/**
 * A run's outcome. A tool that throws the SDK's ProtocolError ends with that JSON-RPC error (a task's
 * "failed"), not retried; any other throw is left to afterFailure.
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

function consumerContext(
  env: Env,
  call: ToolCallMessage,
  input: CallInput,
  owner: CallOwner,
  cancelled: AbortSignal,
  beginSideEffect: () => Promise<void>,
): ToolContext {
  return {
    env,
    // A retried call is the same call: what it holds is still its own.
    callId: call.callId,
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
    beginSideEffect,
  };
}
