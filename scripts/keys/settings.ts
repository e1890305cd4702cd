/**
 * What `npm run keys` needs besides the namespace: the CONNECTION_KEYS ring that seals connections' n8n
 * keys, and the n8n URL policy, from the environment or, with --local, from `.dev.vars` (what `npm run dev`
 * gives the Worker). Never prints a key.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import type { UrlPolicy } from '../../src/workspaces/connectionUrl.ts';
import { keyRing, type KeyRing } from '../../src/workspaces/secretBox.ts';
import { die } from './usage.ts';

/** Where a command acts: wrangler's target flags, and for --local the .dev.vars file it reads. */
export interface Where {
  target: string[];
  local: boolean;
  devVars: string;
}

/** The .dev.vars `npm run dev` reads: the repository's own. */
export const DEV_VARS = resolve(import.meta.dirname, '../../.dev.vars');

/** The (uncommented) line that sets `name` in a dotenv file: `NAME=value`, `export NAME=value`. */
const lineOf = (name: string) => new RegExp(`^[ \\t]*(?:export[ \\t]+)?${name}[ \\t]*=(.*)$`, 'm');

function unquote(raw: string): string {
  const text = raw.trim();
  const quoted = /^(["'])(.*)\1$/.exec(text);
  return quoted ? quoted[2]! : text.replace(/\s+#.*$/, '');
}

/** A variable of a .dev.vars file, or undefined when the file or its line is missing. */
export function devVar(file: string, name: string): string | undefined {
  if (!existsSync(file)) return undefined;
  const line = lineOf(name).exec(readFileSync(file, 'utf8'));
  return line ? unquote(line[1]!) : undefined;
}

/** Puts `entry` in front of the variable's comma-separated value (the line is added when there is none). */
export function prependDevVar(file: string, name: string, entry: string): void {
  const text = existsSync(file) ? readFileSync(file, 'utf8') : '';
  const line = lineOf(name).exec(text);
  const old = line ? unquote(line[1]!) : '';
  const next = `${name}=${old ? `${entry},${old}` : entry}`;
  const updated = line
    ? text.slice(0, line.index) + next + text.slice(line.index + line[0].length)
    : `${text}${text === '' || text.endsWith('\n') ? '' : '\n'}${next}\n`;
  writeFileSync(file, updated, { mode: 0o600 });
}

/** An environment variable, or for --local the .dev.vars line of that name. */
const setting = (where: Where, name: string): string | undefined => process.env[name] || (where.local ? devVar(where.devVars, name) : undefined);

/** The CONNECTION_KEYS ring, or a failure naming where to get one. */
export async function ringFor(where: Where): Promise<KeyRing> {
  const text = setting(where, 'CONNECTION_KEYS');
  if (!text?.trim())
    die(
      where.local
        ? `CONNECTION_KEYS is neither in the environment nor in ${where.devVars}: npm run keys -- secret --local${where.devVars === DEV_VARS ? '' : ` --dev-vars ${where.devVars}`} puts one there`
        : 'CONNECTION_KEYS is not in the environment: export the value the deployment has (npx wrangler secret put CONNECTION_KEYS; a first one from npm run keys -- secret)',
    );
  return keyRing(text);
}

/** The URL policy of the server the connections are for: on loopback under --local; private networks as ALLOW_PRIVATE_N8N says. */
export const urlPolicyFor = (where: Where): UrlPolicy => ({
  serverOnLoopback: where.local,
  allowPrivateNetworks: setting(where, 'ALLOW_PRIVATE_N8N') === 'true',
});

/** A new ring entry, `k<yyyymmdd>:<32 random bytes, base64>`, its id not one of `existing`'s (`-2`, `-3`… on the same day). */
export function newRingEntry(existing: string | undefined, now = new Date()): { id: string; entry: string } {
  const taken = new Set((existing ?? '').split(',').map((entry) => entry.trim().split(':')[0]));
  const day = `k${now.toISOString().slice(0, 10).replaceAll('-', '')}`;
  let id = day;
  for (let n = 2; taken.has(id); n++) id = `${day}-${n}`;
  return { id, entry: `${id}:${Buffer.from(crypto.getRandomValues(new Uint8Array(32))).toString('base64')}` };
}
