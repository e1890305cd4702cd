import type { Env } from '../env';
import { sessionStub } from '../durable/sessionId';
import { invokeTool } from '../execution/runTool';
import { injectConsumerFailure } from '../faults/inject';
import { observe } from '../observability/events';
import { formatError } from '../protocol/MessageFormatter';
import { toolsFor } from '../tools/registry';
import type { ToolContext } from '../tools/tool';
import { ToolCallMessageSchema, type ToolCallMessage } from './message';

/** Retry delays grow 1, 2, 4… seconds with each attempt, capped at a minute. */
const backoffSeconds = (attempts: number) => Math.min(60, 2 ** Math.max(0, attempts - 1));

/**
 * The "tool-calls" consumer: runs each call through the same registry as direct execution and hands the
 * outcome to the session's object (`deliverResult`). The calls of a batch run side by side, so one slow
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
  const session = sessionStub(env, call.sessionId);
  // Past the deadline the session's alarm has already answered with a timeout.
  if (Date.now() > call.deadline) return message.ack();
  const tool = toolsFor(env).find((t) => t.name === call.tool);
  if (!tool) {
    await session.deliverResult(call.callId, formatError(new Error(`Unknown tool ${call.tool}`)));
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
  const run = async () => {
    try {
      injectConsumerFailure(env);
      const result = await invokeTool(tool, tool.input.parse(call.arguments), consumerContext(env, call));
      await session.deliverResult(call.callId, result);
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
  settle(() => message.ack());
}

/** The dead-letter consumer: a call that kept failing is answered now, not at its deadline. */
export async function consumeDeadLetters(batch: MessageBatch<unknown>, env: Env): Promise<void> {
  for (const message of batch.messages) {
    const parsed = ToolCallMessageSchema.safeParse(message.body);
    if (parsed.success) {
      const { sessionId, callId, tool } = parsed.data;
      await sessionStub(env, sessionId).deliverResult(callId, formatError(new Error(`Tool ${tool} failed repeatedly and was given up`)));
    }
    message.ack();
  }
}

function consumerContext(env: Env, call: ToolCallMessage): ToolContext {
  const session = sessionStub(env, call.sessionId);
  return {
    env,
    sessionId: call.sessionId,
    signal: AbortSignal.timeout(Math.max(1, call.deadline - Date.now())),
    progress: async (progress, total, message) => {
      if (call.progressToken === undefined) return;
      await session.relayNotification(call.callId, {
        method: 'notifications/progress',
        params: { progressToken: call.progressToken, progress, ...(total === undefined ? {} : { total }), ...(message ? { message } : {}) },
      });
    },
    log: async (level, data) => {
      await session.relayNotification(call.callId, { method: 'notifications/message', params: { level, data } });
    },
  };
}
