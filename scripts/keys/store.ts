import { ApiKeyRecordSchema, KV_PREFIX, kvName, summary, type ApiKeyRecord, type ApiKeySummary } from '../../src/auth/apiKeys.ts';
import { kvGet, kvList, kvPut } from './wranglerKv.ts';

/**
 * API key records in the API_KEYS namespace through wrangler (./wranglerKv.ts), local
 * (`--local [--persist-to DIR]`, what `wrangler dev` reads) or deployed (`--remote`). `target` is those flags.
 */
export function putKey(record: ApiKeyRecord, target: string[]): void {
  kvPut(kvName(record.hash), JSON.stringify(ApiKeyRecordSchema.parse(record)), target, summary(record));
}

export function getKey(hash: string, target: string[]): ApiKeyRecord {
  const stored = kvGet(kvName(hash), target);
  if (stored === null) throw new Error(`no key record under ${kvName(hash).slice(0, 16)}…: it was removed meanwhile (npm run keys -- list)`);
  return ApiKeyRecordSchema.parse(JSON.parse(stored));
}

/** Every key's summary (from KV metadata: no values read, no hashes shown), with the hash to address it. */
export function listKeys(target: string[]): (ApiKeySummary & { hash: string })[] {
  return kvList<ApiKeySummary>(KV_PREFIX, target).flatMap(({ name, metadata }) => (metadata ? [{ ...metadata, hash: name.slice(KV_PREFIX.length) }] : []));
}

/** Marks a key revoked (an OAuth grant approved with it stops too); returns the record as it was. */
export function revokeKey(hash: string, target: string[], now = Date.now()): ApiKeyRecord {
  const record = getKey(hash, target);
  putKey({ ...record, revokedAt: now }, target);
  return record;
}
