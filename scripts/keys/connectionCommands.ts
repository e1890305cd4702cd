/**
 * `npm run keys -- connection …` and `secret` (documented in ./cli.ts): a workspace's n8n connections
 * through the Worker's own code (src/workspaces/connections.ts: the URL check, the test against n8n, the
 * sealing), over wrangler (./wranglerKv.ts). The n8n API key comes from N8N_CONNECTION_KEY or stdin,
 * never a flag (flags land in shell history and process lists), and is never printed.
 */
import { createInterface } from 'node:readline';
import { Writable } from 'node:stream';
import { testConnection } from '../../src/workspaces/connectionTest.ts';
import {
  listConnections,
  openConnection,
  removeConnection,
  renameConnection,
  resealConnection,
  saveConnection,
  type ConnectionSummary,
} from '../../src/workspaces/connections.ts';
import { allConnections, workspaceOrDie } from './records.ts';
import { devVar, newRingEntry, prependDevVar, ringFor, urlPolicyFor, type Where } from './settings.ts';
import { die, fail, iso, need, type Flags } from './usage.ts';
import { wranglerKv } from './wranglerKv.ts';

/** One line of stdin, not echoed on a terminal. */
async function readKeyLine(): Promise<string> {
  const terminal = process.stdin.isTTY === true;
  if (terminal) process.stderr.write('n8n API key (not shown as you type): ');
  const silent = new Writable({ write: (_chunk, _encoding, done) => done() });
  const lines = createInterface({ input: process.stdin, output: silent, terminal });
  try {
    for await (const line of lines) return line;
    return '';
  } finally {
    lines.close();
    if (terminal) process.stderr.write('\n');
  }
}

const row = (c: ConnectionSummary, defaultName?: string) => ({
  name: c.name,
  url: c.base,
  release: c.release ?? '-',
  'tested at': iso(c.testedAt),
  ...(defaultName === undefined ? {} : { default: c.name === defaultName ? 'yes' : '' }),
});

export async function connectionCommand(sub: string | undefined, flags: Flags, where: Where): Promise<void> {
  const kv = wranglerKv(where.target);
  const command = `connection ${sub}`;
  switch (sub) {
    case 'add': {
      const [workspace, name, url] = [need(flags, 'workspace', command), need(flags, 'name', command), need(flags, 'url', command)];
      const ring = await ringFor(where);
      await workspaceOrDie(kv, workspace);
      const apiKey = process.env.N8N_CONNECTION_KEY ?? (await readKeyLine());
      if (apiKey.trim() === '') die('no n8n API key given: set N8N_CONNECTION_KEY, or give it as one line on stdin (create one in n8n: Settings → n8n API)');
      const result = await saveConnection(kv, ring, { workspace, name, url, apiKey }, urlPolicyFor(where));
      if ('problem' in result) die(`connection "${name.slice(0, 40)}" not saved (nothing was written): ${result.problem}`);
      console.error(`saved connection "${name}" of workspace ${workspace}, tested: n8n's API took the key`);
      console.table([row(result.saved)]);
      return;
    }
    case 'test': {
      const [workspace, name] = [need(flags, 'workspace', command), need(flags, 'name', command)];
      const connection = await openConnection(kv, await ringFor(where), workspace, name);
      if (!connection) die(`workspace ${workspace.slice(0, 40)} has no connection "${name.slice(0, 40)}": npm run keys -- connection list names them`);
      const base = connection.apiBase.replace(/\/api\/v1$/, '');
      const tested = await testConnection(base, connection.apiKey);
      if (!tested.ok) die(`connection "${name}" (${base}) failed its test: ${tested.problem}`);
      console.log(`ok: n8n ${tested.release ?? '(release not readable from its editor page)'} at ${base} took the key`);
      return;
    }
    case 'list': {
      const workspace = await workspaceOrDie(kv, need(flags, 'workspace', command));
      const connections = await listConnections(kv, workspace.id);
      if (connections.length === 0) return console.error(`workspace ${workspace.id} has no connections: npm run keys -- connection add`);
      console.table(connections.map((c) => row(c, workspace.defaultConnection)));
      return;
    }
    case 'rename': {
      const [id, from, to] = [need(flags, 'workspace', command), need(flags, 'name', command), need(flags, 'to', command)];
      // renameConnection moves the workspace's default along; read first only to say so.
      const followed = (await workspaceOrDie(kv, id)).defaultConnection === from;
      const result = await renameConnection(kv, id, from, to);
      if ('problem' in result) die(`connection not renamed: ${result.problem}`);
      console.error(
        `renamed connection "${from}" of workspace ${id} to "${to}" (its key and history kept)${followed ? '; the workspace default follows it' : ''}`,
      );
      return;
    }
    case 'remove': {
      const [id, name] = [need(flags, 'workspace', command), need(flags, 'name', command)];
      // removeConnection clears the workspace's default when it named this one; read first only to say so.
      const wasDefault = (await workspaceOrDie(kv, id)).defaultConnection === name;
      if (!(await removeConnection(kv, id, name))) die(`workspace ${id} has no connection "${name.slice(0, 40)}": npm run keys -- connection list names them`);
      console.error(`removed connection "${name}" of workspace ${id}${wasDefault ? '; the workspace has no default connection now' : ''}`);
      return;
    }
    case 'reseal': {
      const ring = await ringFor(where);
      const connections = flags.workspace === undefined ? await allConnections(kv) : await listConnections(kv, (await workspaceOrDie(kv, flags.workspace)).id);
      let resealed = 0;
      const failed: string[] = [];
      for (const c of connections) {
        try {
          if (await resealConnection(kv, ring, c.workspace, c.name)) resealed++;
        } catch (error) {
          failed.push(`${c.workspace}/${c.name}: ${error instanceof Error ? error.message : String(error)}`);
        }
      }
      console.log(`resealed ${resealed} of ${connections.length} connection(s) under the key "${ring.current}"`);
      if (failed.length) die(`not resealed (each still opens under its old key while CONNECTION_KEYS holds it):\n  ${failed.join('\n  ')}`);
      console.error('Every connection opens with the newest key now: the older CONNECTION_KEYS entries can be dropped.');
      return;
    }
    default:
      fail(sub === undefined ? 'connection: which command?' : `unknown command "connection ${sub.slice(0, 40)}"`);
  }
}

/** `secret`: a new CONNECTION_KEYS entry, printed (with how to rotate) or, with --local, put into .dev.vars. */
export function secretCommand(local: boolean, devVars: string): void {
  if (local) {
    const existing = devVar(devVars, 'CONNECTION_KEYS');
    const { id, entry } = newRingEntry(existing);
    prependDevVar(devVars, 'CONNECTION_KEYS', entry);
    console.error(
      existing
        ? `put the key "${id}" in front of CONNECTION_KEYS in ${devVars} (newest first: the older entries still open what they sealed).\n` +
            'Next: restart npm run dev, run npm run keys -- connection reseal --local, then delete the older entries from that line.'
        : `wrote CONNECTION_KEYS (the key "${id}") to ${devVars}: restart npm run dev, and workspaces are on.`,
    );
    return;
  }
  const { id, entry } = newRingEntry(process.env.CONNECTION_KEYS);
  console.log(entry);
  console.error(`A new CONNECTION_KEYS entry (the key "${id}", above). To rotate to it:
  1. put it in front of the current value, newest first: NEW,OLD (the old entries still open what they sealed)
  2. npx wrangler secret put CONNECTION_KEYS   (for npm run dev: the CONNECTION_KEYS line of .dev.vars, or run secret --local instead)
  3. CONNECTION_KEYS='NEW,OLD' npm run keys -- connection reseal --remote   (seals every connection's n8n key under NEW)
  4. drop the old entries: npx wrangler secret put CONNECTION_KEYS with NEW alone
A deployment without CONNECTION_KEYS: put it alone; that turns workspaces on.`);
}
