/**
 * Tool responses are sized for agents: Claude Code warns at 10k tokens of tool output and cuts at 25k.
 * A response is kept under RESPONSE_BUDGET characters of JSON (~20k tokens at ~4 characters a token).
 */
export const RESPONSE_BUDGET = 80_000;

/**
 * Builds a list entry by entry, in order, without passing the budget: `build(i, remaining)` gives the
 * entry to use given the room left, and `leftOut(i)` the stand-in for one that cannot fit.
 */
export async function withinBudget<T>(count: number, build: (i: number, remaining: number) => Promise<T>, leftOut: (i: number) => T): Promise<T[]> {
  const entries: T[] = [];
  let used = 2;
  for (let i = 0; i < count; i++) {
    let entry: T = await build(i, RESPONSE_BUDGET - used);
    let size = JSON.stringify(entry).length + 1;
    if (used + size > RESPONSE_BUDGET) {
      entry = leftOut(i);
      size = JSON.stringify(entry).length + 1;
    }
    used += size;
    entries.push(entry);
  }
  return entries;
}
