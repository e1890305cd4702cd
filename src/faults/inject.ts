import type { RequestHandler } from 'itty-router';
import { isSessionId, sessionStub } from '../sessions/sessionId';
import type { Env } from '../env';
import type { WorkerRequest } from '../http/request';
import { HttpError } from '../http/errors';
import { ErrorCode } from '../protocol/jsonrpc';

/**
 * Fault injection for the load harness (`npm run load -- --faults`), on only where the variable
 * FAULT_INJECTION is "on" — never in wrangler.toml. It causes the two faults a client cannot cause
 * from outside: a session object reset mid-use (what an eviction or a runtime restart does), and a
 * queue consumer failing an attempt.
 */
export const faultsOn = (env: Env): boolean => env.FAULT_INJECTION === 'on';

/** Mounted before the fault routes: with faults off they do not exist (404), whoever asks. */
export const faultsOnly: RequestHandler<WorkerRequest, [Env, ExecutionContext]> = (_request, env) => {
  if (!faultsOn(env)) throw new HttpError(404, ErrorCode.InvalidRequest, 'Not Found');
};

/** POST /__faults/evict?sessionId=…: resets that session's object now. */
export async function evictSession(request: WorkerRequest, env: Env): Promise<Response> {
  const sessionId = new URL(request.url).searchParams.get('sessionId');
  if (!isSessionId(sessionId)) throw new HttpError(400, ErrorCode.InvalidRequest, 'Bad Request: sessionId');
  // The call dies with the object it resets.
  await sessionStub(env, sessionId).injectEviction().catch(() => {});
  return new Response(null, { status: 204 });
}

/** In the queue consumer: throws, as a crashing consumer would, on FAULT_QUEUE_FAIL_RATE of attempts. */
export function injectConsumerFailure(env: Env): void {
  if (faultsOn(env) && Math.random() < Number(env.FAULT_QUEUE_FAIL_RATE ?? 0)) {
    throw new Error('fault injection: consumer attempt failed');
  }
}
