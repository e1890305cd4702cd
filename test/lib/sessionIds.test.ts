import { describe, expect, it } from 'vitest';
import { isSessionId, newSessionId } from '../../src/lib/sessionIds';

/** base64url back to bytes. */
const bytesOf = (id: string) => Uint8Array.from(atob(id.replace(/-/g, '+').replace(/_/g, '/')), (c) => c.charCodeAt(0));

describe('newSessionId', () => {
  it('mints 43 base64url characters, 256 bits, never the same twice', () => {
    const ids = Array.from({ length: 2000 }, newSessionId);
    for (const id of ids) {
      expect(id).toMatch(/^[A-Za-z0-9_-]{43}$/);
      expect(bytesOf(id)).toHaveLength(32);
    }
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('draws every character of the alphabet, about equally often (random bytes, not a counter or a clock)', () => {
    // 2,000 ids: 84,000 characters of the first 42 (the 43rd carries 4 bits only), ~1,310 of each of 64.
    const counts = new Map<string, number>();
    for (let i = 0; i < 2000; i++) for (const char of newSessionId().slice(0, 42)) counts.set(char, (counts.get(char) ?? 0) + 1);
    expect(counts.size).toBe(64);
    const mean = (2000 * 42) / 64;
    for (const count of counts.values()) expect(Math.abs(count - mean) / mean).toBeLessThan(0.15);
  });
});

describe('isSessionId', () => {
  it('knows every id this server mints', () => {
    for (let i = 0; i < 200; i++) expect(isSessionId(newSessionId())).toBe(true);
  });

  it('refuses anything it could not have minted, without looking further', () => {
    const id = newSessionId();
    for (const other of [
      null,
      undefined,
      '',
      id.slice(1),
      `${id}A`,
      `${id.slice(0, 42)}=`,
      `${id.slice(0, 42)}+`,
      `${id.slice(0, 42)}/`,
      `${id.slice(0, 42)}.`,
      ` ${id.slice(1)}`,
      `${id.slice(0, 42)}\n`,
      `${id}\n`,
      crypto.randomUUID(),
    ]) {
      expect(isSessionId(other), JSON.stringify(other)).toBe(false);
    }
  });
});
