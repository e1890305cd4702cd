import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { constantTimeEqual, generateApiKey, KEY_PATTERN, kvName, readKeyRecord, sha256Hex, verifyApiKey } from '../../src/auth/apiKeys';
import { createKey } from '../support/keys';

describe('API keys', () => {
  it('are n2f_ and 40 base62 characters, all different', () => {
    const keys = Array.from({ length: 2000 }, generateApiKey);
    for (const key of keys) expect(key).toMatch(/^n2f_[0-9A-Za-z]{40}$/);
    expect(new Set(keys).size).toBe(keys.length);
    // Each of the 62 characters about equally often (80,000 draws, ~1,290 each; a modulo bias would show).
    const counts = new Map<string, number>();
    for (const char of keys.map((k) => k.slice(4)).join('')) counts.set(char, (counts.get(char) ?? 0) + 1);
    expect(counts.size).toBe(62);
    const mean = (keys.length * 40) / 62;
    for (const count of counts.values()) expect(Math.abs(count - mean) / mean).toBeLessThan(0.15);
  });

  it('hash to SHA-256 in lowercase hex (FIPS 180-2 test vector)', async () => {
    expect(await sha256Hex('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
  });

  it('are stored only as their SHA-256, under it', async () => {
    const { key, record } = await createKey(['nodes:read']);
    const hash = await sha256Hex(key);
    expect(record.hash).toBe(hash);
    const stored = await env.API_KEYS.get(kvName(hash));
    expect(stored).not.toContain(key.slice(4));
    const listed = await env.API_KEYS.list({ prefix: kvName(hash) });
    expect(listed.keys[0]!.metadata).toEqual({ id: record.id, name: 'test', scopes: ['nodes:read'], createdAt: record.createdAt });
  });

  it('verify only when well-formed, known, stored under their own hash and active', async () => {
    const { key, record } = await createKey(['*']);
    expect(await verifyApiKey(readKeyRecord(env.API_KEYS), key)).toEqual(record);
    expect(await verifyApiKey(readKeyRecord(env.API_KEYS), `${key}x`)).toBeNull();
    expect(await verifyApiKey(readKeyRecord(env.API_KEYS), key.replace('n2f_', 'n3f_'))).toBeNull();
    // A record copied under another key's name does not vouch for that key.
    const other = generateApiKey();
    await env.API_KEYS.put(kvName(await sha256Hex(other)), JSON.stringify(record));
    expect(await verifyApiKey(readKeyRecord(env.API_KEYS), other)).toBeNull();
    expect(KEY_PATTERN.test('n2f_' + 'a'.repeat(31))).toBe(false);
  });

  it('compare hashes without regard to where they differ', () => {
    expect(constantTimeEqual('abc', 'abc')).toBe(true);
    expect(constantTimeEqual('abc', 'abd')).toBe(false);
    expect(constantTimeEqual('abc', 'abcd')).toBe(false);
    expect(constantTimeEqual('', '')).toBe(true);
  });
});
