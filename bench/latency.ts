/**
 * tools/call latency and throughput over Streamable HTTP, this server against references on the same
 * runtime and the same client, one server at a time so none competes for the cores:
 *   echo       a plain Worker answering the canned result, no Durable Object (bench/references/echo)
 *   floor      Worker → Durable Object echo, no MCP work (bench/references/floor)
 *   mcp-agent  the `agents` package's McpAgent serving the same tool (bench/references/mcp-agent)
 *   sdk-modern the MCP SDK 2.x's per-request entry serving the same tool to 2026-07-28 requests in a
 *              plain Worker: the floor of any server built on the SDK's modern leg (bench/references/sdk-modern)
 *   node-sdk   the MCP SDK's StreamableHTTPServerTransport on node:http (context only)
 *   this       this project under `wrangler dev`, 2025-era sessions (initialize, then Mcp-Session-Id)
 *   modern     this project, MCP 2026-07-28 requests: no session, answered in the Worker
 *   queued     this project with EXECUTION_MODE=queued: the same tool through Cloudflare Queues
 *   no-auth    this project with ALLOW_ANONYMOUS=true and no key sent: the cost of the key check
 *   modern-no-auth  the same, with 2026-07-28 requests
 *   modern-unlimited  2026-07-28 requests with RATE_LIMITS=off: the cost of the rate limiter's binding
 *   logged     `this` with LOG_LEVEL=info: the cost of a log line per request in `wrangler dev`
 * This project's servers run with LOG_LEVEL=warn (failures only), as the references log nothing: in
 * `wrangler dev` each line travels through wrangler's terminal and costs more than the request.
 * For this server, ping and tools/list at 1 session as well, to tell the session's round trip from the
 * tool call. Then 1,000 sessions opened and used at once against this server, direct and queued; every
 * call must get exactly one answer.
 *
 *   npm run bench          10 s per run after a 2 s warm-up, 1,000 sessions at once
 *   npm run bench:quick    3 s per run after 1 s, 200 sessions at once (what CI can afford)
 *   flags (or env): --seconds N (BENCH_SECONDS), --warmup N (BENCH_WARMUP), --many N (BENCH_MANY),
 *                   --only floor,this (BENCH_ONLY), --rounds N (BENCH_ROUNDS): N passes over the servers,
 *                   medians reported (one pass moves the ratios by ±15% on a shared 2-core machine)
 * Prints a table and writes bench/results/latency.json.
 */
import { spawn } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { parseArgs } from 'node:util';
import { Agent, setGlobalDispatcher } from 'undici';
import { startWranglerDev, type DevServer } from '../scripts/lib/wranglerDev.ts';
import { clientCpuMs, serverCpuMs } from './lib/cpu.ts';
import { openSession, type Session, type Target } from './lib/mcpClient.ts';
import { percentile, round } from './lib/stats.ts';

const { values: flags } = parseArgs({
  options: {
    quick: { type: 'boolean', default: false },
    seconds: { type: 'string', default: process.env.BENCH_SECONDS },
    warmup: { type: 'string', default: process.env.BENCH_WARMUP },
    many: { type: 'string', default: process.env.BENCH_MANY },
    only: { type: 'string', default: process.env.BENCH_ONLY },
    rounds: { type: 'string', default: process.env.BENCH_ROUNDS },
  },
});
const quick = flags.quick;
const SECONDS = Number(flags.seconds ?? (quick ? 3 : 10));
const WARMUP_SECONDS = Number(flags.warmup ?? (quick ? 1 : 2));
const MANY_SESSIONS = Number(flags.many ?? (quick ? 200 : 1000));
/** Passes over all servers; figures are the medians. Runs on a shared machine drift by ±15%. */
const ROUNDS = Number(flags.rounds ?? 1);
const CONCURRENCY = [1, 50];
/** Where the time goes in this server: the same round trip without the tool (ping) and a cheap listing. */
const DIAGNOSTICS: Record<string, string[]> = { this: ['ping', 'tools/list'] };

// Enough sockets for every session at once, so the client never queues requests itself.
setGlobalDispatcher(new Agent({ connections: 2048, pipelining: 1, keepAliveTimeout: 30_000 }));

interface Run {
  pass: number;
  server: string;
  method: string;
  sessions: number;
  seconds: number;
  requests: number;
  errors: number;
  rps: number;
  p50: number;
  p99: number;
  /** CPU per request: all server processes (wrangler's proxy included), and this client. */
  serverCpuMs: number | null;
  clientCpuMs: number;
  firstError?: string;
}

const sleep = (seconds: number) => new Promise((r) => setTimeout(r, seconds * 1000));

/** `sessions` closed loops of sequential requests for SECONDS, after a warm-up. */
async function measure(pass: number, server: string, target: Target, sessions: number, method = 'tools/call'): Promise<Run> {
  const clients = await Promise.all(Array.from({ length: sessions }, () => openSession(target)));
  const send = (client: Session, id: number) => (method === 'tools/call' ? client.call(id) : client.request(id, method));
  const latencies: number[] = [];
  let errors = 0;
  let firstError: string | undefined;
  let recording = false;
  let stop = false;
  const loop = async (client: Session) => {
    for (let id = 1; !stop; id++) {
      const start = performance.now();
      try {
        await send(client, id);
        if (recording) latencies.push(performance.now() - start);
      } catch (error) {
        if (recording) errors++;
        firstError ??= String(error);
      }
    }
  };
  const loops = clients.map(loop);
  await sleep(WARMUP_SECONDS);
  recording = true;
  const began = performance.now();
  const [serverCpu, clientCpu] = [serverCpuMs(), clientCpuMs()];
  await sleep(SECONDS);
  recording = false;
  const elapsed = (performance.now() - began) / 1000;
  const serverCpuUsed = serverCpu === null ? null : serverCpuMs()! - serverCpu;
  const clientCpuUsed = clientCpuMs() - clientCpu;
  stop = true;
  await Promise.all(loops);
  latencies.sort((a, b) => a - b);
  return {
    pass,
    server,
    method,
    sessions,
    seconds: round(elapsed),
    requests: latencies.length,
    errors,
    rps: round(latencies.length / elapsed, 1),
    p50: round(percentile(latencies, 50)),
    p99: round(percentile(latencies, 99)),
    serverCpuMs: serverCpuUsed === null ? null : round(serverCpuUsed / latencies.length),
    clientCpuMs: round(clientCpuUsed / latencies.length),
    ...(firstError ? { firstError } : {}),
  };
}

/** Many sessions opened and used at once: each initializes and makes one call, all in flight together. */
async function manySessions(target: Target, count: number) {
  const opens: number[] = [];
  const calls: number[] = [];
  const failures: string[] = [];
  const began = performance.now();
  await Promise.all(
    Array.from({ length: count }, async () => {
      try {
        const opened = performance.now();
        const session = await openSession(target);
        const start = performance.now();
        opens.push(start - opened);
        await session.call(1);
        calls.push(performance.now() - start);
      } catch (error) {
        failures.push(String(error));
      }
    }),
  );
  const totalSeconds = round((performance.now() - began) / 1000);
  opens.sort((a, b) => a - b);
  calls.sort((a, b) => a - b);
  return {
    sessions: count,
    errors: failures.length,
    ...(failures.length ? { firstError: failures[0] } : {}),
    totalSeconds,
    // initialize + notifications/initialized, then the call: the two halves of each session's wait.
    openP50: round(percentile(opens, 50)),
    openP99: round(percentile(opens, 99)),
    callP50: round(percentile(calls, 50)),
    callP99: round(percentile(calls, 99)),
  };
}

/** Reference (c) in its own process, so it gets the cores to itself like the Workers do. */
async function startNodeSdk(): Promise<DevServer> {
  const child = spawn(process.execPath, ['bench/references/node-sdk/server.ts', '0'], { stdio: ['ignore', 'pipe', 'inherit'] });
  const port = await new Promise<number>((resolve, reject) => {
    child.stdout.on('data', (chunk: Buffer) => {
      const match = /listening (\d+)/.exec(chunk.toString());
      if (match) resolve(Number(match[1]));
    });
    child.once('exit', (code) => reject(new Error(`node-sdk reference exited ${code}`)));
  });
  return {
    url: `http://127.0.0.1:${port}`,
    stateDir: '',
    logs: () => '',
    stop: async () => {
      if (child.exitCode !== null) return;
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill();
      await exited;
    },
  };
}

const SERVERS: [string, () => Promise<DevServer>][] = [
  ['echo', () => startWranglerDev({ config: 'bench/references/echo/wrangler.toml' })],
  ['floor', () => startWranglerDev({ config: 'bench/references/floor/wrangler.toml' })],
  ['mcp-agent', () => startWranglerDev({ config: 'bench/references/mcp-agent/wrangler.toml' })],
  ['sdk-modern', () => startWranglerDev({ config: 'bench/references/sdk-modern/wrangler.toml' })],
  ['node-sdk', startNodeSdk],
  // One API key drives every session; its request limit is raised so the limiter counts without refusing (startThis).
  ['this', () => startThis()],
  ['modern', () => startThis()],
  ['queued', () => startThis({ EXECUTION_MODE: 'queued' })],
  // This server taking anonymous callers: what checking the API key (a KV read) costs each request.
  ['no-auth', async () => ({ ...(await startThis({ ALLOW_ANONYMOUS: 'true' })), apiKey: undefined })],
  // The same for 2026-07-28 requests.
  ['modern-no-auth', async () => ({ ...(await startThis({ ALLOW_ANONYMOUS: 'true' })), apiKey: undefined })],
  // 2026-07-28 requests with the rate limiter off: what miniflare's simulated binding costs a call.
  ['modern-unlimited', () => startThis({ RATE_LIMITS: 'off' })],
  ['logged', () => startThis({ LOG_LEVEL: 'info' })],
];

function startThis(vars: Record<string, string> = {}): Promise<DevServer> {
  // Key check and rate limits on, as deployed: every request is counted, against a budget the load cannot exhaust.
  return startWranglerDev({ vars: { LOG_LEVEL: 'warn', ...vars }, requestLimit: 10_000_000 });
}
const only = flags.only?.split(',');

const runs: Run[] = [];
const many: Record<string, Awaited<ReturnType<typeof manySessions>>> = {};
// Passes interleave the servers, so a slow spell on the machine spreads over all of them.
for (let pass = 1; pass <= ROUNDS; pass++) {
  for (const [name, start] of SERVERS.filter(([name]) => !only || only.includes(name))) {
    const server = await start();
    const target = { url: `${server.url}/mcp`, apiKey: server.apiKey, era: name.includes('modern') ? ('modern' as const) : ('legacy' as const) };
    const record = (run: Run) => {
      runs.push(run);
      console.error(`[${pass}/${ROUNDS}] ${name} ${run.method} ×${run.sessions}: p50 ${run.p50} ms, p99 ${run.p99} ms, ${run.rps} req/s, ${run.errors} errors`);
    };
    try {
      for (const sessions of CONCURRENCY) record(await measure(pass, name, target, sessions));
      for (const method of DIAGNOSTICS[name] ?? []) record(await measure(pass, name, target, 1, method));
      // Once is enough: it checks correctness under load more than it measures.
      if (pass === 1 && (name === 'this' || name === 'queued')) many[name] = await manySessions(target, MANY_SESSIONS);
    } finally {
      await server.stop();
    }
  }
}

/** One row per server × method × sessions: the median of each figure over the passes, errors summed. */
function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = sorted.length / 2;
  return Number.isInteger(middle) ? (sorted[middle - 1]! + sorted[middle]!) / 2 : sorted[Math.floor(middle)]!;
}
const keyOf = (r: Run) => `${r.server} ${r.method} ${r.sessions}`;
const summary = [...new Set(runs.map(keyOf))].map((key) => {
  const all = runs.filter((r) => keyOf(r) === key);
  const { server, method, sessions, serverCpuMs } = all[0]!;
  const med = (pick: (run: Run) => number) => round(median(all.map(pick)), 2);
  return {
    server,
    method,
    sessions,
    passes: all.length,
    errors: all.reduce((sum, r) => sum + r.errors, 0),
    rps: med((r) => r.rps),
    p50: med((r) => r.p50),
    p99: med((r) => r.p99),
    serverCpuMs: serverCpuMs === null ? null : med((r) => r.serverCpuMs!),
    clientCpuMs: med((r) => r.clientCpuMs),
  };
});

const get = (server: string, sessions: number, method = 'tools/call') =>
  summary.find((r) => r.server === server && r.sessions === sessions && r.method === method);
/** a/b when both were measured (a partial run with --only has fewer). */
const ratio = (a: number | undefined, b: number | undefined) => (a === undefined || b === undefined ? null : round(a / b));
const diff = (a: number | undefined, b: number | undefined) => (a === undefined || b === undefined ? null : round(a - b));
const ratios = {
  p50VsFloor1: ratio(get('this', 1)?.p50, get('floor', 1)?.p50),
  rpsVsMcpAgent50: ratio(get('this', 50)?.rps, get('mcp-agent', 50)?.rps),
  rpsVsFloor50: ratio(get('this', 50)?.rps, get('floor', 50)?.rps),
  queuedAddedP50Ms: diff(get('queued', 1)?.p50, get('this', 1)?.p50),
  queuedAddedP99Ms: diff(get('queued', 1)?.p99, get('this', 1)?.p99),
  authAddedP50Ms: diff(get('this', 1)?.p50, get('no-auth', 1)?.p50),
  rpsWithAuthVsWithout50: ratio(get('this', 50)?.rps, get('no-auth', 50)?.rps),
  modernP50VsEcho1: ratio(get('modern', 1)?.p50, get('echo', 1)?.p50),
  modernRpsVsSessions50: ratio(get('modern', 50)?.rps, get('this', 50)?.rps),
  modernRpsVsMcpAgent50: ratio(get('modern', 50)?.rps, get('mcp-agent', 50)?.rps),
  // The SDK's own modern leg against the plain Worker, and this server against the SDK's leg.
  sdkModernP50VsEcho1: ratio(get('sdk-modern', 1)?.p50, get('echo', 1)?.p50),
  modernP50VsSdkModern1: ratio(get('modern', 1)?.p50, get('sdk-modern', 1)?.p50),
  modernRpsVsSdkModern50: ratio(get('modern', 50)?.rps, get('sdk-modern', 50)?.rps),
  modernAuthAddedP50Ms: diff(get('modern', 1)?.p50, get('modern-no-auth', 1)?.p50),
  logLineAddedP50Ms: diff(get('logged', 1)?.p50, get('this', 1)?.p50),
  rpsLoggedVsNot50: ratio(get('logged', 50)?.rps, get('this', 50)?.rps),
};
const targets = {
  p50VsFloor1: '<= 1.25',
  rpsVsMcpAgent50: '>= 2',
  manySessionsErrors: '0',
  queuedAddedP50Ms: '<= 25',
  modernP50VsEcho1: '<= 1.2',
  modernRpsVsSessions50: '>= 2',
};

const passes = ROUNDS > 1 ? `, medians of ${ROUNDS} passes` : '';
console.log(`\nserver_info over Streamable HTTP, ${SECONDS} s per run after ${WARMUP_SECONDS} s warm-up${passes}, ${cpus().length} cores\n`);
console.log('server     method      sessions   p50 ms   p99 ms     req/s  errors  cpu ms/req: server client');
for (const r of summary) {
  console.log(
    `${r.server.padEnd(10)} ${r.method.padEnd(11)} ${String(r.sessions).padStart(8)} ${r.p50.toFixed(2).padStart(8)} ${r.p99.toFixed(2).padStart(8)} ` +
      `${r.rps.toFixed(1).padStart(9)} ${String(r.errors).padStart(7)} ${(r.serverCpuMs?.toFixed(2) ?? '-').padStart(18)} ${r.clientCpuMs.toFixed(2).padStart(6)}`,
  );
}
console.log(`\np50 this/floor at 1 session:         ${ratios.p50VsFloor1 ?? '-'}  (target ${targets.p50VsFloor1})`);
console.log(`req/s this/mcp-agent at 50 sessions: ${ratios.rpsVsMcpAgent50 ?? '-'}  (target ${targets.rpsVsMcpAgent50})`);
console.log(`req/s this/floor at 50 sessions:     ${ratios.rpsVsFloor50 ?? '-'}`);
console.log(
  `queued adds at 1 session:            p50 ${ratios.queuedAddedP50Ms ?? '-'} ms, p99 ${ratios.queuedAddedP99Ms ?? '-'} ms  (target p50 ${targets.queuedAddedP50Ms})`,
);
console.log(
  `API key check adds at 1 session:     p50 ${ratios.authAddedP50Ms ?? '-'} ms; req/s with/without at 50 sessions: ${ratios.rpsWithAuthVsWithout50 ?? '-'}`,
);
console.log(`p50 modern/echo at 1 request stream:  ${ratios.modernP50VsEcho1 ?? '-'}  (target ${targets.modernP50VsEcho1})`);
console.log(
  `req/s modern/this (2025 sessions) at 50:  ${ratios.modernRpsVsSessions50 ?? '-'}  (target ${targets.modernRpsVsSessions50}); modern/mcp-agent: ${ratios.modernRpsVsMcpAgent50 ?? '-'}`,
);
console.log(
  `p50 sdk-modern/echo (the SDK's modern floor): ${ratios.sdkModernP50VsEcho1 ?? '-'}; modern/sdk-modern: p50 ${ratios.modernP50VsSdkModern1 ?? '-'}, req/s at 50 ${ratios.modernRpsVsSdkModern50 ?? '-'}`,
);
console.log(`API key check adds to a modern call:  p50 ${ratios.modernAuthAddedP50Ms ?? '-'} ms`);
console.log(
  `a log line per request adds (wrangler dev): p50 ${ratios.logLineAddedP50Ms ?? '-'} ms; req/s with/without at 50: ${ratios.rpsLoggedVsNot50 ?? '-'}`,
);
for (const [name, m] of Object.entries(many)) {
  console.log(
    `${name}: ${m.sessions} sessions at once, one call each: ${m.errors} errors (target ${targets.manySessionsErrors}), ${m.totalSeconds} s in all; ` +
      `open p50 ${m.openP50} ms, p99 ${m.openP99} ms; call p50 ${m.callP50} ms, p99 ${m.callP99} ms`,
  );
}

mkdirSync('bench/results', { recursive: true });
writeFileSync(
  'bench/results/latency.json',
  JSON.stringify(
    {
      date: new Date().toISOString(),
      quick,
      seconds: SECONDS,
      warmupSeconds: WARMUP_SECONDS,
      rounds: ROUNDS,
      cores: cpus().length,
      summary,
      ratios,
      targets,
      manySessions: many,
      runs,
    },
    null,
    2,
  ),
);
console.log('\nwrote bench/results/latency.json');
