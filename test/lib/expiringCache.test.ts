import { describe, expect, it } from 'vitest';
import { ExpiringCache } from '../../src/lib/expiringCache';

describe('ExpiringCache', () => {
  it('gives a value until its time is up, and none after', () => {
    const cache = new ExpiringCache<string, number>(10);
    cache.set('a', 1, 1_000);
    expect(cache.get('a', 999)).toBe(1);
    expect(cache.get('a', 1_000)).toBeUndefined();
    expect(cache.get('b', 0)).toBeUndefined();
  });

  it('holds at most its limit, the oldest written going first; a rewrite makes an entry the newest', () => {
    const cache = new ExpiringCache<string, number>(2);
    cache.set('a', 1, 10);
    cache.set('b', 2, 10);
    cache.set('a', 3, 10);
    cache.set('c', 4, 10);
    expect([cache.get('a', 0), cache.get('b', 0), cache.get('c', 0)]).toEqual([3, undefined, 4]);
    cache.delete('a');
    expect(cache.get('a', 0)).toBeUndefined();
  });
});
