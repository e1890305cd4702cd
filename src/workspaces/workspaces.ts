/**
 * Workspaces (issue 41): who brings which n8n. A workspace is `workspace:<id>` in the API_KEYS namespace
 * beside the key records; its API keys (and the OAuth grants approved with them) act on its n8n
 * connections only (./connections.ts). It may narrow the deployment's node policy, never widen it. A key
 * of a workspace that was removed no longer authenticates: the record is checked on each use, kept per
 * isolate for the key-cache time as key records are.
 */
import { z } from 'zod';
import type { Env } from '../env';
import { keyCacheMs } from '../auth/keyCache';
import { ExpiringCache } from '../lib/expiringCache';
import { NODE_CLASSES } from '../workflows/nodeClasses';

export const WORKSPACE_ID = /^[0-9a-f]{12}$/;
export const CONNECTION_NAME = /^[a-z0-9][a-z0-9_-]{0,39}$/;

export const WorkspaceRecordSchema = z.object({
  id: z.string().regex(WORKSPACE_ID),
  name: z.string().min(1).max(60),
  createdAt: z.number().int(),
  /** The connection n8n tools act on when a call names none; unset: the only one, if there is one. */
  defaultConnection: z.string().regex(CONNECTION_NAME).optional(),
  /** The node classes its callers may use, within the deployment's (ALLOWED_NODE_CLASSES); unset: the deployment's. */
  nodeClasses: z.array(z.enum(NODE_CLASSES)).optional(),
});
export type WorkspaceRecord = z.infer<typeof WorkspaceRecordSchema>;

export const WORKSPACE_PREFIX = 'workspace:';
export const workspaceKvName = (id: string) => `${WORKSPACE_PREFIX}${id}`;

export function newWorkspace(name: string, now = Date.now()): WorkspaceRecord {
  const id = Array.from(crypto.getRandomValues(new Uint8Array(6)), (b) => b.toString(16).padStart(2, '0')).join('');
  return WorkspaceRecordSchema.parse({ id, name, createdAt: now });
}

/** The stored record, or null (none, or not one: a malformed record grants nothing). */
export async function readWorkspace(kv: KVNamespace, id: string): Promise<WorkspaceRecord | null> {
  if (!WORKSPACE_ID.test(id)) return null;
  const stored = await kv.get(workspaceKvName(id));
  let value: unknown = null;
  try {
    value = stored === null ? null : JSON.parse(stored);
  } catch {
    // not JSON: no record
  }
  const parsed = WorkspaceRecordSchema.safeParse(value);
  return parsed.success && parsed.data.id === id ? parsed.data : null;
}

export async function putWorkspace(kv: KVNamespace, record: WorkspaceRecord): Promise<void> {
  const checked = WorkspaceRecordSchema.parse(record);
  await kv.put(workspaceKvName(checked.id), JSON.stringify(checked), { metadata: checked });
}

const kept = new ExpiringCache<string, WorkspaceRecord | null>(1000);

/**
 * The workspace record, kept per isolate for the key-cache time (API_KEY_CACHE_SECONDS), as key records
 * are: a removed workspace stops its keys and grants within that time.
 */
export async function workspaceOf(env: Env, id: string, now = Date.now()): Promise<WorkspaceRecord | null> {
  const ttl = keyCacheMs(env);
  const hit = ttl ? kept.get(id, now) : undefined;
  if (hit !== undefined) return hit;
  const record = await readWorkspace(env.API_KEYS, id);
  if (ttl) kept.set(id, record, now + ttl);
  return record;
}

/** Whether a key's workspace (if it names one) still exists: a removed workspace's keys and grants stop. */
export const workspaceStands = async (env: Env, key: { workspace?: string | undefined }): Promise<boolean> =>
  key.workspace === undefined || (await workspaceOf(env, key.workspace)) !== null;

/** The connection n8n tools act on when a call names none: the workspace's default, else its only one. */
export const defaultConnectionOf = (workspace: WorkspaceRecord, names: readonly string[]): string | undefined =>
  workspace.defaultConnection ?? (names.length === 1 ? names[0] : undefined);
