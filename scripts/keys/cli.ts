/**
 * `npm run keys -- <command> (--local [--persist-to DIR] [--dev-vars FILE] | --remote)`: API keys,
 * workspaces and their n8n connections in the API_KEYS namespace (docs/workspaces.md). `--local` is what
 * `npm run dev` serves (its CONNECTION_KEYS and ALLOW_PRIVATE_N8N from the environment, else from
 * .dev.vars, or the file --dev-vars names); `--remote` is the deployed namespace (CONNECTION_KEYS from
 * the environment). Results on stdout, everything else on stderr; exit 2 for a usage error, 1 for a failure.
 *
 *   create --name NAME --scopes nodes:read,workflows:read [--expires 30d|12h|2027-01-31] [--workspace ID]
 *          prints the key once; only its SHA-256 is stored. With --workspace it acts on that workspace's
 *          connections; without, on the deployment's own n8n (N8N_API_URL)
 *   list   name, id, scopes, workspace, created, expiry, status (keys are never shown: they are not stored)
 *   revoke --id ID | --name NAME
 *          marks the key revoked; OAuth grants approved with it stop working too
 *
 *   workspace create --name NAME [--classes code,credentials|none]    prints its id
 *   workspace list      id, name, created, default connection, node classes, connections, active keys
 *   workspace remove --id ID      revokes its keys, deletes its connections, then its record
 *   workspace default --id ID --connection NAME     the connection n8n tools act on when a call names none
 *   workspace classes --id ID --classes code,credentials|none|deployment
 *          the node classes its callers may use, within the deployment's ALLOWED_NODE_CLASSES
 *
 *   connection add --workspace ID --name NAME --url URL
 *          the n8n API key from the environment variable N8N_CONNECTION_KEY, else one line of stdin (never
 *          a flag: flags land in shell history and process lists). Saved, sealed under CONNECTION_KEYS,
 *          only once the URL is one the Worker may call and n8n took the key; an existing name is
 *          replaced only when the new one passes
 *   connection test --workspace ID --name NAME      opens the stored key and tests it against n8n
 *   connection list --workspace ID                  name, url, release, tested at (never the key)
 *   connection rename --workspace ID --name OLD --to NEW   keeps its key and history; the default follows
 *   connection remove --workspace ID --name NAME    (the workspace default is cleared if it was this one)
 *   connection reseal [--workspace ID]
 *          seals every connection's key (of one workspace or all) under CONNECTION_KEYS' newest key
 *
 *   secret [--local [--dev-vars FILE]]
 *          a new CONNECTION_KEYS entry `k<yyyymmdd>:<32 random bytes in base64>`, printed with how to
 *          rotate (put it in front, newest first; npx wrangler secret put CONNECTION_KEYS; connection
 *          reseal; drop the old entry). With --local it goes in front of .dev.vars' CONNECTION_KEYS
 *          instead, and is not printed
 */
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { generateApiKey, newKeyRecord, sha256Hex } from '../../src/auth/apiKeys.ts';
import { parseScopes } from '../../src/auth/scopes.ts';
import { readWorkspace } from '../../src/workspaces/workspaces.ts';
import { connectionCommand, secretCommand } from './connectionCommands.ts';
import { DEV_VARS, type Where } from './settings.ts';
import { listKeys, revokeKey, putKey } from './store.ts';
import { die, fail, iso, type Flags } from './usage.ts';
import { workspaceCommand } from './workspaceCommands.ts';
import { wranglerKv } from './wranglerKv.ts';

/** `30d`, `12h`, `90m` from now, or a date. */
export function parseExpiry(text: string, now = Date.now()): number {
  const relative = /^(\d+)([dhm])$/.exec(text);
  if (relative) return now + Number(relative[1]) * { d: 86_400_000, h: 3_600_000, m: 60_000 }[relative[2] as 'd' | 'h' | 'm'];
  const date = Date.parse(text);
  if (Number.isNaN(date) || date <= now) throw new Error(`--expires: "${text}" is neither a duration (30d, 12h) nor a future date`);
  return date;
}

/** A parse of the command line that throws is a usage error. */
function usage<T>(parse: () => T): T {
  try {
    return parse();
  } catch (error) {
    return fail(error instanceof Error ? error.message : String(error));
  }
}

const OPTIONS = {
  name: { type: 'string' },
  scopes: { type: 'string' },
  expires: { type: 'string' },
  id: { type: 'string' },
  workspace: { type: 'string' },
  classes: { type: 'string' },
  connection: { type: 'string' },
  url: { type: 'string' },
  to: { type: 'string' },
  local: { type: 'boolean' },
  remote: { type: 'boolean' },
  'persist-to': { type: 'string' },
  'dev-vars': { type: 'string' },
} as const;

async function keyCommand(command: string | undefined, values: Flags, where: Where): Promise<void> {
  const { target } = where;
  switch (command) {
    case 'create': {
      if (!values.name) fail('create needs --name');
      const scopes = usage(() => parseScopes(values.scopes ?? fail('create needs --scopes')));
      const expiresAt = values.expires === undefined ? undefined : usage(() => parseExpiry(values.expires!));
      const workspace = values.workspace;
      if (workspace !== undefined && !(await readWorkspace(wranglerKv(target), workspace)))
        die(`there is no workspace "${workspace.slice(0, 40)}": npm run keys -- workspace list names them (workspace create makes one)`);
      if (listKeys(target).some((k) => k.name === values.name && k.revokedAt === undefined))
        fail(`a key named "${values.name}" exists; revoke it or pick another name`);
      const key = generateApiKey();
      const record = { ...newKeyRecord(await sha256Hex(key), values.name, scopes, expiresAt), ...(workspace === undefined ? {} : { workspace }) };
      putKey(record, target);
      console.error(
        `created key ${record.id} "${record.name}" with ${scopes.join(', ')}${workspace ? ` in workspace ${workspace}` : ''}${expiresAt ? `, expiring ${iso(expiresAt)} UTC` : ''}.`,
      );
      console.error('This is the only time it is shown; only its SHA-256 is stored:');
      console.log(key);
      return;
    }
    case 'list': {
      const keys = listKeys(target).sort((a, b) => a.createdAt - b.createdAt);
      if (keys.length === 0) return console.error('no keys');
      const now = Date.now();
      const status = (k: (typeof keys)[number]) => (k.revokedAt ? 'revoked' : k.expiresAt !== undefined && k.expiresAt <= now ? 'expired' : 'active');
      console.table(
        keys.map((k) => ({
          id: k.id,
          name: k.name,
          scopes: k.scopes.join(' '),
          workspace: k.workspace ?? '-',
          created: iso(k.createdAt),
          expires: iso(k.expiresAt),
          status: status(k),
        })),
      );
      return;
    }
    case 'revoke': {
      if (!values.id === !values.name) fail('revoke needs --id or --name');
      const matches = listKeys(target).filter((k) => k.revokedAt === undefined && (k.id === values.id || k.name === values.name));
      if (matches.length !== 1) fail(matches.length === 0 ? 'no active key matches' : `${matches.length} active keys match: revoke by --id`);
      const record = revokeKey(matches[0]!.hash, target);
      console.error(`revoked key ${record.id} "${record.name}"`);
      return;
    }
    default:
      fail(command === undefined ? 'which command?' : `unknown command "${command.slice(0, 40)}"`);
  }
}

async function main(): Promise<void> {
  const { positionals, values } = usage(() => parseArgs({ allowPositionals: true, options: OPTIONS }));
  const [command, sub] = positionals;
  if (values['dev-vars'] !== undefined && !values.local) fail('--dev-vars goes with --local');
  const devVars = resolve(values['dev-vars'] ?? DEV_VARS);
  if (command === 'secret') return secretCommand(values.local === true, devVars);
  if (values.local === values.remote) fail('say where: --local or --remote');
  const target = values.remote ? ['--remote'] : ['--local', ...(values['persist-to'] ? ['--persist-to', values['persist-to']] : [])];
  const where: Where = { target, local: values.local === true, devVars };
  if (command === 'workspace') return workspaceCommand(sub, values, where);
  if (command === 'connection') return connectionCommand(sub, values, where);
  if (sub !== undefined) fail(`"${command} ${sub.slice(0, 40)}": ${command} takes flags only`);
  return keyCommand(command, values, where);
}

if (import.meta.main) {
  main().catch((error: unknown) => die(error instanceof Error ? error.message : String(error)));
}
