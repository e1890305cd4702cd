import { readKeyRecord, type ApiKeyRecord, type KeyRecordReader } from './apiKeys';
import type { Env } from '../env';
import { ExpiringCache } from '../lib/expiringCache';

/** How long an isolate trusts a key record it read (API_KEY_CACHE_SECONDS; 0 reads KV every time). */
const DEFAULT_CACHE_SECONDS = 30;
/** Records kept per isolate at most; the oldest go first. */
const MAX_ENTRIES = 1000;

/** Per isolate: key hash → the record KV held for it. Unknown keys are never kept. */
const records = new ExpiringCache<string, ApiKeyRecord>(MAX_ENTRIES);

/** API_KEY_CACHE_SECONDS in ms: also how long workspaces and opened connections are kept (src/workspaces/). */
export function keyCacheMs(env: Env): number {
  const seconds = Number(env.API_KEY_CACHE_SECONDS ?? DEFAULT_CACHE_SECONDS);
  return Number.isFinite(seconds) && seconds > 0 ? seconds * 1000 : 0;
}

/**
 * The key records of API_KEYS, kept in the isolate for a short while: a busy client's every request
 * would otherwise wait on a KV read (3.4 ms of a 15 ms call under `wrangler dev`). Expiry and
 * revocation are still checked on each use against the kept record, so an expiry is exact and a
 * revocation takes effect within the cache time (plus KV's own propagation, up to 60 s, when remote).
 */
export function cachedKeyRecords(env: Env, now: () => number = Date.now): KeyRecordReader {
  const read = readKeyRecord(env.API_KEYS);
  const ttl = keyCacheMs(env);
  if (ttl === 0) return read;
  return async (hash) => {
    const cached = records.get(hash, now());
    if (cached) return cached;
    const record = await read(hash);
    if (record) records.set(hash, record, now() + ttl);
    else records.delete(hash);
    return record;
  };
}
