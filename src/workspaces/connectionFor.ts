/**
 * The n8n connection a call acts on (issue 41). A caller of the deployment's own workspace (no
 * workspace on its key or grant) has N8N_API_URL / N8N_API_KEY, as before, under the name "default"; a
 * workspace's caller has the connection its `instance` argument names, else the workspace's default,
 * else its only one. Opened connections are kept per isolate for the key-cache time, as key records are
 * (src/auth/keyCache.ts), so a busy caller's calls do not each read KV and decrypt; a removed connection
 * or workspace stops within that time.
 */
import { keyCacheMs } from '../auth/keyCache';
import type { Env } from '../env';
import { ExpiringCache } from '../lib/expiringCache';
import { n8nConnection, type N8nConnection } from '../n8n/client';
import type { Principal } from '../principal';
import { ToolError } from '../lib/errors';
import { listConnections, openConnection } from './connections';
import { addressKind } from './connectionUrl';
import { keyRing, type KeyRing } from './secretBox';
import { workspaceOf, type WorkspaceRecord } from './workspaces';

/** The deployment's own connection's name, in `instance` arguments and list_instances. */
export const DEPLOYMENT_INSTANCE = 'default';

const opened = new ExpiringCache<string, N8nConnection>(1000);
const rings = new WeakMap<Env, Promise<KeyRing>>();

/** The key ring of CONNECTION_KEYS, read once per env object (a new deployment's secrets come with a new one). */
export function ringOf(env: Env): Promise<KeyRing> {
  let ring = rings.get(env);
  if (!ring) rings.set(env, (ring = keyRing(env.CONNECTION_KEYS)));
  return ring;
}

/** The caller's workspace record; a ToolError once it was removed (its keys stop authenticating within the cache time too). */
export async function callerWorkspace(env: Env, caller: Principal): Promise<WorkspaceRecord | undefined> {
  if (caller.workspace === undefined) return undefined;
  const record = await workspaceOf(env, caller.workspace);
  if (!record) throw new ToolError("this credential's workspace was removed: ask the server's operator for a key of a workspace that exists.");
  return record;
}

export async function connectionFor(env: Env, caller: Principal, instance?: string, now: () => number = Date.now): Promise<N8nConnection> {
  return connectionIn(env, await callerWorkspace(env, caller), instance, now);
}

/** The connection `instance` names in the caller's workspace (read already: callerWorkspace), or the deployment's own without one. */
export async function connectionIn(env: Env, workspace: WorkspaceRecord | undefined, instance?: string, now: () => number = Date.now): Promise<N8nConnection> {
  if (!workspace) {
    const own = n8nConnection(env);
    if (!own) throw new ToolError('n8n is not configured on this server (N8N_API_URL and N8N_API_KEY).');
    if (instance !== undefined && instance !== DEPLOYMENT_INSTANCE)
      throw new ToolError(`instance: this server has one n8n, "${DEPLOYMENT_INSTANCE}"; "${instance.slice(0, 40)}" is not one of its connections.`);
    return own;
  }
  const named = instance ?? workspace.defaultConnection;
  // Kept under what was asked (a name, or none: the only one), so a workspace without a default lists its connections once per cache time, not per call.
  const cacheKey = `${workspace.id}:${named ?? ''}`;
  const ttl = keyCacheMs(env);
  const cached = ttl ? opened.get(cacheKey, now()) : undefined;
  if (cached) return cached;
  const name = named ?? (await onlyConnection(env, workspace.id));
  const connection = await openConnection(env.API_KEYS, await ringOf(env), workspace.id, name);
  if (!connection) throw new ToolError(`instance: this workspace has no n8n connection "${name.slice(0, 40)}": list_instances names its connections.`);
  // Checked at each opening too, not only when saved: an operator who stops allowing private networks stops their use.
  const where = addressKind(new URL(connection.apiBase).hostname);
  if ((where === 'private' || where === 'link-local') && env.ALLOW_PRIVATE_N8N !== 'true')
    throw new ToolError(
      `the connection "${name}" is at a ${where} address, which this server no longer calls (its operator's ALLOW_PRIVATE_N8N is off): add it again at a public https address.`,
    );
  if (ttl) opened.set(cacheKey, connection, now() + ttl);
  return connection;
}

/**
 * The connection a call that names none would act on, or undefined where there is none to name (no n8n
 * configured, a workspace without a connection, or with several and no default): for what only reads
 * the instance's release or says whether there is one.
 */
export async function defaultConnectionFor(env: Env, caller: Principal): Promise<N8nConnection | undefined> {
  if (caller.workspace === undefined) return n8nConnection(env);
  return connectionFor(env, caller).catch((error: unknown) => {
    if (error instanceof ToolError) return undefined;
    throw error;
  });
}

/** The workspace's connection when it has exactly one; otherwise the call must name one. */
async function onlyConnection(env: Env, workspace: string): Promise<string> {
  const connections = await listConnections(env.API_KEYS, workspace);
  if (connections.length === 1) return connections[0]!.name;
  if (connections.length === 0)
    throw new ToolError('this workspace has no n8n connection yet: add one (on this server’s landing page, or npm run keys -- connection add) and call again.');
  throw new ToolError(`instance: this workspace has ${connections.length} n8n connections (${connections.map((c) => c.name).join(', ')}): name one.`);
}
