/**
 * Where a trial keeps what its commands share. Two files, so that an agent can be given the one it
 * needs and never the other:
 *   - the server file (`server.json` in the trial directory): this MCP server's URL and key, and the
 *     call log `call.ts` appends to — what the agent's only tool reads;
 *   - the n8n file (`n8n.json` beside it, or TRIAL_N8N_FILE): n8n's URL and public-API key and the
 *     workflows the harness made, which only `check.ts` reads. The agent must not know them.
 * The trial directory is `.tmp/trial` of the checkout (git-ignored), or TRIAL_DIR.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The checkout these scripts belong to, wherever they are started from. */
export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

export interface ServerState {
  /** The MCP endpoint, e.g. http://127.0.0.1:43211/mcp. */
  mcpUrl: string;
  /** An API key of this server with every scope. */
  apiKey: string;
  /** The JSONL log of tool calls. */
  callLog: string;
  startedAt: string;
}

export interface N8nState {
  url: string;
  apiKey: string;
  /** Workflows the harness created before the trial, by task id (the in-place change task's). */
  seeded: Record<string, string>;
}

export function trialDir(): string {
  return resolve(ROOT, process.env.TRIAL_DIR ?? '.tmp/trial');
}

export function serverFile(): string {
  return join(trialDir(), 'server.json');
}

/** The JSONL log of the agent's requests (call.ts appends, check.ts counts). */
export function callLogFile(): string {
  return join(trialDir(), 'calls.jsonl');
}

/** serve.ts's process id: `kill $(cat <trial dir>/serve.pid)` stops the trial (npx passes no signal on). */
export function pidFile(): string {
  return join(trialDir(), 'serve.pid');
}

export function n8nFile(): string {
  return process.env.TRIAL_N8N_FILE ? resolve(ROOT, process.env.TRIAL_N8N_FILE) : join(trialDir(), 'n8n.json');
}

export function writeState(file: string, state: ServerState | N8nState): void {
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, JSON.stringify(state, null, 2) + '\n', { mode: 0o600 });
}

export function readState<T extends ServerState | N8nState>(file: string): T {
  if (!existsSync(file)) throw new Error(`${file} does not exist: start the trial server first (npx tsx scripts/trial/serve.ts)`);
  return JSON.parse(readFileSync(file, 'utf8')) as T;
}
