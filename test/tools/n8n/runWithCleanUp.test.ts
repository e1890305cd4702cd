import { describe, expect, it } from 'vitest';
import { messageOf, runWithCleanUp } from '../../../src/tools/n8n/runWithCleanUp';

/**
 * A run that puts back what it changed: the clean-up runs however the run ends, under a signal of its
 * own that the run's end does not abort, and the run stops early enough to leave it the reserve.
 */
const untilAborted = (signal: AbortSignal) =>
  new Promise<never>((_, reject) => signal.addEventListener('abort', () => reject(new Error('stopped')), { once: true }));

describe('runWithCleanUp', () => {
  it('cleans up after a run that ended, and answers both', async () => {
    const order: string[] = [];
    const { ran, cleaned } = await runWithCleanUp(
      { signal: new AbortController().signal, deadline: Date.now() + 60_000 },
      10_000,
      async () => (order.push('run'), 42),
      async (signal) => (order.push('clean'), signal.aborted),
    );
    expect(ran).toEqual({ value: 42 });
    expect(cleaned).toBe(false);
    expect(order).toEqual(['run', 'clean']);
  });

  it('cleans up after a run that threw, with what it threw kept', async () => {
    const failure = new Error('n8n said no');
    const { ran, cleaned } = await runWithCleanUp(
      { signal: new AbortController().signal, deadline: Date.now() + 60_000 },
      10_000,
      async () => {
        throw failure;
      },
      async () => 'cleaned',
    );
    expect(ran).toEqual({ error: failure });
    expect(cleaned).toBe('cleaned');
  });

  it('stops the run when the call is cancelled; the clean-up’s signal is its own', async () => {
    const call = new AbortController();
    setTimeout(() => call.abort(), 50);
    const { ran, cleaned } = await runWithCleanUp(
      { signal: call.signal, deadline: Date.now() + 60_000 },
      10_000,
      ({ signal }) => untilAborted(signal),
      async (signal) => signal.aborted,
    );
    expect(ran).toEqual({ error: new Error('stopped') });
    expect(cleaned).toBe(false);
  });

  it('stops the run the reserve before the deadline, and gives the clean-up the rest of the time', async () => {
    const deadline = Date.now() + 1_300;
    let stopBy = 0;
    let stoppedAt = 0;
    let cleanUpAborted = 0;
    await runWithCleanUp(
      { signal: new AbortController().signal, deadline },
      1_000,
      (bounds) => ((stopBy = bounds.stopBy), untilAborted(bounds.signal).finally(() => (stoppedAt = Date.now()))),
      (signal) => untilAborted(signal).catch(() => (cleanUpAborted = Date.now())),
    );
    expect(stopBy).toBe(deadline - 1_000);
    expect(stoppedAt).toBeGreaterThanOrEqual(stopBy - 5);
    expect(stoppedAt).toBeLessThan(stopBy + 250);
    // The clean-up's own time: what is left to the deadline.
    expect(cleanUpAborted).toBeGreaterThanOrEqual(deadline - 5);
    expect(cleanUpAborted).toBeLessThan(deadline + 250);
  });
});

describe('messageOf', () => {
  it('is an error’s message, or whatever was thrown as text', () => {
    expect(messageOf(new TypeError('bad'))).toBe('bad');
    expect(messageOf('plain')).toBe('plain');
  });
});
