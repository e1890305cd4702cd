/**
 * What workspaces (issue 41) cost an n8n tool call: the same call (`list_workflows`, limit 1, a read
 * against a stand-in n8n) as MCP 2026-07-28 requests, before and after, in one run, one server at a time
 * so none competes for the cores:
 *   before               the code before issue 41 (`main`, a `git archive` copy served from a temp dir),
 *                        N8N_API_URL / N8N_API_KEY pointing at the stand-in
 *   after                this worktree (its files as they are when the run starts, copied to a temp dir;
 *                        --after-ref REF: a commit's), the same variables, no workspace: what deployments
 *                        that change nothing pay
 *   ws-cached            the same code with CONNECTION_KEYS, a key of a workspace with one connection and
 *                        no default (as `npm run keys -- connection add` leaves it); API_KEY_CACHE_SECONDS 30
 *   ws-cached-default    the same server, a key of a workspace whose default connection is set
 *   ws-uncached          API_KEY_CACHE_SECONDS "0": every call reads the key record, the workspace and the
 *                        connection from KV and decrypts its n8n key (the reference: what the cache saves)
 *   ws-uncached-default  the same server, the workspace with its default set
 * The workspaces, their keys and connections are made by the Worker's own code (src/workspaces/,
 * src/auth/apiKeys.ts, loaded through tsx: src/ imports without extensions, which plain node does not
 * resolve) into an in-memory namespace, then written to wrangler dev's local KV in one `wrangler kv bulk put`.
 * The stand-in n8n runs in a process of its own (this file with --stand-in KEY): its CPU is taken out of
 * the server's and shown apart. Every answer is checked (a list of workflows, no error).
 *
 * Per case and concurrency (1 and 8 request streams): a warm-up, then --calls calls in --batches batches;
 * CPU per call and calls/s are the medians of the batches (of all passes, with --rounds), latency
 * percentiles are over all calls. Rate limits off (RATE_LIMITS=off) in every server, so none refuses.
 *
 *   npm run bench:workspaces                 1,000 calls per case and concurrency, after 150 warm-up calls
 *   npm run bench:workspaces -- --quick      300 calls after 50
 *   flags: --calls N, --warmup N, --batches N, --rounds N (passes over the servers, medians reported),
 *          --only before,after,ws,ws-uncached (servers), --ref main (the "before" code), --after-ref REF
 * Prints a table and writes bench/results/workspaces.json.
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { copyFileSync, existsSync, lstatSync, mkdirSync, mkdtempSync, readlinkSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { cpus, loadavg, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { wrangler } from '../scripts/lib/wrangler.ts';
import { startWranglerDev, type DevServer } from '../scripts/lib/wranglerDev.ts';
import { clientCpuMs, processCpuMs, serverCpuMs } from './lib/cpu.ts';
import { openSession, type Session } from './lib/mcpClient.ts';
import { percentile, round } from './lib/stats.ts';

const { values: flags } = parseArgs({
  options: {
    quick: { type: 'boolean', default: false },
    calls: { type: 'string' },
    warmup: { type: 'string' },
    batches: { type: 'string' },
    rounds: { type: 'string' },
    only: { type: 'string' },
    ref: { type: 'string', default: 'main' },
    'after-ref': { type: 'string' },
    'stand-in': { type: 'string' },
  },
});

// ---------------------------------------------------------------------------------------------------
// The stand-in n8n: GET /api/v1/workflows with the right X-N8N-API-KEY answers an empty page; GET / the
// editor page whose Sentry meta tag carries the release (connectionTest.ts reads it). /__stats counts
// what it was asked, so the run can say how many n8n requests a call made.
// ---------------------------------------------------------------------------------------------------

const RELEASE = '1.123.81';

function serveStandIn(apiKey: string): void {
  const counts: Record<string, number> = {};
  const sentry = Buffer.from(JSON.stringify({ dsn: '', environment: 'production', release: `n8n@${RELEASE}` })).toString('base64');
  const editorPage = `<!DOCTYPE html>\n<html lang="en">\n<head>\n<meta charset="utf-8" />\n<meta name="n8n:config:sentry" content="${sentry}">\n<title>n8n.io - Workflow Automation</title>\n</head>\n<body></body>\n</html>\n`;
  const emptyPage = JSON.stringify({ data: [], nextCursor: null });
  const server = createServer((request, response) => {
    request.resume();
    const { pathname } = new URL(request.url ?? '/', 'http://stand-in');
    if (pathname === '/__stats') return void response.end(JSON.stringify(counts));
    const what = `${request.method} ${pathname}`;
    counts[what] = (counts[what] ?? 0) + 1;
    const send = (status: number, type: string, body: string) => response.writeHead(status, { 'content-type': type }).end(body);
    if (request.method === 'GET' && pathname === '/') return send(200, 'text/html; charset=utf-8', editorPage);
    if (request.method === 'GET' && pathname === '/api/v1/workflows') {
      if (request.headers['x-n8n-api-key'] !== apiKey) return send(401, 'application/json', '{"message":"unauthorized"}');
      return send(200, 'application/json; charset=utf-8', emptyPage);
    }
    send(404, 'application/json', '{"message":"not found"}');
  });
  server.listen(0, '127.0.0.1', () => console.log(`listening ${(server.address() as { port: number }).port}`));
  // Gone with the benchmark: its stdin closes when the parent exits, however it exits.
  process.stdin.on('end', () => process.exit(0));
  process.stdin.resume();
}

interface StandIn {
  url: string;
  apiKey: string;
  pid: number;
  /** Requests answered so far, by `METHOD /path`. */
  stats(): Promise<Record<string, number>>;
  stop(): void;
}

async function startStandIn(): Promise<StandIn> {
  const apiKey = `n8n_api_bench_${randomBytes(12).toString('hex')}`;
  const child: ChildProcess = spawn(process.execPath, [import.meta.filename, '--stand-in', apiKey], { stdio: ['pipe', 'pipe', 'inherit'] });
  const port = await new Promise<number>((resolve, reject) => {
    child.stdout!.on('data', (chunk: Buffer) => {
      const match = /listening (\d+)/.exec(chunk.toString());
      if (match) resolve(Number(match[1]));
    });
    child.once('exit', (code) => reject(new Error(`the stand-in n8n exited (${code})`)));
  });
  const url = `http://127.0.0.1:${port}`;
  return {
    url,
    apiKey,
    pid: child.pid!,
    stats: async () => (await (await fetch(`${url}/__stats`)).json()) as Record<string, number>,
    stop: () => void child.kill(),
  };
}

// ---------------------------------------------------------------------------------------------------
// Workspaces, keys and connections, made by the Worker's own code.
// ---------------------------------------------------------------------------------------------------

interface Src {
  apiKeys: typeof import('../src/auth/apiKeys.ts');
  workspaces: typeof import('../src/workspaces/workspaces.ts');
  connections: typeof import('../src/workspaces/connections.ts');
  secretBox: typeof import('../src/workspaces/secretBox.ts');
  connectionUrl: typeof import('../src/workspaces/connectionUrl.ts');
}

/** The copy's own src/ modules (the code its server runs), typed as this checkout's. */
async function loadSrc(dir: string): Promise<Src> {
  const { tsImport } = await import('tsx/esm/api');
  const load = (path: string) => tsImport(pathToFileURL(join(dir, path)).href, import.meta.url);
  return {
    apiKeys: await load('src/auth/apiKeys.ts'),
    workspaces: await load('src/workspaces/workspaces.ts'),
    connections: await load('src/workspaces/connections.ts'),
    secretBox: await load('src/workspaces/secretBox.ts'),
    connectionUrl: await load('src/workspaces/connectionUrl.ts'),
  };
}

/** The part of KVNamespace src/workspaces and src/auth use, in memory: what they write is then bulk-put into wrangler's local KV. */
class MemoryKv {
  readonly entries = new Map<string, { value: string; metadata?: unknown }>();
  async get(name: string, type?: 'text' | 'json'): Promise<unknown> {
    const entry = this.entries.get(name);
    if (!entry) return null;
    return type === 'json' ? JSON.parse(entry.value) : entry.value;
  }
  async put(name: string, value: string, options?: { metadata?: unknown }): Promise<void> {
    this.entries.set(name, { value, ...(options?.metadata === undefined ? {} : { metadata: options.metadata }) });
  }
  async delete(name: string): Promise<void> {
    this.entries.delete(name);
  }
  async list(options?: { prefix?: string }) {
    const prefix = options?.prefix ?? '';
    const keys = [...this.entries].filter(([name]) => name.startsWith(prefix)).map(([name, { metadata }]) => ({ name, metadata }));
    return { keys, list_complete: true, cacheStatus: null };
  }
}

/**
 * Two workspaces on `server`, each with one connection "main" to the stand-in (tested and sealed by
 * saveConnection) and an API key of every scope: "a" without a default connection, "b" with "main" as
 * its default. Returns their keys.
 */
async function seedWorkspaces(src: Src, server: DevServer, n8n: StandIn, connectionKeys: string): Promise<{ a: string; b: string }> {
  const memory = new MemoryKv();
  const kv = memory as unknown as KVNamespace;
  const ring = await src.secretBox.keyRing(connectionKeys);
  const policy = src.connectionUrl.urlPolicyOf({}, server.url);
  const keys: Record<string, string> = {};
  for (const [label, withDefault] of [
    ['a', false],
    ['b', true],
  ] as const) {
    const workspace = { ...src.workspaces.newWorkspace(`bench ${label}`), ...(withDefault ? { defaultConnection: 'main' } : {}) };
    await src.workspaces.putWorkspace(kv, workspace);
    const saved = await src.connections.saveConnection(kv, ring, { workspace: workspace.id, name: 'main', url: n8n.url, apiKey: n8n.apiKey }, policy);
    if ('problem' in saved) throw new Error(`connection not saved: ${saved.problem}`);
    const key = src.apiKeys.generateApiKey();
    const record = { ...src.apiKeys.newKeyRecord(await src.apiKeys.sha256Hex(key), `bench ${label}`, ['*']), workspace: workspace.id };
    await kv.put(src.apiKeys.kvName(record.hash), JSON.stringify(src.apiKeys.ApiKeyRecordSchema.parse(record)), { metadata: src.apiKeys.summary(record) });
    keys[label] = key;
  }
  const file = join(server.stateDir, 'bench-workspaces.json');
  writeFileSync(
    file,
    JSON.stringify([...memory.entries].map(([key, { value, metadata }]) => ({ key, value, ...(metadata === undefined ? {} : { metadata }) }))),
  );
  wrangler(['kv', 'bulk', 'put', file, '--binding', 'API_KEYS', '--local', '--persist-to', server.stateDir]);
  rmSync(file);
  return { a: keys.a!, b: keys.b! };
}

// ---------------------------------------------------------------------------------------------------
// The code under test, each in a copy of its own beside this checkout's node_modules: wrangler dev
// reloads (and replaces its workerd) when a file it serves changes, and this worktree is edited while
// the benchmark runs; a copy keeps what is measured still.
// ---------------------------------------------------------------------------------------------------

interface Copy {
  dir: string;
  /** The commit copied; for the working tree, the commit it stands on. */
  commit: string;
  workingTree: boolean;
  remove(): void;
}

const git = (args: string[]) => execFileSync('git', args, { encoding: 'utf8', maxBuffer: 64 << 20 });

function withNodeModules(dir: string, commit: string, workingTree: boolean): Copy {
  symlinkSync(realpathSync('node_modules'), join(dir, 'node_modules'));
  return { dir, commit, workingTree, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

/** A commit's files (git archive: nothing in this worktree's index or branches changes). */
function commitCopy(ref: string, label: string): Copy {
  const commit = git(['rev-parse', '--verify', `${ref}^{commit}`]).trim();
  const dir = mkdtempSync(join(tmpdir(), `bench-${label}-`));
  const tar = join(dir, 'source.tar');
  git(['archive', '--format=tar', '-o', tar, commit]);
  execFileSync('tar', ['-xf', tar, '-C', dir]);
  rmSync(tar);
  return withNodeModules(dir, commit, false);
}

/** This worktree's files as they are now: tracked and untracked, none that git ignores (.catalog/ is built again). */
function workingTreeCopy(): Copy {
  const dir = mkdtempSync(join(tmpdir(), 'bench-after-'));
  for (const file of git(['ls-files', '-z', '--cached', '--others', '--exclude-standard']).split('\0')) {
    if (file === '' || !existsSync(file)) continue; // deleted in the working tree
    const target = join(dir, file);
    mkdirSync(dirname(target), { recursive: true });
    if (lstatSync(file).isSymbolicLink()) symlinkSync(readlinkSync(file), target);
    else copyFileSync(file, target);
  }
  return withNodeModules(dir, git(['rev-parse', 'HEAD']).trim(), true);
}

// ---------------------------------------------------------------------------------------------------
// Measuring.
// ---------------------------------------------------------------------------------------------------

const quick = flags.quick;
const CALLS = Number(flags.calls ?? (quick ? 300 : 1000));
const WARMUP = Number(flags.warmup ?? (quick ? 50 : 150));
const BATCHES = Math.max(1, Number(flags.batches ?? (quick ? 3 : 5)));
const ROUNDS = Math.max(1, Number(flags.rounds ?? 1));
const CONCURRENCY = [1, 8];

interface Batch {
  pass: number;
  case: string;
  concurrency: number;
  calls: number;
  errors: number;
  seconds: number;
  callsPerSecond: number;
  /** CPU per call: the server's processes (wrangler, workerd, npm and tsx around them) less the stand-in's; the stand-in; this client. */
  serverCpuMs: number | null;
  standInCpuMs: number | null;
  clientCpuMs: number;
  /** Requests the stand-in n8n answered per call. */
  n8nRequestsPerCall: number;
  latencies: number[];
  firstError?: string;
}

let nextId = 1;

async function listOne(session: Session): Promise<void> {
  const id = nextId++;
  const { result } = await session.request(id, 'tools/call', { name: 'list_workflows', arguments: { limit: 1 } });
  // The listing as structured content, or (where the tool declares no output schema) as the JSON of its text.
  const text = (result!.content as { type?: string; text?: string }[] | undefined)?.find((c) => c.type === 'text')?.text;
  let listing = result!.structuredContent as { workflows?: unknown } | undefined;
  try {
    listing ??= text === undefined ? undefined : (JSON.parse(text) as { workflows?: unknown });
  } catch {
    // not JSON: no listing
  }
  if (result!.isError === true || !Array.isArray(listing?.workflows))
    throw new Error(`list_workflows ${id}: not a list of workflows: ${JSON.stringify(result).slice(0, 300)}`);
}

/** `calls` calls over `sessions` streams, each sending its next call once its last one is answered. */
async function drive(sessions: Session[], calls: number) {
  const latencies: number[] = [];
  let [issued, errors] = [0, 0];
  let firstError: string | undefined;
  const began = performance.now();
  await Promise.all(
    sessions.map(async (session) => {
      while (issued < calls) {
        issued++;
        const start = performance.now();
        try {
          await listOne(session);
          latencies.push(performance.now() - start);
        } catch (error) {
          errors++;
          firstError ??= String(error);
        }
      }
    }),
  );
  return { latencies, errors, firstError, seconds: (performance.now() - began) / 1000 };
}

const totalRequests = (stats: Record<string, number>) => Object.values(stats).reduce((sum, n) => sum + n, 0);

async function measure(pass: number, name: string, url: string, apiKey: string, n8n: StandIn): Promise<Batch[]> {
  const batches: Batch[] = [];
  for (const concurrency of CONCURRENCY) {
    const sessions = await Promise.all(Array.from({ length: concurrency }, () => openSession({ url: `${url}/mcp`, apiKey, era: 'modern' })));
    // The warm-up fails loudly: a server that answers errors is set up wrong, not slow.
    const warm = await drive(sessions, WARMUP);
    if (warm.errors) throw new Error(`${name}: ${warm.errors} of ${WARMUP} warm-up calls failed: ${warm.firstError}`);
    for (let b = 0; b < BATCHES; b++) {
      const calls = Math.ceil(CALLS / BATCHES);
      const requestsBefore = totalRequests(await n8n.stats());
      const [server, standIn, client] = [serverCpuMs({ withExited: true }), processCpuMs(n8n.pid), clientCpuMs()];
      const run = await drive(sessions, calls);
      const [serverAfter, standInAfter, clientAfter] = [serverCpuMs({ withExited: true }), processCpuMs(n8n.pid), clientCpuMs()];
      const n8nRequests = totalRequests(await n8n.stats()) - requestsBefore;
      const standInUsed = standIn === null || standInAfter === null ? null : standInAfter - standIn;
      const serverUsed = server === null || serverAfter === null ? null : serverAfter - server - (standInUsed ?? 0);
      const done = run.latencies.length;
      batches.push({
        pass,
        case: name,
        concurrency,
        calls: done,
        errors: run.errors,
        seconds: round(run.seconds, 3),
        callsPerSecond: round(done / run.seconds, 1),
        serverCpuMs: serverUsed === null ? null : round(serverUsed / done, 3),
        standInCpuMs: standInUsed === null ? null : round(standInUsed / done, 3),
        clientCpuMs: round((clientAfter - client) / done, 3),
        n8nRequestsPerCall: round(n8nRequests / done, 3),
        latencies: run.latencies,
        ...(run.firstError ? { firstError: run.firstError } : {}),
      });
    }
    const mine = batches.filter((x) => x.concurrency === concurrency);
    console.error(
      `[${pass}/${ROUNDS}] ${name} ×${concurrency}: server ${median(mine.map((x) => x.serverCpuMs ?? NaN)).toFixed(2)} ms/call, ` +
        `${median(mine.map((x) => x.callsPerSecond)).toFixed(1)} calls/s, ${mine.reduce((s, x) => s + x.errors, 0)} errors`,
    );
  }
  return batches;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = sorted.length / 2;
  return Number.isInteger(middle) ? (sorted[middle - 1]! + sorted[middle]!) / 2 : sorted[Math.floor(middle)]!;
}

// ---------------------------------------------------------------------------------------------------
// The run.
// ---------------------------------------------------------------------------------------------------

async function main(): Promise<void> {
  const only = flags.only?.split(',');
  const loadBefore = loadavg();
  const n8n = await startStandIn();
  const before = !only || only.includes('before') ? commitCopy(flags.ref!, 'before') : undefined;
  const after = flags['after-ref'] === undefined ? workingTreeCopy() : commitCopy(flags['after-ref'], 'after');
  const src = await loadSrc(after.dir);
  const CONNECTION_KEYS = `k1:${randomBytes(32).toString('base64')}`;
  // As latency.ts: failures only in the log (each line costs more than the request under wrangler dev); no rate limit refuses.
  const vars = { LOG_LEVEL: 'warn', RATE_LIMITS: 'off', N8N_API_URL: n8n.url, N8N_API_KEY: n8n.apiKey };

  /** A server, and the cases measured on it: each a name and the key it calls with. */
  type Plan = { server: string; start: () => Promise<DevServer>; cases: (server: DevServer) => Promise<[string, string][]> };
  const plans: Plan[] = [
    {
      server: 'before',
      start: () => startWranglerDev({ vars, cwd: before?.dir }),
      cases: async (server) => [['before', server.apiKey!]],
    },
    { server: 'after', start: () => startWranglerDev({ vars, cwd: after.dir }), cases: async (server) => [['after', server.apiKey!]] },
    {
      server: 'ws',
      start: () => startWranglerDev({ vars: { ...vars, CONNECTION_KEYS, API_KEY_CACHE_SECONDS: '30' }, cwd: after.dir }),
      cases: async (server) => {
        const keys = await seedWorkspaces(src, server, n8n, CONNECTION_KEYS);
        return [
          ['ws-cached', keys.a],
          ['ws-cached-default', keys.b],
        ];
      },
    },
    {
      server: 'ws-uncached',
      start: () => startWranglerDev({ vars: { ...vars, CONNECTION_KEYS, API_KEY_CACHE_SECONDS: '0' }, cwd: after.dir }),
      cases: async (server) => {
        const keys = await seedWorkspaces(src, server, n8n, CONNECTION_KEYS);
        return [
          ['ws-uncached', keys.a],
          ['ws-uncached-default', keys.b],
        ];
      },
    },
  ];

  const batches: Batch[] = [];
  try {
    for (let pass = 1; pass <= ROUNDS; pass++) {
      for (const plan of plans.filter((p) => !only || only.includes(p.server))) {
        const server = await plan.start();
        try {
          for (const [name, key] of await plan.cases(server)) batches.push(...(await measure(pass, name, server.url, key, n8n)));
        } finally {
          await server.stop();
        }
      }
    }
  } finally {
    n8n.stop();
    before?.remove();
    after.remove();
  }
  report(batches, { loadBefore, loadAfter: loadavg(), before, after });
}

interface Row {
  case: string;
  concurrency: number;
  calls: number;
  errors: number;
  serverCpuMs: number | null;
  clientCpuMs: number;
  standInCpuMs: number | null;
  n8nRequestsPerCall: number;
  p50: number;
  p95: number;
  callsPerSecond: number;
}

const CASE_ORDER = ['before', 'after', 'ws-cached', 'ws-cached-default', 'ws-uncached', 'ws-uncached-default'];

function report(batches: Batch[], context: { loadBefore: number[]; loadAfter: number[]; before: Copy | undefined; after: Copy }): void {
  const rows: Row[] = [];
  for (const name of CASE_ORDER) {
    for (const concurrency of CONCURRENCY) {
      const mine = batches.filter((b) => b.case === name && b.concurrency === concurrency);
      if (mine.length === 0) continue;
      const latencies = mine.flatMap((b) => b.latencies).sort((a, b) => a - b);
      const med = (pick: (b: Batch) => number) => round(median(mine.map(pick)), 3);
      rows.push({
        case: name,
        concurrency,
        calls: latencies.length,
        errors: mine.reduce((sum, b) => sum + b.errors, 0),
        serverCpuMs: mine[0]!.serverCpuMs === null ? null : med((b) => b.serverCpuMs!),
        clientCpuMs: med((b) => b.clientCpuMs),
        standInCpuMs: mine[0]!.standInCpuMs === null ? null : med((b) => b.standInCpuMs!),
        n8nRequestsPerCall: med((b) => b.n8nRequestsPerCall),
        p50: round(percentile(latencies, 50)),
        p95: round(percentile(latencies, 95)),
        callsPerSecond: med((b) => b.callsPerSecond),
      });
    }
  }
  const row = (name: string, concurrency: number) => rows.find((r) => r.case === name && r.concurrency === concurrency);
  const ratio = (a: number | null | undefined, b: number | null | undefined) => (a == null || b == null || b === 0 ? null : round(a / b));
  const ratios = rows
    .filter((r) => r.case !== 'before')
    .map((r) => {
      const base = row('before', r.concurrency);
      return {
        case: r.case,
        concurrency: r.concurrency,
        serverCpu: ratio(r.serverCpuMs, base?.serverCpuMs),
        clientCpu: ratio(r.clientCpuMs, base?.clientCpuMs),
        p50: ratio(r.p50, base?.p50),
        p95: ratio(r.p95, base?.p95),
        callsPerSecond: ratio(r.callsPerSecond, base?.callsPerSecond),
      };
    });

  const load = (l: number[]) => l.map((x) => x.toFixed(2)).join(' ');
  const passes = ROUNDS > 1 ? `, ${ROUNDS} passes` : '';
  console.log(
    `\nlist_workflows (limit 1) against a stand-in n8n, MCP 2026-07-28 requests: ${CALLS} calls per case and concurrency in ${BATCHES} batches ` +
      `after ${WARMUP} warm-up calls${passes}; ${cpus().length} cores, load average ${load(context.loadBefore)} at the start, ${load(context.loadAfter)} at the end`,
  );
  console.log('CPU ms per call and calls/s: medians of the batches; p50/p95 over all calls. Ratios to "before" at the same concurrency.\n');
  console.log('case                 conc  server ms  client ms  n8n ms  n8n req   p50 ms   p95 ms  calls/s  errors │ ×server  ×p50  ×calls/s');
  for (const r of rows) {
    const x = ratios.find((q) => q.case === r.case && q.concurrency === r.concurrency);
    const f = (n: number | null | undefined, digits = 2) => (n == null ? '-' : n.toFixed(digits));
    console.log(
      `${r.case.padEnd(20)} ${String(r.concurrency).padStart(4)} ${f(r.serverCpuMs).padStart(10)} ${f(r.clientCpuMs).padStart(10)} ${f(r.standInCpuMs).padStart(7)} ` +
        `${f(r.n8nRequestsPerCall, 1).padStart(8)} ${f(r.p50).padStart(8)} ${f(r.p95).padStart(8)} ${f(r.callsPerSecond, 1).padStart(8)} ${String(r.errors).padStart(7)} │ ` +
        `${(x ? f(x.serverCpu) : '1').padStart(7)} ${(x ? f(x.p50) : '1').padStart(5)} ${(x ? f(x.callsPerSecond) : '1').padStart(9)}`,
    );
  }
  console.log(
    "\nserver ms: CPU of wrangler dev and its workerd (npm and tsx around them too) per call, less the stand-in n8n's (n8n ms); " +
      'client ms: this process (request building, answer parsing). A shared 2-core machine: figures move by ±15% between runs.',
  );

  mkdirSync('bench/results', { recursive: true });
  writeFileSync(
    'bench/results/workspaces.json',
    JSON.stringify(
      {
        date: new Date().toISOString(),
        quick,
        calls: CALLS,
        warmup: WARMUP,
        batchesPerCase: BATCHES,
        rounds: ROUNDS,
        cores: cpus().length,
        loadAverage: { start: context.loadBefore, end: context.loadAfter },
        before: { ref: flags.ref, commit: context.before?.commit ?? null },
        // workingTree: this worktree's files as they were when the run started, on top of that commit.
        after: { ref: flags['after-ref'] ?? null, commit: context.after.commit, workingTree: context.after.workingTree },
        summary: rows,
        ratiosToBefore: ratios,
        batches: batches.map(({ latencies: _latencies, ...batch }) => batch),
      },
      null,
      2,
    ),
  );
  console.log('\nwrote bench/results/workspaces.json');
}

if (flags['stand-in'] !== undefined) serveStandIn(flags['stand-in']);
else await main();
