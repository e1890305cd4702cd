import { describe, expect, it } from 'vitest';
import { LruMap } from '../../src/lib/lruMap';

describe('LruMap', () => {
  it('makes a value once per key and keeps it while the key is in use', () => {
    const map = new LruMap<string, object>(2);
    let made = 0;
    const make = () => ({ n: ++made });
    const a = map.getOrMake('a', make);
    expect(map.getOrMake('a', make)).toBe(a);
    expect(made).toBe(1);
  });

  it('holds at most its limit, dropping the least recently used', () => {
    const map = new LruMap<string, string>(3);
    const made: string[] = [];
    const get = (key: string) => map.getOrMake(key, () => (made.push(key), key));
    for (const key of ['a', 'b', 'c']) get(key);
    get('a'); // now b is the least recently used
    get('d');
    expect(map.size).toBe(3);
    get('a');
    get('c');
    expect(made).toEqual(['a', 'b', 'c', 'd']);
    get('b');
    expect(made).toEqual(['a', 'b', 'c', 'd', 'b']);
    for (let i = 0; i < 10_000; i++) get(`origin-${i}`);
    expect(map.size).toBe(3);
  });
});
