import { describe, expect, it } from 'vitest';
import { withinDistance } from '../../../src/catalog/search/editDistance';

describe('withinDistance', () => {
  it('counts insertions, deletions, substitutions and adjacent swaps', () => {
    expect(withinDistance('gmial', 'gmail', 1)).toBe(true); // swap
    expect(withinDistance('webhok', 'webhook', 1)).toBe(true); // insertion
    expect(withinDistance('slak', 'slack', 1)).toBe(true);
    expect(withinDistance('slack', 'stack', 1)).toBe(true);
    expect(withinDistance('slack', 'snack', 0)).toBe(false);
    expect(withinDistance('github', 'gitlab', 1)).toBe(false);
  });
});
