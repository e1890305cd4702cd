/** Workspace and connection records across the namespace, for the commands of ./workspaceCommands.ts and ./connectionCommands.ts. */
import type { ConnectionSummary } from '../../src/workspaces/connections.ts';
import { readWorkspace, WORKSPACE_PREFIX, WorkspaceRecordSchema, type WorkspaceRecord } from '../../src/workspaces/workspaces.ts';
import { die } from './usage.ts';

/** The prefix of connectionKvName (src/workspaces/connections.ts): every workspace's connections. */
const CONNECTION_PREFIX = 'connection:';

/** Every workspace, from KV metadata (putWorkspace stores the record there): no values read. */
export async function allWorkspaces(kv: KVNamespace): Promise<WorkspaceRecord[]> {
  const listed = await kv.list({ prefix: WORKSPACE_PREFIX });
  return listed.keys.flatMap(({ metadata }) => {
    const parsed = WorkspaceRecordSchema.safeParse(metadata);
    return parsed.success ? [parsed.data] : [];
  });
}

/** Every workspace's connections, from KV metadata: never a key. */
export async function allConnections(kv: KVNamespace): Promise<ConnectionSummary[]> {
  const listed = await kv.list<ConnectionSummary>({ prefix: CONNECTION_PREFIX });
  return listed.keys.flatMap(({ metadata }) => (metadata ? [metadata] : []));
}

/** The workspace record, or a failure naming where the ids are. */
export async function workspaceOrDie(kv: KVNamespace, id: string): Promise<WorkspaceRecord> {
  return (await readWorkspace(kv, id)) ?? die(`there is no workspace "${id.slice(0, 40)}": npm run keys -- workspace list names them`);
}
