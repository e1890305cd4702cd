import { ApiKeyRecordSchema, KV_PREFIX, kvName, summary, type ApiKeyRecord, type ApiKeySummary } from '../../src/auth/apiKeys.ts';
import { wrangler } from '../lib/wrangler.ts';

/**
 * The API_KEYS namespace through wrangler, local (`--local [--persist-to DIR]`, what `wrangler dev`
 * reads) or deployed (`--remote`). `target` is those flags.
 */
export function putKey(record: ApiKeyRecord, target: string[]): void {
  const value = JSON.stringify(ApiKeyRecordSchema.parse(record));
  wrangler(['kv', 'key', 'put', kvName(record.hash), value, '--binding', 'API_KEYS', '--metadata', JSON.stringify(summary(record)), ...target]);
}

export function getKey(hash: string, target: string[]): ApiKeyRecord {
  return ApiKeyRecordSchema.parse(JSON.parse(wrangler(['kv', 'key', 'get', kvName(hash), '--binding', 'API_KEYS', '--text', ...target])));
}

/** Every key's summary (from KV metadata: no values read, no hashes shown), with the hash to address it. */
export function listKeys(target: string[]): (ApiKeySummary & { hash: string })[] {
  const listed = JSON.parse(wrangler(['kv', 'key', 'list', '--binding', 'API_KEYS', '--prefix', KV_PREFIX, ...target])) as {
    name: string;
    metadata?: ApiKeySummary;
  }[];
  return listed.flatMap(({ name, metadata }) => (metadata ? [{ ...metadata, hash: name.slice(KV_PREFIX.length) }] : []));
}
