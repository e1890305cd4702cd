import { describe, expect, it } from 'vitest';
import { keyRing, needsResealing, open, seal, SecretBoxError } from '../../src/workspaces/secretBox';

const randomKey = () => btoa(String.fromCharCode(...crypto.getRandomValues(new Uint8Array(32))));
const N8N_KEY = 'n8n_api_0123456789abcdef0123456789abcdef';

describe('secret box: n8n keys at rest', () => {
  it('opens what it sealed, for the same record only, and the sealed text holds nothing of the key', async () => {
    const ring = await keyRing(`k1:${randomKey()}`);
    const sealed = await seal(N8N_KEY, ring, 'connection:w1:prod');
    expect(sealed).toMatch(/^v1\.k1\.[\w-]+\.[\w-]+$/);
    expect(sealed).not.toContain(N8N_KEY.slice(8, 20));
    expect(await open(sealed, ring, 'connection:w1:prod')).toBe(N8N_KEY);
    // Moved to another record, it does not open.
    await expect(open(sealed, ring, 'connection:w2:prod')).rejects.toThrow(/altered or belongs to another record/);
    // Two seals of one key differ (a fresh IV each time).
    expect(await seal(N8N_KEY, ring, 'connection:w1:prod')).not.toBe(sealed);
  });

  it('refuses a value altered anywhere, without saying what it held', async () => {
    const ring = await keyRing(`k1:${randomKey()}`);
    const sealed = await seal(N8N_KEY, ring, 'c');
    const [version, id, iv, data] = sealed.split('.') as [string, string, string, string];
    const flip = (s: string, at: number) => s.slice(0, at) + (s[at] === 'A' ? 'B' : 'A') + s.slice(at + 1);
    for (const altered of [
      [version, id, flip(iv, 0), data],
      [version, id, iv, flip(data, 3)],
      [version, id, iv, data.slice(0, -2)],
    ]) {
      const error = await open(altered.join('.'), ring, 'c').catch((e: unknown) => e);
      expect(error).toBeInstanceOf(SecretBoxError);
      expect(String(error)).not.toContain(N8N_KEY);
    }
    for (const junk of ['', 'v1', 'v2.k1.AAAA.AAAA', `${sealed}.extra`, 'v1.k1.!!.??'])
      await expect(open(junk, ring, 'c'), junk).rejects.toThrow('not a sealed value');
  });

  it('rotates: a new key in front seals from then on, the old one still opens what it sealed until it is dropped', async () => {
    const old = `k1:${randomKey()}`;
    const before = await keyRing(old);
    const sealedOld = await seal(N8N_KEY, before, 'c');
    const rotated = await keyRing(`k2:${randomKey()},${old}`);
    expect(await open(sealedOld, rotated, 'c')).toBe(N8N_KEY);
    expect(needsResealing(sealedOld, rotated)).toBe(true);
    const sealedNew = await seal(N8N_KEY, rotated, 'c');
    expect(sealedNew.split('.')[1]).toBe('k2');
    expect(needsResealing(sealedNew, rotated)).toBe(false);
    const dropped = await keyRing(`k2:${randomKey()}`);
    await expect(open(sealedOld, dropped, 'c')).rejects.toThrow(/key "k1", which CONNECTION_KEYS no longer holds/);
  });

  it('refuses a key ring it cannot use, naming the fix and never the key', async () => {
    const key = randomKey();
    const refusal = (text: string | undefined) =>
      keyRing(text).then(
        () => 'accepted',
        (e: Error) => e.message,
      );
    expect(await refusal(undefined)).toMatch(/CONNECTION_KEYS is not set/);
    expect(await refusal(' , ')).toMatch(/CONNECTION_KEYS is not set/);
    expect(await refusal(key)).toMatch(/entry 1 has no id/);
    expect(await refusal(`k1:${key},k1:${randomKey()}`)).toMatch(/names the key id "k1" twice/);
    const short = btoa('too short');
    expect(await refusal(`k1:${short}`)).toMatch(/not 32 bytes in base64/);
    expect(await refusal(`k1:${short}`)).not.toContain(short);
    expect(await refusal(`k1:${key}`)).toBe('accepted');
  });
});
