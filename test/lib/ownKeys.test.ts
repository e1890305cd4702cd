import { describe, expect, it } from 'vitest';
import { deleteOwn, dict, hasOwn, own, setOwn, toDict } from '../../src/lib/ownKeys';
import { withPrototypesUnchanged } from '../support/specialNames';

describe('ownKeys', () => {
  it('keeps "__proto__" and "constructor" in a Dict as keys like any other', () => {
    const d = withPrototypesUnchanged(() => {
      const made = dict<number>([
        ['__proto__', 1],
        ['constructor', 2],
      ]);
      const key: string = 'toString';
      made[key] = 3;
      return made;
    });
    expect(Object.getPrototypeOf(d)).toBeNull();
    expect(Object.keys(d)).toEqual(['__proto__', 'constructor', 'toString']);
    expect(JSON.stringify(d)).toBe('{"__proto__":1,"constructor":2,"toString":3}');
  });

  it('makes a Dict of what JSON.parse gave, "__proto__" included', () => {
    expect(Object.keys(toDict(JSON.parse('{"__proto__":{"a":1},"b":2}')))).toEqual(['__proto__', 'b']);
  });

  it('reads, tests, sets and deletes own properties only, whatever the name', () => {
    const o: Record<string, unknown> = {};
    expect(own(o, 'constructor')).toBeUndefined();
    expect(hasOwn(o, 'toString')).toBe(false);
    withPrototypesUnchanged(() => setOwn(o, '__proto__', { polluted: true }));
    expect(Object.getPrototypeOf(o)).toBe(Object.prototype);
    expect(own(o, '__proto__')).toEqual({ polluted: true });
    withPrototypesUnchanged(() => deleteOwn(o, 'toString'));
    deleteOwn(o, '__proto__');
    expect(hasOwn(o, '__proto__')).toBe(false);
  });
});
