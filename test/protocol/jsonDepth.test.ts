import { describe, expect, it } from 'vitest';
import { MAX_JSON_DEPTH, nestsDeeperThan } from '../../src/protocol/jsonDepth';

const arrays = (depth: number) => '['.repeat(depth) + ']'.repeat(depth);
const objects = (depth: number) => '{"a":'.repeat(depth - 1) + '{}' + '}'.repeat(depth - 1);

describe('nestsDeeperThan', () => {
  it('counts arrays and objects, mixed, to the exact limit', () => {
    for (const nested of [arrays, objects, (d: number) => `[${objects(d - 1)}]`]) {
      expect(nestsDeeperThan(nested(MAX_JSON_DEPTH), MAX_JSON_DEPTH)).toBe(false);
      expect(nestsDeeperThan(nested(MAX_JSON_DEPTH + 1), MAX_JSON_DEPTH)).toBe(true);
    }
    expect(nestsDeeperThan(objects(MAX_JSON_DEPTH + 1), MAX_JSON_DEPTH)).toBe(true);
    expect(nestsDeeperThan('1', 0)).toBe(false);
    expect(nestsDeeperThan('[]', 0)).toBe(true);
  });

  it('measures depth, not the number of brackets: siblings do not add up', () => {
    const wide = `[${Array.from({ length: 1000 }, () => arrays(3)).join(',')}]`;
    expect(nestsDeeperThan(wide, 4)).toBe(false);
    expect(nestsDeeperThan(wide, 3)).toBe(true);
  });

  it('does not count brackets inside strings, escaped quotes included', () => {
    const text = JSON.stringify({ a: '[[[[{{{{', b: 'say \\"[[[[" and \\\\', c: ['"]]]]'] });
    expect(JSON.parse(text)).toBeTruthy();
    expect(nestsDeeperThan(text, 2)).toBe(false);
    expect(nestsDeeperThan(text, 1)).toBe(true);
    // A string that ends in an escaped backslash ends there: what follows counts.
    expect(nestsDeeperThan(`[${JSON.stringify('\\')},${arrays(4)}]`, 4)).toBe(true);
  });

  it('gets through a body of millions of levels without recursion', () => {
    expect(nestsDeeperThan(arrays(2_000_000), MAX_JSON_DEPTH)).toBe(true);
  });
});
