import { describe, expect, it } from 'vitest';
import { RESPONSE_BUDGET, withinBudget } from '../../src/catalog/budget';

describe('withinBudget', () => {
  it('keeps entries in order and stands in for those that would pass the budget', async () => {
    const entries = await withinBudget<{ i: number; pad?: string; leftOut?: boolean }>(
      5,
      async (i) => ({ i, pad: 'x'.repeat(RESPONSE_BUDGET / 3) }),
      (i) => ({ i, leftOut: true }),
    );
    expect(entries.map((e) => e.i)).toEqual([0, 1, 2, 3, 4]);
    expect(entries.filter((e) => e.leftOut).map((e) => e.i)).toEqual([2, 3, 4]);
    expect(JSON.stringify(entries).length).toBeLessThanOrEqual(RESPONSE_BUDGET);
  });

  it('gives each entry the room left after those before it', async () => {
    const rooms: number[] = [];
    await withinBudget(
      3,
      async (i, remaining) => {
        rooms.push(remaining);
        return 'x'.repeat(10 * (i + 1));
      },
      () => '',
    );
    // Two characters for the brackets, then each entry's JSON and its comma.
    expect(rooms).toEqual([RESPONSE_BUDGET - 2, RESPONSE_BUDGET - 2 - 13, RESPONSE_BUDGET - 2 - 13 - 23]);
  });
});
