import { z } from 'zod';
import { SCOPES } from './scopes';

/**
 * API keys: `n2f_` + 40 base62 characters (~238 random bits). Only the SHA-256 of a key is stored, as
 * the KV name `key:<hex>` in the API_KEYS namespace, beside its record; the key itself is shown once,
 * by `npm run keys -- create`. Shared by the Worker and the key script (Web Crypto in both).
 */
export const KEY_PREFIX = 'n2f_';
const KEY_BODY_LENGTH = 40;
/** Checked before any hashing or KV read, so junk costs nothing. */
export const KEY_PATTERN = new RegExp(`^${KEY_PREFIX}[0-9A-Za-z]{32,128}$`);
const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

export const ApiKeyRecordSchema = z.object({
  /** Public handle for `list` and `revoke`; says nothing about the key. */
  id: z.string().regex(/^[0-9a-f]{12}$/),
  name: z.string().min(1).max(100),
  scopes: z.array(z.enum(SCOPES)).min(1),
  /** The key's SHA-256 (hex), compared in constant time after the lookup. */
  hash: z.string().regex(/^[0-9a-f]{64}$/),
  createdAt: z.number().int(),
  expiresAt: z.number().int().optional(),
  revokedAt: z.number().int().optional(),
  /** The workspace it acts in (src/workspaces/); absent: the deployment's own n8n. */
  workspace: z
    .string()
    .regex(/^[0-9a-f]{12}$/)
    .optional(),
});
export type ApiKeyRecord = z.infer<typeof ApiKeyRecordSchema>;

/** What `list` shows (KV metadata of each entry, so listing reads no values): the record minus its hash. */
export type ApiKeySummary = Omit<ApiKeyRecord, 'hash'>;

export const KV_PREFIX = 'key:';
export const kvName = (hash: string) => `${KV_PREFIX}${hash}`;

/** A new key: unbiased base62 from the platform's CSPRNG (bytes ≥ 248 are redrawn). */
export function generateApiKey(): string {
  let body = '';
  while (body.length < KEY_BODY_LENGTH) {
    for (const byte of crypto.getRandomValues(new Uint8Array(64))) {
      if (byte < 248 && body.length < KEY_BODY_LENGTH) body += BASE62[byte % 62];
    }
  }
  return KEY_PREFIX + body;
}

/** Each byte's two hex digits. */
const HEX = Array.from({ length: 256 }, (_, byte) => byte.toString(16).padStart(2, '0'));

export async function sha256Hex(text: string): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(text));
  let hex = '';
  for (const byte of new Uint8Array(digest)) hex += HEX[byte];
  return hex;
}

/** Equal-length strings compared without an early exit, so timing says nothing about where they differ. */
export function constantTimeEqual(a: string, b: string): boolean {
  let diff = a.length ^ b.length;
  for (let i = 0; i < Math.max(a.length, b.length); i++) diff |= (a.charCodeAt(i) | 0) ^ (b.charCodeAt(i) | 0);
  return diff === 0;
}

export function newKeyRecord(hash: string, name: string, scopes: ApiKeyRecord['scopes'], expiresAt?: number): ApiKeyRecord {
  const id = [...crypto.getRandomValues(new Uint8Array(6))].map((b) => b.toString(16).padStart(2, '0')).join('');
  return { id, name, scopes, hash, createdAt: Date.now(), ...(expiresAt === undefined ? {} : { expiresAt }) };
}

export const summary = ({ hash: _hash, ...rest }: ApiKeyRecord): ApiKeySummary => rest;

/** Usable now: neither revoked nor past its expiry. */
const isActive = (record: ApiKeyRecord, now = Date.now()): boolean =>
  record.revokedAt === undefined && (record.expiresAt === undefined || record.expiresAt > now);

/** Reads the record stored under a key hash: null if there is none, or it is malformed or not that hash's. */
export type KeyRecordReader = (hash: string) => Promise<ApiKeyRecord | null>;

export const readKeyRecord =
  (kv: KVNamespace): KeyRecordReader =>
  async (hash) => {
    const parsed = ApiKeyRecordSchema.safeParse(await kv.get(kvName(hash), 'json'));
    return parsed.success && constantTimeEqual(parsed.data.hash, hash) ? parsed.data : null;
  };

/** The active record stored under a key hash, or null (unknown, malformed, revoked or expired). */
export async function activeKeyByHash(read: KeyRecordReader, hash: string): Promise<ApiKeyRecord | null> {
  const record = await read(hash);
  return record && isActive(record) ? record : null;
}

/** The active record of a presented key, or null. Junk is refused before hashing or reading KV. */
export async function verifyApiKey(read: KeyRecordReader, presented: string): Promise<ApiKeyRecord | null> {
  if (!KEY_PATTERN.test(presented)) return null;
  return activeKeyByHash(read, await sha256Hex(presented));
}
