/**
 * A real n8n, on loopback, with throwaway data: for checking workflows (test/fixtures/workflows) against
 * the n8n that really saves and runs them rather than against the fake of the tests.
 *
 * Installs the pinned n8n into `.n8n/` (git-ignored) the first time (about 4 minutes, 1.8 GB; n8n needs
 * Node 22, taken from the `node` package of this project), starts it with a fresh user folder (SQLite),
 * sets up the owner account, logs in and creates a public-API key.
 *
 *   npx tsx scripts/n8n/realN8n.ts     # prints the URL and the key; Ctrl-C stops n8n
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort } from '../lib/wranglerDev.ts';

export const N8N_VERSION = '1.123.81';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
/** Where n8n is installed (git-ignored). */
export const N8N_DIR = join(ROOT, '.n8n');
const N8N_BIN = join(N8N_DIR, 'node_modules', 'n8n', 'bin', 'n8n');
/** Node 22 (the `node` package); the system node may be older than n8n accepts. */
const NODE_BIN_DIR = join(ROOT, 'node_modules', 'node', 'bin');

const OWNER = { email: 'owner@example.com', firstName: 'Test', lastName: 'Owner', password: 'Owner-password-1' };
/** Sent with every internal REST call: n8n binds its auth cookie to the browser that logged in. */
const BROWSER_ID = 'real-n8n-script';

export interface RealN8n {
  /** e.g. http://127.0.0.1:43567 (the public API is under /api/v1, webhooks under /webhook). */
  url: string;
  /** A public-API key of the owner (header X-N8N-API-KEY). */
  apiKey: string;
  /** What n8n printed so far. */
  logs(): string;
  stop(): Promise<void>;
}

/** PATH with Node 22 first, for npm and n8n. */
function nodeEnv(): NodeJS.ProcessEnv {
  return { ...process.env, PATH: `${NODE_BIN_DIR}:${process.env.PATH ?? ''}` };
}

/** Installs n8n@N8N_VERSION into `.n8n/` unless it is there already. */
export function installN8n(): void {
  const pkg = join(N8N_DIR, 'node_modules', 'n8n', 'package.json');
  if (existsSync(pkg) && existsSync(N8N_BIN)) {
    const { version } = JSON.parse(readFileSync(pkg, 'utf8')) as { version: string };
    if (version === N8N_VERSION) return;
  }
  console.error(`installing n8n@${N8N_VERSION} into ${N8N_DIR} (npm install, a few minutes, about 1.8 GB)…`);
  mkdirSync(N8N_DIR, { recursive: true });
  // n8n-nodes-base wants xlsx from cdn.sheetjs.com, which is not reachable here: the registry's last xlsx.
  const manifest = { name: 'n8n-cache', private: true, overrides: { xlsx: '0.18.5' } };
  writeFileSync(join(N8N_DIR, 'package.json'), JSON.stringify(manifest, null, 2) + '\n');
  const npm = spawnSync('npm', ['install', '--no-audit', '--no-fund', '--loglevel=error', `n8n@${N8N_VERSION}`], {
    cwd: N8N_DIR,
    env: nodeEnv(),
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  if (npm.status !== 0) throw new Error(`npm install n8n@${N8N_VERSION} failed (exit ${npm.status})`);
}

/**
 * Installs n8n if needed, starts it on a free loopback port and returns its URL and a public-API key.
 * `env` adds to n8n's environment (N8N_ENV_FEAT_WORKFLOWS_DRAFT_PUBLISH_ENABLED: 'true' gives 1.123.81
 * the draft and publish of n8n 2.x).
 */
export async function startRealN8n(env: Record<string, string> = {}): Promise<RealN8n> {
  installN8n();
  const port = await freePort();
  const brokerPort = await freePort();
  const userFolder = mkdtempSync(join(tmpdir(), 'n8n-user-'));
  const url = `http://127.0.0.1:${port}`;
  const child = spawn(join(NODE_BIN_DIR, 'node'), [N8N_BIN, 'start'], {
    cwd: userFolder,
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
    env: {
      ...nodeEnv(),
      N8N_USER_FOLDER: userFolder,
      N8N_HOST: '127.0.0.1',
      N8N_LISTEN_ADDRESS: '127.0.0.1',
      N8N_PORT: String(port),
      N8N_PROTOCOL: 'http',
      WEBHOOK_URL: `${url}/`,
      N8N_EDITOR_BASE_URL: `${url}/`,
      DB_TYPE: 'sqlite',
      N8N_DIAGNOSTICS_ENABLED: 'false',
      N8N_PERSONALIZATION_ENABLED: 'false',
      N8N_VERSION_NOTIFICATIONS_ENABLED: 'false',
      N8N_HIRING_BANNER_ENABLED: 'false',
      N8N_TEMPLATES_ENABLED: 'false',
      N8N_SECURE_COOKIE: 'false',
      N8N_ENFORCE_SETTINGS_FILE_PERMISSIONS: 'false',
      N8N_PUBLIC_API_DISABLED: 'false',
      // JavaScript in Code nodes runs in a task runner: the internal one, a child process n8n starts and
      // owns, talking to n8n's broker on a loopback port of its own (default 5679, maybe taken).
      // Python ('python', Pyodide) runs in n8n itself: the native Python runner needs an external runner.
      N8N_RUNNERS_ENABLED: 'true',
      N8N_RUNNERS_MODE: 'internal',
      N8N_RUNNERS_BROKER_LISTEN_ADDRESS: '127.0.0.1',
      N8N_RUNNERS_BROKER_PORT: String(brokerPort),
      // No telemetry, no remote node/template lookups: only loopback is used.
      N8N_COMMUNITY_PACKAGES_ENABLED: 'false',
      EXTERNAL_FRONTEND_HOOKS_URLS: '',
      N8N_LOG_LEVEL: 'warn',
      NODE_ENV: 'production',
      ...env,
    },
  });
  let output = '';
  child.stdout.on('data', (chunk) => (output += chunk));
  child.stderr.on('data', (chunk) => (output += chunk));

  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      const exited = new Promise((done) => child.once('exit', done));
      signal(child.pid!, 'SIGTERM');
      const timer = setTimeout(() => signal(child.pid!, 'SIGKILL'), 15_000);
      await exited;
      clearTimeout(timer);
    }
    rmSync(userFolder, { recursive: true, force: true });
  };

  try {
    await waitForHealth(url, () => (child.exitCode === null ? undefined : `n8n exited (${child.exitCode}):\n${output}`));
    const apiKey = await createApiKey(url);
    return { url, apiKey, logs: () => output, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}

/** SIGNAL to the process group of pid (n8n and its task runner), if still there. */
function signal(pid: number, name: NodeJS.Signals): void {
  try {
    process.kill(-pid, name);
  } catch {
    // already gone
  }
}

/** Waits until /healthz answers and the REST API is up (it is after /healthz, once the database is migrated). */
async function waitForHealth(url: string, exited: () => string | undefined): Promise<void> {
  const deadline = Date.now() + 180_000;
  while (Date.now() < deadline) {
    const failure = exited();
    if (failure) throw new Error(failure);
    try {
      if ((await fetch(`${url}/healthz/readiness`)).ok && (await fetch(`${url}/rest/settings`)).ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 500));
  }
  throw new Error('n8n did not become ready in 180 s');
}

/** Calls n8n's internal REST API (what the editor uses) with the session cookie. */
async function rest(url: string, method: string, path: string, body: unknown, cookie = ''): Promise<Response> {
  const response = await fetch(`${url}/rest${path}`, {
    method,
    headers: { 'content-type': 'application/json', 'browser-id': BROWSER_ID, ...(cookie ? { cookie } : {}) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (!response.ok) throw new Error(`${method} /rest${path}: ${response.status} ${await response.text()}`);
  return response;
}

/**
 * Owner setup, login, then an API key with every scope the owner may grant: POST /rest/api-keys
 * ({label, scopes, expiresAt}, CreateApiKeyRequestDto of @n8n/api-types), which answers the raw key once
 * (`data.rawApiKey`); the scopes on offer come from GET /rest/api-keys/scopes.
 */
async function createApiKey(url: string): Promise<string> {
  await rest(url, 'POST', '/owner/setup', OWNER);
  const login = await rest(url, 'POST', '/login', { emailOrLdapLoginId: OWNER.email, password: OWNER.password });
  const cookie = (login.headers.getSetCookie().find((c) => c.startsWith('n8n-auth=')) ?? '').split(';')[0]!;
  if (!cookie) throw new Error('n8n login set no n8n-auth cookie');
  const scopes = ((await (await rest(url, 'GET', '/api-keys/scopes', undefined, cookie)).json()) as { data: string[] }).data;
  const created = await rest(url, 'POST', '/api-keys', { label: 'real-n8n', scopes, expiresAt: null }, cookie);
  const { data } = (await created.json()) as { data: { rawApiKey: string } };
  return data.rawApiKey;
}

// CLI: start, print, wait for Ctrl-C.
if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const started = Date.now();
  const n8n = await startRealN8n();
  console.log(`n8n ${N8N_VERSION} ready in ${Math.round((Date.now() - started) / 1000)} s`);
  console.log(`URL:     ${n8n.url}`);
  console.log(`API key: ${n8n.apiKey}`);
  console.log(`login:   ${OWNER.email} / ${OWNER.password}`);
  console.log('Ctrl-C stops n8n and deletes its data.');
  let stopping = false;
  const shutdown = () => {
    if (stopping) return;
    stopping = true;
    void n8n.stop().then(() => process.exit(0));
  };
  process.on('SIGINT', shutdown);
  process.on('SIGTERM', shutdown);
}
