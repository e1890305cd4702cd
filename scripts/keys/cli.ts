/**
 * `npm run keys -- <command> (--local [--persist-to DIR] | --remote)`: API keys in the API_KEYS namespace.
 *
 *   create --name NAME --scopes nodes:read,workflows:read [--expires 30d|12h|2027-01-31]
 *          prints the key once; only its SHA-256 is stored
 *   list   name, id, scopes, created, expiry, status (keys are never shown: they are not stored)
 *   revoke --id ID | --name NAME
 *          marks the key revoked; OAuth grants approved with it stop working too
 */
import { parseArgs } from 'node:util';
import { generateApiKey, newKeyRecord, sha256Hex } from '../../src/auth/apiKeys.ts';
import { parseScopes } from '../../src/auth/scopes.ts';
import { getKey, listKeys, putKey } from './store.ts';

const USAGE = `usage: npm run keys -- create --name NAME --scopes S1,S2 [--expires 30d] | list | revoke (--id ID | --name NAME)
       and where: --local [--persist-to DIR] (what npm run dev serves) or --remote (the deployed namespace)`;

function fail(message: string): never {
  console.error(`${message}\n${USAGE}`);
  process.exit(2);
}

/** `30d`, `12h`, `90m` from now, or a date. */
export function parseExpiry(text: string, now = Date.now()): number {
  const relative = /^(\d+)([dhm])$/.exec(text);
  if (relative) return now + Number(relative[1]) * { d: 86_400_000, h: 3_600_000, m: 60_000 }[relative[2] as 'd' | 'h' | 'm'];
  const date = Date.parse(text);
  if (Number.isNaN(date) || date <= now) throw new Error(`--expires: "${text}" is neither a duration (30d, 12h) nor a future date`);
  return date;
}

const iso = (ms: number | undefined) => (ms === undefined ? '-' : new Date(ms).toISOString().slice(0, 16).replace('T', ' '));

async function main(): Promise<void> {
  const { positionals, values } = parseArgs({
    allowPositionals: true,
    options: {
      name: { type: 'string' },
      scopes: { type: 'string' },
      expires: { type: 'string' },
      id: { type: 'string' },
      local: { type: 'boolean' },
      remote: { type: 'boolean' },
      'persist-to': { type: 'string' },
    },
  });
  if (values.local === values.remote) fail('say where: --local or --remote');
  const target = values.remote ? ['--remote'] : ['--local', ...(values['persist-to'] ? ['--persist-to', values['persist-to']] : [])];

  switch (positionals[0]) {
    case 'create': {
      if (!values.name) fail('create needs --name');
      const scopes = parseScopes(values.scopes ?? fail('create needs --scopes'));
      const expiresAt = values.expires === undefined ? undefined : parseExpiry(values.expires);
      if (listKeys(target).some((k) => k.name === values.name && k.revokedAt === undefined))
        fail(`a key named "${values.name}" exists; revoke it or pick another name`);
      const key = generateApiKey();
      const record = newKeyRecord(await sha256Hex(key), values.name, scopes, expiresAt);
      putKey(record, target);
      console.error(`created key ${record.id} "${record.name}" with ${scopes.join(', ')}${expiresAt ? `, expiring ${iso(expiresAt)} UTC` : ''}.`);
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
        keys.map((k) => ({ id: k.id, name: k.name, scopes: k.scopes.join(' '), created: iso(k.createdAt), expires: iso(k.expiresAt), status: status(k) })),
      );
      return;
    }
    case 'revoke': {
      if (!values.id === !values.name) fail('revoke needs --id or --name');
      const matches = listKeys(target).filter((k) => k.revokedAt === undefined && (k.id === values.id || k.name === values.name));
      if (matches.length !== 1) fail(matches.length === 0 ? 'no active key matches' : `${matches.length} active keys match: revoke by --id`);
      const record = getKey(matches[0]!.hash, target);
      putKey({ ...record, revokedAt: Date.now() }, target);
      console.error(`revoked key ${record.id} "${record.name}"`);
      return;
    }
    default:
      fail(positionals[0] === undefined ? 'which command?' : `unknown command "${positionals[0]}"`);
  }
}

if (import.meta.main) {
  main().catch((error: unknown) => fail(error instanceof Error ? error.message : String(error)));
}
