import { describe, expect, it } from 'vitest';
import { onAbort } from '../../src/lib/abort';

describe('onAbort', () => {
  it('runs for an abort that already happened, at once', () => {
    const controller = new AbortController();
    controller.abort();
    const runs: string[] = [];
    onAbort(controller.signal, () => void runs.push('aborted'));
    expect(runs).toEqual(['aborted']);
  });

  it('runs once for an abort that comes later, and not before it', () => {
    const controller = new AbortController();
    let runs = 0;
    onAbort(controller.signal, () => void runs++);
    expect(runs).toBe(0);
    controller.abort();
    controller.abort();
    expect(runs).toBe(1);
  });
});
