import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/**
 * `npm run keys` for workspaces (issue 41), run as it is run: the CLI as a child process, wrangler's
 * local KV in a temporary directory, and an HTTP server on loopback that answers as n8n's public API and
 * editor page do. Each command starts tsx and wrangler (a second or two each; several on a busy machine),
 * so one flow in two steps covers it all, with room in its time-outs.
 */
const TIMEOUT = 300_000;
const root = resolve(import.meta.dirname, '../..');
const dir = mkdtempSync(join(tmpdir(), 'keys-workspaces-'));
const local = ['--local', '--persist-to', join(dir, 'state')];
const devVars = join(dir, '.dev.vars');

/** Random, so that finding one in an output can only mean it was printed. */
const N8N_KEY = `n8n_api_${randomBytes(24).toString('hex')}`;
const WRONG_KEY = `n8n_wrong_${randomBytes(24).toString('hex')}`;
const FIRST_SECRET = randomBytes(32).toString('base64');
const CONNECTION_KEYS = `k1:${FIRST_SECRET}`;
const RELEASE_PAGE = `<!doctype html><html><head><meta name="n8n:config:sentry" content="${btoa(JSON.stringify({ release: 'n8n@1.123.81' }))}"></head><body></body></html>`;

/** n8n as the connection test meets it: the workflows list takes N8N_KEY only, the editor page names the release. */
function fakeN8n(): Promise<Server> {
  const server = createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://127.0.0.1');
    if (request.method === 'GET' && url.pathname === '/api/v1/workflows' && url.searchParams.get('limit') === '1') {
      const accepted = request.headers['x-n8n-api-key'] === N8N_KEY;
      response.writeHead(accepted ? 200 : 401, { 'content-type': 'application/json' });
      response.end(accepted ? '{"data":[]}' : '{"message":"unauthorized"}');
    } else if (request.method === 'GET' && url.pathname === '/') {
      response.writeHead(200, { 'content-type': 'text/html' });
      response.end(RELEASE_PAGE);
    } else {
      response.writeHead(404).end();
    }
  });
  return new Promise((done) => server.listen(0, '127.0.0.1', () => done(server)));
}

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Everything every command printed, searched for secrets at the end. */
const printed: string[] = [];

/** The environment without the variables the CLI reads, so the developer's own do not leak in. */
const { CONNECTION_KEYS: _ck, N8N_CONNECTION_KEY: _nk, ALLOW_PRIVATE_N8N: _ap, ...cleanEnv } = process.env;

/** The CLI as `npm run keys` runs it (spawned, not spawnSync: the fake n8n answers from this process). */
function keys(args: string[], options: { stdin?: string; env?: Record<string, string> } = {}): Promise<Run> {
  return new Promise((done, failed) => {
    const child = spawn('npx', ['tsx', 'scripts/keys/cli.ts', ...args], {
      cwd: root,
      env: { ...cleanEnv, WRANGLER_SEND_METRICS: 'false', ...options.env },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', failed);
    child.on('close', (code) => {
      printed.push(stdout, stderr);
      done({ code, stdout, stderr });
    });
    child.stdin.end(options.stdin ?? '');
  });
}

/** With the first ring in the environment, as an operator exports it. */
const withRing = { CONNECTION_KEYS };

let n8n: Server;
let n8nUrl: string;

beforeAll(async () => {
  n8n = await fakeN8n();
  n8nUrl = `http://127.0.0.1:${(n8n.address() as AddressInfo).port}`;
});

afterAll(() => {
  n8n?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('npm run keys: workspaces and their n8n connections', () => {
  let workspace = '';

  it(
    'creates a workspace and its key, adds a tested connection (key from stdin), refuses a wrong key, renames it and the default follows',
    { timeout: TIMEOUT },
    async () => {
      const created = await keys(['workspace', 'create', '--name', 'team', ...local]);
      expect(created.code, created.stderr).toBe(0);
      workspace = created.stdout.trim();
      expect(workspace).toMatch(/^[0-9a-f]{12}$/);

      const key = await keys(['create', '--name', 'team key', '--scopes', 'nodes:read,workflows:read', '--workspace', workspace, ...local]);
      expect(key.code, key.stderr).toBe(0);
      expect(key.stdout.trim()).toMatch(/^n2f_[0-9A-Za-z]{40}$/);

      const added = await keys(['connection', 'add', '--workspace', workspace, '--name', 'prod', '--url', n8nUrl, ...local], {
        stdin: `${N8N_KEY}\n`,
        env: withRing,
      });
      expect(added.code, added.stderr).toBe(0);
      expect(added.stdout).toContain('1.123.81');
      expect(added.stdout).toContain(n8nUrl);

      // A key n8n refuses: said with the fix, and nothing written (the list below has no "staging").
      const wrong = await keys(['connection', 'add', '--workspace', workspace, '--name', 'staging', '--url', n8nUrl, ...local], {
        env: { ...withRing, N8N_CONNECTION_KEY: WRONG_KEY },
      });
      expect(wrong.code).toBe(1);
      expect(wrong.stderr).toMatch(/not saved \(nothing was written\): n8n at 127\.0\.0\.1:\d+ refused the API key: create one in n8n \(Settings → n8n API\)/);

      const defaulted = await keys(['workspace', 'default', '--id', workspace, '--connection', 'prod', ...local]);
      expect(defaulted.code, defaulted.stderr).toBe(0);
      const renamed = await keys(['connection', 'rename', '--workspace', workspace, '--name', 'prod', '--to', 'main', ...local]);
      expect(renamed.code, renamed.stderr).toBe(0);
      expect(renamed.stderr).toContain('the workspace default follows it');

      const listed = await keys(['connection', 'list', '--workspace', workspace, ...local]);
      expect(listed.code, listed.stderr).toBe(0);
      const [row, ...others] = listed.stdout.split('\n').filter((line) => line.includes("'main'") || line.includes("'prod'") || line.includes("'staging'"));
      expect(others).toEqual([]);
      expect(row).toMatch(new RegExp(`'main'.*'${n8nUrl}'.*'1\\.123\\.81'.*'yes'`));
      expect(listed.stdout).not.toMatch(/sealed|v1\./);
    },
  );

  it(
    'lists the workspace; rotates CONNECTION_KEYS in .dev.vars, reseals, tests; removing the workspace revokes its key and deletes its connections',
    { timeout: TIMEOUT },
    async () => {
      expect(workspace).not.toBe('');
      const workspaces = await keys(['workspace', 'list', ...local]);
      expect(workspaces.code, workspaces.stderr).toBe(0);
      expect(workspaces.stdout).toMatch(new RegExp(`'${workspace}'.*'team'.*'main'.*"the deployment's".*│ 1 +│ 1 +│`));

      writeFileSync(devVars, `# npm run dev's variables\nN8N_API_URL=https://n8n.example.com\nCONNECTION_KEYS=${CONNECTION_KEYS}\n`);
      const secret = await keys(['secret', '--local', '--dev-vars', devVars]);
      expect(secret.code, secret.stderr).toBe(0);
      expect(secret.stdout).toBe('');
      const [, ring] = /^CONNECTION_KEYS=(.*)$/m.exec(readFileSync(devVars, 'utf8'))!;
      const [newest, oldest, ...rest] = ring!.split(',');
      expect(rest).toEqual([]);
      expect(oldest).toBe(CONNECTION_KEYS);
      expect(newest).toMatch(/^k\d{8}:[A-Za-z0-9+/]{43}=$/);
      expect(readFileSync(devVars, 'utf8')).toContain('N8N_API_URL=https://n8n.example.com\n');
      expect(secret.stderr).toContain('connection reseal --local');

      // From .dev.vars now (no CONNECTION_KEYS in the environment).
      const resealed = await keys(['connection', 'reseal', ...local, '--dev-vars', devVars]);
      expect(resealed.code, resealed.stderr).toBe(0);
      expect(resealed.stdout).toContain(`resealed 1 of 1 connection(s) under the key "${newest!.split(':')[0]}"`);

      // The old entry dropped: the renamed connection still opens, under the new key alone, and passes its test.
      writeFileSync(devVars, `CONNECTION_KEYS=${newest}\n`);
      const tested = await keys(['connection', 'test', '--workspace', workspace, '--name', 'main', ...local, '--dev-vars', devVars]);
      expect(tested.code, tested.stderr).toBe(0);
      expect(tested.stdout).toContain(`ok: n8n 1.123.81 at ${n8nUrl}`);

      const removed = await keys(['workspace', 'remove', '--id', workspace, ...local]);
      expect(removed.code, removed.stderr).toBe(0);
      expect(removed.stderr).toMatch(/revoked 1 key\(s\): \w+ "team key".*deleted 1 connection\(s\): main/);

      const listed = await keys(['list', ...local]);
      expect(listed.stdout).toMatch(new RegExp(`'team key'.*'${workspace}'.*'revoked'`));

      // Nothing of the workspace is left in the namespace but its revoked key.
      const left = await new Promise<string>((done) => {
        const child = spawn('npx', ['wrangler', 'kv', 'key', 'list', '--binding', 'API_KEYS', ...local], { cwd: root, env: cleanEnv });
        let out = '';
        child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
        child.on('close', () => done(out));
      });
      expect((JSON.parse(left) as { name: string }[]).map((k) => k.name.replace(/[0-9a-f]{64}$/, 'HASH'))).toEqual(['key:HASH']);

      // No command printed the n8n key (right or wrong) or a CONNECTION_KEYS key.
      const all = printed.join('\n');
      for (const secretText of [N8N_KEY, WRONG_KEY, FIRST_SECRET, newest!.split(':')[1]!]) expect(all).not.toContain(secretText);
    },
  );
});
