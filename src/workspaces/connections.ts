/**
 * A workspace's n8n connections (issue 41), in the API_KEYS namespace beside the key records:
 * `connection:<workspace>:<name>` → its base URL, its n8n key sealed to that name
 * (src/workspaces/secretBox.ts), the release its last test read. A connection is written only after its
 * URL is one the Worker may call (connectionUrl.ts) and its test passed (connectionTest.ts), in one put:
 * a failed replacement leaves the previous one as it was. Shared by the Worker and `npm run keys`.
 */
import { z } from 'zod';
import type { N8nConnection } from '../n8n/client';
import { checkConnectionUrl, type UrlPolicy } from './connectionUrl';
import { testConnection, type TestOptions } from './connectionTest';
import { open, seal, type KeyRing } from './secretBox';

const NAME = /^[a-z0-9][a-z0-9_-]{0,39}$/;
const WORKSPACE = /^[0-9a-f]{12}$/;

export const ConnectionRecordSchema = z.object({
  workspace: z.string().regex(WORKSPACE),
  name: z.string().regex(NAME),
  /** The instance's address, without /api/v1. */
  base: z.string().url(),
  sealedKey: z.string(),
  release: z.string().nullable(),
  testedAt: z.number().int(),
});
export type ConnectionRecord = z.infer<typeof ConnectionRecordSchema>;

/** What listing shows of a connection: never its key, sealed or not. */
export type ConnectionSummary = Omit<ConnectionRecord, 'sealedKey'>;

export const connectionKvName = (workspace: string, name: string) => `connection:${workspace}:${name}`;

/** Why a connection name is refused, naming the fix; undefined when it is one. */
export const connectionNameProblem = (name: string): string | undefined =>
  NAME.test(name)
    ? undefined
    : `"${name.slice(0, 60)}" is not a connection name: 1 to 40 lower-case letters, digits, - or _, starting with a letter or digit (e.g. prod, dev-2)`;

export type SaveResult = { saved: ConnectionSummary } | { problem: string };

/** Checks the URL, tests the connection, and only then writes it (a replacement in the same one put). */
export async function saveConnection(
  kv: KVNamespace,
  ring: KeyRing,
  given: { workspace: string; name: string; url: string; apiKey: string },
  policy: UrlPolicy,
  options: TestOptions & { now?: number } = {},
): Promise<SaveResult> {
  const nameProblem = connectionNameProblem(given.name);
  if (nameProblem) return { problem: nameProblem };
  const apiKey = given.apiKey.trim();
  if (apiKey === '') return { problem: 'no n8n API key given: create one in n8n (Settings → n8n API)' };
  const verdict = checkConnectionUrl(given.url, policy);
  if ('problem' in verdict) return verdict;
  const tested = await testConnection(verdict.base, apiKey, options);
  if (!tested.ok) return { problem: tested.problem };
  const kvName = connectionKvName(given.workspace, given.name);
  const record = ConnectionRecordSchema.parse({
    workspace: given.workspace,
    name: given.name,
    base: verdict.base,
    sealedKey: await seal(apiKey, ring, kvName),
    release: tested.release,
    testedAt: options.now ?? Date.now(),
  });
  const { sealedKey: _sealed, ...summary } = record;
  await kv.put(kvName, JSON.stringify(record), { metadata: summary });
  return { saved: summary };
}

/** The connection the n8n client uses, its key opened; undefined when the workspace has no such connection. */
export async function openConnection(kv: KVNamespace, ring: KeyRing, workspace: string, name: string): Promise<N8nConnection | undefined> {
  if (!WORKSPACE.test(workspace) || !NAME.test(name)) return undefined;
  const kvName = connectionKvName(workspace, name);
  const stored = await kv.get(kvName);
  if (stored === null) return undefined;
  const record = ConnectionRecordSchema.parse(JSON.parse(stored));
  return { apiBase: `${record.base}/api/v1`, apiKey: await open(record.sealedKey, ring, kvName) };
}

/** A workspace's connections, from KV metadata: no value read, no key in them. */
export async function listConnections(kv: KVNamespace, workspace: string): Promise<ConnectionSummary[]> {
  if (!WORKSPACE.test(workspace)) return [];
  const listed = await kv.list<ConnectionSummary>({ prefix: connectionKvName(workspace, '') });
  return listed.keys.flatMap((k) => (k.metadata ? [k.metadata] : []));
}
