import { spawn } from 'node:child_process';
import { appendFileSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { devKeyFile } from '../keys/devKeyFile.ts';

export interface DevServer {
  url: string;
  /** The local development key `npm run dev` made (this project only). */
  apiKey?: string;
  /** The local state (`--persist-to`): KV, Durable Objects, the dev key file. */
  stateDir: string;
  /** workerd's inspector (Chrome DevTools Protocol), for CPU profiles (bench/profile.ts). */
  inspectorPort?: number;
  /**
   * What wrangler printed since the server became ready (the startup banner, which shows the key, left
   * out); also appended to `<stateDir>/wrangler.log` as it comes, for other processes to read.
   */
  logs(): string;
  stop(): Promise<void>;
}

export interface DevServerOptions {
  /** Extra `--var NAME:value` pairs. */
  vars?: Record<string, string>;
  /** Another wrangler config (benchmark references). */
  config?: string;
  /**
   * Another main module for wrangler.toml's configuration: `TEST_ENTRY` serves the conformance pack
   * and the fault hooks on top of the production Worker (conformance, load). Unset: src/worker.ts.
   */
  entry?: string;
  /** Extra environment for the dev script (e.g. CATALOGS=n8n). */
  env?: Record<string, string>;
  /**
   * REQUEST_LIMITER's budget per principal and minute, in place of wrangler.toml's: benchmarks keep
   * the limiter on (every request still counted) with room for their request rates.
   */
  requestLimit?: number;
  /** wrangler's own log level (`warn` by default); the Worker's console.log lines show from `log` on. */
  logLevel?: 'warn' | 'log';
  port?: number;
  /** Another checkout to serve (its own wrangler.toml and `npm run dev`), e.g. another branch's copy (bench/workspaces.ts). */
  cwd?: string;
}

/** The test entry (test/entry/worker.ts): the production Worker with the test-only pack and fault hooks. */
export const TEST_ENTRY = 'test/entry/worker.ts';

/** A free TCP port on loopback. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

/**
 * Starts `npm run dev` (wrangler dev) on loopback with throwaway local state and resolves once it is ready.
 * Used by the end-to-end tests, the conformance run and the benchmarks.
 */
export async function startWranglerDev(options: DevServerOptions = {}): Promise<DevServer> {
  // A picked port can be taken before wrangler binds it (see isUp): then try another one.
  for (let attempt = 1; ; attempt++) {
    try {
      return await startOnce(options.port ?? (await freePort()), options);
    } catch (error) {
      if (options.port !== undefined || attempt === 3 || !String(error).includes('wrangler dev exited')) throw error;
    }
  }
}

async function startOnce(port: number, options: DevServerOptions): Promise<DevServer> {
  const state = mkdtempSync(join(tmpdir(), 'wrangler-state-'));
  const args = ['--ip', '127.0.0.1', '--port', String(port), '--persist-to', state, '--log-level', options.logLevel ?? 'warn'];
  const inspectorPort = await freePort();
  args.push('--inspector-port', String(inspectorPort));
  if (options.config) args.push('--config', options.config);
  if (options.entry) args.push(options.entry);
  const limitedConfig = options.requestLimit === undefined ? undefined : withRequestLimit(options.requestLimit, options.cwd);
  if (limitedConfig) args.push('--config', limitedConfig);
  for (const [name, value] of Object.entries(options.vars ?? {})) args.push('--var', `${name}:${value}`);
  // This project goes through `npm run dev` (catalog loaded, loopback hosts), so every caller serves what
  // a developer's `npm run dev` serves; other configs (benchmark references) get plain `wrangler dev`.
  const command = options.config ? ['npx', 'wrangler', 'dev'] : ['npm', 'run', '--silent', 'dev', '--'];
  const child = spawn(command[0]!, [...command.slice(1), ...args], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, WRANGLER_SEND_METRICS: 'false', CI: 'true', ...options.env },
    detached: true,
    cwd: options.cwd,
  });
  let output = '';
  child.stdout.on('data', (chunk) => (output += chunk));
  child.stderr.on('data', (chunk) => (output += chunk));
  const url = `http://127.0.0.1:${port}`;

  const stop = async () => {
    if (child.exitCode === null) {
      try {
        process.kill(-child.pid!, 'SIGTERM');
      } catch {
        // already gone
      }
      await new Promise((resolve) => {
        const timer = setTimeout(() => {
          try {
            process.kill(-child.pid!, 'SIGKILL');
          } catch {
            // already gone
          }
          resolve(undefined);
        }, 5000);
        child.once('exit', () => {
          clearTimeout(timer);
          resolve(undefined);
        });
      });
    }
    rmSync(state, { recursive: true, force: true });
    if (limitedConfig) rmSync(join(options.cwd ?? '.', limitedConfig), { force: true });
  };

  const deadline = Date.now() + 90_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) {
      await stop();
      throw new Error(`wrangler dev exited (${child.exitCode}):\n${output}`);
    }
    try {
      if (await isUp(url, !options.config)) {
        const ready = output.length;
        const apiKey = options.config ? undefined : (JSON.parse(readFileSync(devKeyFile(state), 'utf8')) as { key: string }).key;
        const log = join(state, 'wrangler.log');
        appendFileSync(log, '');
        // Until stop() removes the state directory: wrangler may still print while it shuts down.
        for (const stream of [child.stdout, child.stderr]) stream.on('data', (chunk) => existsSync(state) && appendFileSync(log, chunk));
        return { url, apiKey, stateDir: state, inspectorPort, logs: () => output.slice(ready), stop };
      }
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  await stop();
  throw new Error(`wrangler dev did not become ready in 90 s:\n${output}`);
}

/**
 * A copy of wrangler.toml beside it (its relative paths hold) with another REQUEST_LIMITER limit;
 * removed when the server stops.
 */
function withRequestLimit(limit: number, cwd = '.'): string {
  const config = readFileSync(join(cwd, 'wrangler.toml'), 'utf8');
  const changed = config.replace(/(name = "REQUEST_LIMITER"\n[^\n]*\nsimple = \{ limit = )\d+/, `$1${limit}`);
  if (changed === config) throw new Error('wrangler.toml: REQUEST_LIMITER limit not found');
  const path = `wrangler.limit-${process.pid}-${Date.now()}.toml`;
  writeFileSync(join(cwd, path), changed);
  return path;
}

/**
 * Whether the Worker answers on `url`. The port was free when picked, but miniflare's dev-registry
 * proxy (403 "Forbidden" to anyone else) may grab it first; then wrangler fails to bind and exits, and
 * a mere HTTP answer would be mistaken for the Worker. This project answers /health with its name;
 * the benchmark references have no /health, so any answer but that proxy's counts.
 */
async function isUp(url: string, thisProject: boolean): Promise<boolean> {
  const response = await fetch(`${url}/health`);
  const text = await response.text();
  if (thisProject) return response.ok && text.includes('"name"');
  return !(response.status === 403 && text === 'Forbidden');
}
