import { env } from 'cloudflare:workers';
import { generateApiKey, kvName, newKeyRecord, sha256Hex, summary, type ApiKeyRecord } from '../../src/auth/apiKeys';
import type { Scope } from '../../src/auth/scopes';
import { newWorkspace, putWorkspace } from '../../src/workspaces/workspaces';

/** Stores a new API key the way `npm run keys -- create` does and returns it with its record. */
export async function createKey(scopes: Scope[] = ['*'], options: { name?: string; expiresAt?: number; workspace?: string } = {}) {
  const key = generateApiKey();
  const made = newKeyRecord(await sha256Hex(key), options.name ?? 'test', scopes, options.expiresAt);
  const record = options.workspace ? { ...made, workspace: options.workspace } : made;
  await env.API_KEYS.put(kvName(record.hash), JSON.stringify(record), { metadata: summary(record) });
  return { key, record };
}

/** Marks a key revoked the way `npm run keys -- revoke` does. */
export async function revokeKey(record: ApiKeyRecord): Promise<void> {
  const revoked = { ...record, revokedAt: Date.now() };
  await env.API_KEYS.put(kvName(record.hash), JSON.stringify(revoked), { metadata: summary(revoked) });
}

export const bearer = (key: string) => ({ authorization: `Bearer ${key}` });

/** A workspace stored as `npm run keys -- workspace create` stores one, and a key of it. */
export async function workspaceKey(scopes: Scope[] = ['*'], name = 'team') {
  const workspace = newWorkspace(name);
  await putWorkspace(env.API_KEYS, workspace);
  const { key, record } = await createKey(scopes, { workspace: workspace.id });
  return { key, record, workspace: workspace.id };
}
