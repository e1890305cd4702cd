/**
 * A workspace's n8n connections (issue 41), in the API_KEYS namespace beside the key records:
 * `connection:<workspace>:<name>` → its base URL, its n8n key sealed (src/workspaces/secretBox.ts), the
 * release its last test read. A connection is written only after its URL is one the Worker may call
 * (connectionUrl.ts) and its test passed (connectionTest.ts), in one put: a failed replacement leaves the
 * previous one as it was. Its `id` stays with it through a new key and a rename, and names its history
 * (src/history/history.ts); the sealed key is bound to the workspace and that id, so a record copied
 * elsewhere does not open. Shared by the Worker and `npm run keys`.
 */
import { z } from 'zod';
import type { N8nConnection } from '../n8n/client';
import { checkConnectionUrl, type UrlPolicy } from './connectionUrl';
import { testConnection, type TestOptions } from './connectionTest';
import { needsResealing, open, seal, type KeyRing } from './secretBox';
import { CONNECTION_NAME, putWorkspace, readWorkspace, WORKSPACE_ID } from './workspaces';

const ConnectionRecordSchema = z.object({
  id: z.string().regex(/^[0-9a-f]{16}$/),
  workspace: z.string().regex(WORKSPACE_ID),
  name: z.string().regex(CONNECTION_NAME),
  /** The instance's address, without /api/v1. */
  base: z.string().url(),
  sealedKey: z.string(),
  release: z.string().nullable(),
  testedAt: z.number().int(),
});
type ConnectionRecord = z.infer<typeof ConnectionRecordSchema>;

/** What listing shows of a connection: never its key, sealed or not. */
export type ConnectionSummary = Omit<ConnectionRecord, 'sealedKey'>;

export const connectionKvName = (workspace: string, name: string) => `connection:${workspace}:${name}`;
const sealingContext = (record: Pick<ConnectionRecord, 'workspace' | 'id'>) => `connection:${record.workspace}:${record.id}`;
const summaryOf = ({ sealedKey: _sealed, ...summary }: ConnectionRecord): ConnectionSummary => summary;

/** Why a connection name is refused, naming the fix; undefined when it is one. */
export const connectionNameProblem = (name: string): string | undefined =>
  CONNECTION_NAME.test(name)
    ? undefined
    : `"${name.slice(0, 60)}" is not a connection name: 1 to 40 lower-case letters, digits, - or _, starting with a letter or digit (e.g. prod, dev-2)`;

export type SaveResult = { saved: ConnectionSummary } | { problem: string };

/** Connections one workspace may hold: what a caller with instances:write can make the server store is bounded. */
export const MAX_CONNECTIONS = 20;

/** The longest n8n API key taken: n8n's are JWTs of a few hundred characters. */
export const MAX_N8N_KEY = 4096;

/**
 * The test a connection passes before it is saved, and all that the landing page's Test button runs:
 * the key given at all, the URL one this server may call, and n8n there taking the key. The instance's
 * base URL and release when it passed; the problem, naming the fix, when not.
 */
export async function testNewConnection(
  given: { url: string; apiKey: string },
  policy: UrlPolicy,
  options: TestOptions = {},
): Promise<{ base: string; apiKey: string; release: string | null } | { problem: string }> {
  const apiKey = given.apiKey.trim();
  if (apiKey === '') return { problem: 'no n8n API key given: create one in n8n (Settings → n8n API)' };
  if (apiKey.length > MAX_N8N_KEY)
    return { problem: `that n8n API key is longer than any n8n makes (${MAX_N8N_KEY.toLocaleString('en-US')} characters at most): paste the key alone` };
  const verdict = checkConnectionUrl(given.url, policy);
  if ('problem' in verdict) return verdict;
  const tested = await testConnection(verdict.base, apiKey, options);
  return tested.ok ? { base: verdict.base, apiKey, release: tested.release } : { problem: tested.problem };
}

async function readRecord(kv: KVNamespace, workspace: string, name: string): Promise<ConnectionRecord | null> {
  if (!WORKSPACE_ID.test(workspace) || !CONNECTION_NAME.test(name)) return null;
  const stored = await kv.get(connectionKvName(workspace, name));
  if (stored === null) return null;
  const record = ConnectionRecordSchema.parse(JSON.parse(stored));
  // A record under a name that is not its own (copied or moved in KV) is no connection of this workspace.
  return record.workspace === workspace && record.name === name ? record : null;
}

const write = (kv: KVNamespace, record: ConnectionRecord) =>
  kv.put(connectionKvName(record.workspace, record.name), JSON.stringify(ConnectionRecordSchema.parse(record)), { metadata: summaryOf(record) });

/**
 * Checks the URL, tests the connection, and only then writes it. Given the name of an existing one, it
 * replaces its URL and key in the same one put and keeps its id (and so its history).
 */
export async function saveConnection(
  kv: KVNamespace,
  ring: KeyRing,
  given: { workspace: string; name: string; url: string; apiKey: string },
  policy: UrlPolicy,
  options: TestOptions & { now?: number } = {},
): Promise<SaveResult> {
  const nameProblem = connectionNameProblem(given.name);
  if (nameProblem) return { problem: nameProblem };
  const tested = await testNewConnection(given, policy, options);
  if ('problem' in tested) return tested;
  const previous = await readRecord(kv, given.workspace, given.name);
  if (!previous && (await listConnections(kv, given.workspace)).length >= MAX_CONNECTIONS)
    return { problem: `this workspace has ${MAX_CONNECTIONS} n8n connections, as many as one may hold: remove one, or replace one by saving under its name` };
  const id = previous?.id ?? Array.from(crypto.getRandomValues(new Uint8Array(8)), (b) => b.toString(16).padStart(2, '0')).join('');
  const identity = { id, workspace: given.workspace };
  const record: ConnectionRecord = {
    ...identity,
    name: given.name,
    base: tested.base,
    sealedKey: await seal(tested.apiKey, ring, sealingContext(identity)),
    release: tested.release,
    testedAt: options.now ?? Date.now(),
  };
  await write(kv, record);
  return { saved: summaryOf(record) };
}

/** The connection the n8n client uses, its key opened; undefined when the workspace has no such connection. */
export async function openConnection(kv: KVNamespace, ring: KeyRing, workspace: string, name: string): Promise<N8nConnection | undefined> {
  const record = await readRecord(kv, workspace, name);
  if (!record) return undefined;
  // The context from the name it was read under, not from the record: a record copied to another workspace does not open.
  const apiKey = await open(record.sealedKey, ring, sealingContext({ workspace, id: record.id }));
  return { apiBase: `${record.base}/api/v1`, apiKey, instance: { workspace, name, id: record.id } };
}

/** A workspace's connections, from KV metadata: no value read, no key in them. */
export async function listConnections(kv: KVNamespace, workspace: string): Promise<ConnectionSummary[]> {
  if (!WORKSPACE_ID.test(workspace)) return [];
  const listed = await kv.list<ConnectionSummary>({ prefix: connectionKvName(workspace, '') });
  return listed.keys.flatMap((k) => (k.metadata ? [k.metadata] : []));
}

/** Gives a connection another name, keeping its id, key and history; a problem when either name is wrong. */
export async function renameConnection(kv: KVNamespace, workspace: string, from: string, to: string): Promise<SaveResult> {
  const problem = connectionNameProblem(to);
  if (problem) return { problem };
  const record = await readRecord(kv, workspace, from);
  if (!record) return { problem: `this workspace has no connection "${from.slice(0, 40)}"` };
  if (await readRecord(kv, workspace, to)) return { problem: `this workspace has a connection "${to}" already: remove it first, or pick another name` };
  const renamed = { ...record, name: to };
  // The new name first: a failure between the two writes leaves both, never neither.
  await write(kv, renamed);
  await kv.delete(connectionKvName(workspace, from));
  await defaultBecomes(kv, workspace, from, to);
  return { saved: summaryOf(renamed) };
}

/** Removes a connection, and makes it the workspace's default no more: calls naming it fail from then on (within the per-isolate cache time). */
export async function removeConnection(kv: KVNamespace, workspace: string, name: string): Promise<boolean> {
  if (!(await readRecord(kv, workspace, name))) return false;
  await kv.delete(connectionKvName(workspace, name));
  await defaultBecomes(kv, workspace, name, undefined);
  return true;
}

/** The workspace's default connection follows a rename and is cleared by a removal. */
async function defaultBecomes(kv: KVNamespace, workspace: string, was: string, now: string | undefined): Promise<void> {
  const record = await readWorkspace(kv, workspace);
  if (record?.defaultConnection !== was) return;
  const { defaultConnection: _was, ...rest } = record;
  await putWorkspace(kv, now === undefined ? rest : { ...rest, defaultConnection: now });
}

/** Seals a connection's key again under the ring's newest key, so an older one can be dropped; false when it already was. */
export async function resealConnection(kv: KVNamespace, ring: KeyRing, workspace: string, name: string): Promise<boolean> {
  const record = await readRecord(kv, workspace, name);
  if (!record || !needsResealing(record.sealedKey, ring)) return false;
  const context = sealingContext(record);
  await write(kv, { ...record, sealedKey: await seal(await open(record.sealedKey, ring, context), ring, context) });
  return true;
}
