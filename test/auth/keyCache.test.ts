import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { generateApiKey, kvName, newKeyRecord, sha256Hex } from '../../src/auth/apiKeys';
import { createKey, revokeKey, bearer } from '../support/keys';
import { sleep } from '../support/sessionStorage';
import { callWithEnv, initializeRequest } from '../support/mcp';

/** An initialize with `key`, served by the Worker with API_KEY_CACHE_SECONDS set to `seconds`. */
const initialize = (key: string, seconds: string) =>
  callWithEnv(
    '/mcp',
    { API_KEY_CACHE_SECONDS: seconds },
    {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...bearer(key) },
      body: JSON.stringify(initializeRequest()),
    },
  ).then((response) => response.status);

describe('API key records kept in the isolate (API_KEY_CACHE_SECONDS)', () => {
  it('serves a key revoked meanwhile until the cache time passes; without the cache, refuses it at once', async () => {
    const { key, record } = await createKey(['*']);
    expect(await initialize(key, '30')).toBe(200);
    await revokeKey(record);
    expect(await initialize(key, '30')).toBe(200); // the record read 0 s ago
    expect(await initialize(key, '0')).toBe(401);
  });

  it('checks expiry on every use: a kept key is refused the moment it expires', async () => {
    const { key } = await createKey(['*'], { expiresAt: Date.now() + 1000 });
    expect(await initialize(key, '30')).toBe(200);
    await sleep(1100);
    expect(await initialize(key, '30')).toBe(401);
  });

  it('never keeps an unknown key: one created a moment after a refusal is served at once', async () => {
    const key = generateApiKey();
    expect(await initialize(key, '30')).toBe(401);
    const record = newKeyRecord(await sha256Hex(key), 'created later', ['*']);
    await env.API_KEYS.put(kvName(record.hash), JSON.stringify(record));
    expect(await initialize(key, '30')).toBe(200);
  });
});
