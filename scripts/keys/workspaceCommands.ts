/**
 * `npm run keys -- workspace …` (documented in ./cli.ts): workspace records through the Worker's own
 * code (src/workspaces/workspaces.ts), over wrangler (./wranglerKv.ts).
 */
import { connectionKvName, listConnections } from '../../src/workspaces/connections.ts';
import { newWorkspace, putWorkspace, workspaceKvName, type WorkspaceRecord } from '../../src/workspaces/workspaces.ts';
import { isNodeClass, NODE_CLASSES, type NodeClass } from '../../src/workflows/nodeClasses.ts';
import { allConnections, allWorkspaces, workspaceOrDie } from './records.ts';
import type { Where } from './settings.ts';
import { listKeys, revokeKey } from './store.ts';
import { die, fail, iso, need, type Flags } from './usage.ts';
import { wranglerKv } from './wranglerKv.ts';

/** `--classes code,credentials`, `none` for no class at all, or `deployment` for the deployment's own (unset). */
function parseClasses(text: string): NodeClass[] | undefined {
  if (text.trim() === 'deployment') return undefined;
  if (text.trim() === 'none') return [];
  const named = text.split(',').map((c) => c.trim());
  for (const c of named)
    if (!isNodeClass(c)) fail(`--classes: "${c.slice(0, 40)}" is not a node class: name some of ${NODE_CLASSES.join(', ')}, or none, or deployment`);
  return [...new Set(named as NodeClass[])];
}

const classesText = (classes: WorkspaceRecord['nodeClasses']) => (classes === undefined ? "the deployment's" : classes.join(' ') || 'none');
const BOUNDED = "the deployment's ALLOWED_NODE_CLASSES still bounds them: a class it does not allow stays off";

const isActive = (key: { revokedAt?: number | undefined; expiresAt?: number | undefined }, now: number) =>
  key.revokedAt === undefined && (key.expiresAt === undefined || key.expiresAt > now);

export async function workspaceCommand(sub: string | undefined, flags: Flags, where: Where): Promise<void> {
  const kv = wranglerKv(where.target);
  switch (sub) {
    case 'create': {
      const name = need(flags, 'name', 'workspace create').trim();
      if (name === '' || name.length > 60) fail('workspace create: --name is 1 to 60 characters');
      const nodeClasses = flags.classes === undefined ? undefined : parseClasses(flags.classes);
      const same = (await allWorkspaces(kv)).find((w) => w.name === name);
      if (same) die(`a workspace named "${name}" exists (${same.id}): pick another name, or use that one`);
      const record: WorkspaceRecord = { ...newWorkspace(name), ...(nodeClasses ? { nodeClasses } : {}) };
      await putWorkspace(kv, record);
      console.error(`created workspace "${name}" (node classes: ${classesText(nodeClasses)}${nodeClasses ? `; ${BOUNDED}` : ''}). Its id:`);
      console.log(record.id);
      console.error('Next: npm run keys -- create --workspace ID …, and connection add --workspace ID --name NAME --url URL');
      return;
    }
    case 'list': {
      const workspaces = (await allWorkspaces(kv)).sort((a, b) => a.createdAt - b.createdAt);
      if (workspaces.length === 0) return console.error('no workspaces (keys without one act on the deployment’s own n8n)');
      const [connections, keys, now] = [await allConnections(kv), listKeys(where.target), Date.now()];
      console.table(
        workspaces.map((w) => ({
          id: w.id,
          name: w.name,
          created: iso(w.createdAt),
          'default connection': w.defaultConnection ?? '-',
          'node classes': classesText(w.nodeClasses),
          connections: connections.filter((c) => c.workspace === w.id).length,
          'active keys': keys.filter((k) => k.workspace === w.id && isActive(k, now)).length,
        })),
      );
      return;
    }
    case 'remove': {
      const workspace = await workspaceOrDie(kv, need(flags, 'id', 'workspace remove'));
      const { id } = workspace;
      // Keys first: a run cut short leaves the workspace's callers stopped, never its record without its keys revoked.
      const revoked = listKeys(where.target)
        .filter((k) => k.workspace === id && k.revokedAt === undefined)
        .map((k) => revokeKey(k.hash, where.target));
      const removed = (await listConnections(kv, id)).map((c) => c.name);
      for (const name of removed) await kv.delete(connectionKvName(id, name));
      await kv.delete(workspaceKvName(id));
      const names = (list: string[]) => (list.length ? `: ${list.join(', ')}` : '');
      console.error(
        `removed workspace ${id} "${workspace.name}": revoked ${revoked.length} key(s)${names(revoked.map((k) => `${k.id} "${k.name}"`))} ` +
          `(OAuth grants approved with them stop too), deleted ${removed.length} connection(s)${names(removed)}`,
      );
      return;
    }
    case 'default': {
      const [id, name] = [need(flags, 'id', 'workspace default'), need(flags, 'connection', 'workspace default')];
      const workspace = await workspaceOrDie(kv, id);
      const names = (await listConnections(kv, workspace.id)).map((c) => c.name);
      if (!names.includes(name))
        die(
          `workspace ${workspace.id} has no connection "${name.slice(0, 40)}": ${names.length ? `it has ${names.join(', ')}` : 'add one with npm run keys -- connection add'}`,
        );
      await putWorkspace(kv, { ...workspace, defaultConnection: name });
      console.error(`workspace ${workspace.id} "${workspace.name}": n8n tools that name no instance act on "${name}"`);
      return;
    }
    case 'classes': {
      const [id, nodeClasses] = [need(flags, 'id', 'workspace classes'), parseClasses(need(flags, 'classes', 'workspace classes'))];
      const workspace = await workspaceOrDie(kv, id);
      const { nodeClasses: _was, ...rest } = workspace;
      await putWorkspace(kv, nodeClasses === undefined ? rest : { ...rest, nodeClasses });
      console.error(`workspace ${workspace.id} "${workspace.name}" may use the node classes ${classesText(nodeClasses)}; ${BOUNDED}`);
      return;
    }
    default:
      fail(sub === undefined ? 'workspace: which command?' : `unknown command "workspace ${sub.slice(0, 40)}"`);
  }
}
