import { describe, expect, it } from 'vitest';
import { didYouMean, nearestName } from '../../src/workflows/nearestName';

describe('nearest name', () => {
  it('finds a name off by case or a few edits, and none for a short name two edits away', () => {
    expect(nearestName('STRING', ['number', 'string'])).toBe('string');
    expect(nearestName('strng', ['number', 'string'])).toBe('string');
    expect(nearestName('cssSelecter', ['key', 'cssSelector'])).toBe('cssSelector');
    expect(nearestName('lt', ['gt2', 'eq'])).toBeUndefined();
    expect(nearestName('zzzzzz', ['string'])).toBeUndefined();
    expect(didYouMean('andd', ['and', 'or'])).toBe(' Did you mean "and"?');
    expect(didYouMean('xor', ['and', 'or'])).toBe(' Did you mean "or"?');
  });
});
