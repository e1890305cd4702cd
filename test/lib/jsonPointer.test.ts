import { describe, expect, it } from 'vitest';
import { escapeToken, pointerTokens, valueAt } from '../../src/lib/jsonPointer';
import { fromJson } from '../support/specialNames';

describe('JSON Pointers', () => {
  it('escape and unescape a name with "/" and "~" as RFC 6901 does', () => {
    expect(escapeToken('a/b~c')).toBe('a~1b~0c');
    expect(pointerTokens('/a~1b~0c/0')).toEqual(['a/b~c', '0']);
    // "~01" is "~1" escaped, not "/": ~1 is read before ~0.
    expect(pointerTokens('/~01')).toEqual(['~1']);
  });

  it('read the value a pointer names: members, list entries, the whole value for ""', () => {
    const value = { order: { lines: [{ sku: 'A' }, { sku: 'B' }], 'a/b': 1 } };
    expect(valueAt(value, '/order/lines/1/sku')).toBe('B');
    expect(valueAt(value, '/order/a~1b')).toBe(1);
    expect(valueAt(value, '')).toBe(value);
    for (const missing of ['/order/lines/2', '/order/lines/-', '/order/lines/01', '/order/lines/0/sku/x', '/nope'])
      expect(valueAt(value, missing)).toBeUndefined();
  });

  it("reads own members only: a pointer into an object's prototype names nothing", () => {
    expect(valueAt({}, '/constructor')).toBeUndefined();
    expect(valueAt({}, '/__proto__/toString')).toBeUndefined();
    expect(valueAt(fromJson([['__proto__', { x: 1 }]]), '/__proto__/x')).toBe(1);
  });
});
