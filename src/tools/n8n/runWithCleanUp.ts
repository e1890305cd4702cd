import { waitUntil } from 'cloudflare:workers';
import type { ToolContext } from '../tool';

/** How a promise ended: its value, or what it threw. */
export type Settled<T> = { value: T } | { error: unknown };

const settle = <T>(promise: Promise<T>): Promise<Settled<T>> =>
  promise.then(
    (value) => ({ value }),
    (error: unknown) => ({ error }),
  );

/** The message of whatever was thrown. */
export const messageOf = (error: unknown): string => (error instanceof Error ? error.message : String(error));

/** What the run is given: its signal, aborted when the call is cancelled or at `stopBy` (epoch ms). */
export interface RunBounds {
  signal: AbortSignal;
  stopBy: number;
}

/**
 * A run in n8n that puts back what it changed, whatever happens: `run` stops when the call is cancelled
 * or `reserveMs` before the call's deadline; `cleanUp` then runs however the run ended (done, failed,
 * cancelled, out of time), under a signal of its own (the run's is aborted by then) with the rest of
 * the call's time, at least half the reserve. The invocation is kept until the clean-up is done
 * (waitUntil), whoever stops waiting for the call. `cleanUp` answers what it could not put back; it
 * must not throw.
 */
export async function runWithCleanUp<T, C>(
  ctx: Pick<ToolContext, 'signal' | 'deadline'>,
  reserveMs: number,
  run: (bounds: RunBounds) => Promise<T>,
  cleanUp: (signal: AbortSignal) => Promise<C>,
): Promise<{ ran: Settled<T>; cleaned: C }> {
  const stopBy = ctx.deadline - reserveMs;
  const signal = AbortSignal.any([ctx.signal, AbortSignal.timeout(Math.max(0, stopBy - Date.now()))]);
  const done = settle(run({ signal, stopBy })).then(async (ran) => {
    const budget = Math.max(reserveMs / 2, ctx.deadline - Date.now());
    return { ran, cleaned: await cleanUp(AbortSignal.timeout(budget)) };
  });
  waitUntil(done);
  return done;
}
