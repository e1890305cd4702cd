/**
 * The n8n connection a call acts on (issue 41). A caller of the deployment's own workspace (no
 * workspace on its key or grant) has N8N_API_URL / N8N_API_KEY, as before; a workspace's caller has the
 * connection its `instance` argument names, or, when it names none, the workspace's only one. Opened
 * connections are kept per isolate for the key-cache time, as key records are (src/auth/keyCache.ts),
 * so a busy caller's calls do not each read KV and decrypt; a removed connection stops within that time.
 */
import type { Env } from '../env';
import { n8nConnection, type N8nConnection } from '../n8n/client';
import type { Principal } from '../principal';
import { ToolError } from '../tools/tool';
import { listConnections, openConnection } from './connections';
import { keyRing, type KeyRing } from './secretBox';

const CACHE_MS = 30_000;
const MAX_ENTRIES = 1000;
const opened = new Map<string, { connection: N8nConnection; until: number }>();
const rings = new WeakMap<Env, Promise<KeyRing>>();

export async function connectionFor(env: Env, caller: Principal, instance?: string, now: () => number = Date.now): Promise<N8nConnection> {
  if (caller.workspace === undefined) {
    const own = n8nConnection(env);
    if (!own) throw new ToolError('n8n is not configured on this server (N8N_API_URL and N8N_API_KEY).');
    if (instance !== undefined && instance !== 'default')
      throw new ToolError(`instance: this server has one n8n, "default"; "${instance.slice(0, 40)}" is not one of its connections.`);
    return own;
  }
  const name = instance ?? (await onlyConnection(env, caller.workspace));
  const cacheKey = `${caller.workspace}:${name}`;
  const cached = opened.get(cacheKey);
  if (cached && cached.until > now()) return cached.connection;
  let ring = rings.get(env);
  if (!ring) rings.set(env, (ring = keyRing(env.CONNECTION_KEYS)));
  const connection = await openConnection(env.API_KEYS, await ring, caller.workspace, name);
  if (!connection) throw new ToolError(`instance: this workspace has no n8n connection "${name.slice(0, 40)}": list_instances names its connections.`);
  opened.delete(cacheKey);
  if (opened.size >= MAX_ENTRIES) opened.delete(opened.keys().next().value!);
  opened.set(cacheKey, { connection, until: now() + CACHE_MS });
  return connection;
}

/** The workspace's connection when it has exactly one; otherwise the call must name one. */
async function onlyConnection(env: Env, workspace: string): Promise<string> {
  const connections = await listConnections(env.API_KEYS, workspace);
  if (connections.length === 1) return connections[0]!.name;
  if (connections.length === 0)
    throw new ToolError('this workspace has no n8n connection yet: add one (npm run keys -- connection add, or the landing page) and call again.');
  throw new ToolError(`instance: this workspace has ${connections.length} n8n connections (${connections.map((c) => c.name).join(', ')}): name one.`);
}
