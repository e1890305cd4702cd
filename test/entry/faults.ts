import type { Env } from '../../src/env';
import { HttpError, toErrorResponse } from '../../src/protocol/httpError';
import { ErrorCode } from '../../src/protocol/jsonrpc';
import { backoffSeconds } from '../../src/queues/consumer';
import { sessionStub } from '../../src/sessions/sessionId';
import { isSessionId } from '../../src/lib/sessionIds';
import type { SessionObject } from './SessionObject';

/**
 * Fault injection for the load harness (`npm run load -- --faults`), served by the test entry only
 * (./worker.ts). It causes the two faults a client cannot cause from outside: a session object reset
 * mid-use (what an eviction or a runtime restart does), and a queue consumer failing an attempt.
 */

/** The test entry's variables: the production Worker's, and the share of consumer attempts that fail. */
export interface FaultEnv extends Env {
  /** 0–1; unset, no attempt fails. */
  FAULT_QUEUE_FAIL_RATE?: string;
}

/** The route of the eviction fault. */
export const EVICT_PATH = '/__faults/evict';

/** POST /__faults/evict?sessionId=…: resets that session's object now. */
export async function evictSession(request: Request, env: Env): Promise<Response> {
  try {
    const sessionId = new URL(request.url).searchParams.get('sessionId');
    if (!isSessionId(sessionId)) throw new HttpError(400, ErrorCode.InvalidRequest, 'Bad Request: sessionId');
    const session = sessionStub(env, sessionId) as unknown as DurableObjectStub<SessionObject>;
    // The call dies with the object it resets.
    await session.injectEviction().catch(() => {});
    return new Response(null, { status: 204 });
  } catch (error) {
    return toErrorResponse(error);
  }
}

/**
 * The tool-calls batch less the messages whose attempt fails here: each is retried with the
 * consumer's own backoff, as if the consumer had crashed on it, with probability FAULT_QUEUE_FAIL_RATE.
 */
export function withFailedAttempts(batch: MessageBatch<unknown>, env: FaultEnv): MessageBatch<unknown> {
  const rate = Number(env.FAULT_QUEUE_FAIL_RATE ?? 0);
  const kept = batch.messages.filter((message) => {
    if (!(Math.random() < rate)) return true;
    message.retry({ delaySeconds: backoffSeconds(message.attempts) });
    return false;
  });
  return {
    queue: batch.queue,
    metadata: batch.metadata,
    messages: kept,
    ackAll: () => kept.forEach((message) => message.ack()),
    retryAll: (options) => kept.forEach((message) => message.retry(options)),
  };
}
