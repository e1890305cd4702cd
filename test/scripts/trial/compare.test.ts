import { describe, expect, it } from 'vitest';
import { firstDifference } from '../../../scripts/trial/compare.ts';

describe('firstDifference', () => {
  it('takes objects with their keys in another order and numbers off by floating-point noise as equal', () => {
    expect(firstDifference({ a: 1, b: [{ total: 30.3 }] }, { b: [{ total: 10.1 + 20.2 }], a: 1 })).toBeUndefined();
  });

  it('names the path and both values of the first difference', () => {
    expect(firstDifference({ regions: [{ total: 30.3 }] }, { regions: [{ total: 30.31 }] })).toBe('$.regions[0].total: expected 30.3, got 30.31');
    expect(firstDifference({ days: 2 }, { days: '2' })).toBe('$.days: expected 2, got "2"');
  });

  it('refuses missing and extra keys, since a task fixes the answer format', () => {
    expect(firstDifference({ order_id: 'A', express: false }, { order_id: 'A' })).toBe('$: missing express in {"order_id":"A"}');
    expect(firstDifference({ order_id: 'A' }, { order_id: 'A', status: 'x' })).toBe('$: unexpected status in {"order_id":"A","status":"x"}');
  });

  it('refuses lists of another length or in place of an object, and an object in place of a list', () => {
    expect(firstDifference({ links: [] }, { links: [''] })).toBe('$.links: expected 0 entries, got 1: [""]');
    expect(firstDifference([{ a: 1 }], { a: 1 })).toBe('$: expected a list, got {"a":1}');
    expect(firstDifference({ a: 1 }, [{ a: 1 }])).toBe('$: expected an object, got [{"a":1}]');
  });

  it('compares keys as own properties only', () => {
    expect(firstDifference({ constructor: 1 }, {})).toBe('$: missing constructor in {}');
    expect(firstDifference(JSON.parse('{"__proto__": 1}'), JSON.parse('{"__proto__": 1}'))).toBeUndefined();
  });
});
