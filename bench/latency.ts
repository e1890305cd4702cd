/**
 * tools/call latency and throughput over Streamable HTTP, this server against references on the same
 * runtime and the same client, one server at a time so none competes for the cores:
 *   floor      Worker → Durable Object echo, no MCP work (bench/references/floor)
 *   mcp-agent  the `agents` package's McpAgent serving the same tool (bench/references/mcp-agent)
 *   node-sdk   the MCP SDK's StreamableHTTPServerTransport on node:http (context only)
 *   this       this project under `wrangler dev`
 *   queued     this project with EXECUTION_MODE=queued: the same tool through Cloudflare Queues
 * Then 1,000 sessions opened and used at once against this server, direct and queued; every call must
 * get exactly one answer.
 *
 *   npm run bench           10 s per scenario
 *   npm run bench -- --quick  3 s per scenario, 200 sessions at once (what CI could afford)
 * Prints a table and writes bench/results/latency.json.
 */
import { spawn } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { Agent, setGlobalDispatcher } from 'undici';
import { startWranglerDev, type DevServer } from '../scripts/lib/wranglerDev.ts';
import { openSession } from './lib/mcpClient.ts';
import { percentile, round } from './lib/stats.ts';

const quick = process.argv.includes('--quick');
const SECONDS = quick ? 3 : 10;
const WARMUP_SECONDS = quick ? 1 : 2;
const CONCURRENCY = [1, 50];
const MANY_SESSIONS = quick ? 200 : 1000;

setGlobalDispatcher(new Agent({ connections: 2048, pipelining: 1, keepAliveTimeout: 30_000 }));

interface Run {
  server: string;
  sessions: number;
  seconds: number;
  requests: number;
  errors: number;
  rps: number;
  p50: number;
  p99: number;
  firstError?: string;
}

/** `sessions` closed loops of sequential tools/call for `seconds`, after a warm-up. */
async function measure(server: string, url: string, sessions: number): Promise<Run> {
  const clients = await Promise.all(Array.from({ length: sessions }, () => openSession(url)));
  const latencies: number[] = [];
  let errors = 0;
  let firstError: string | undefined;
  let recording = false;
  let stop = false;
  const loop = async (client: (typeof clients)[number]) => {
    for (let id = 1; !stop; id++) {
      const start = performance.now();
      try {
        await client.call(id);
        if (recording) latencies.push(performance.now() - start);
      } catch (error) {
        if (recording) errors++;
        firstError ??= String(error);
      }
    }
  };
  const loops = clients.map(loop);
  await new Promise((r) => setTimeout(r, WARMUP_SECONDS * 1000));
  recording = true;
  const began = performance.now();
  await new Promise((r) => setTimeout(r, SECONDS * 1000));
  recording = false;
  const elapsed = (performance.now() - began) / 1000;
  stop = true;
  await Promise.all(loops);
  latencies.sort((a, b) => a - b);
  return {
    server,
    sessions,
    seconds: round(elapsed),
    requests: latencies.length,
    errors,
    rps: round(latencies.length / elapsed, 1),
    p50: round(percentile(latencies, 50)),
    p99: round(percentile(latencies, 99)),
    ...(firstError ? { firstError } : {}),
  };
}

/** Many sessions opened and used at once: each initializes and makes one call, all in flight together. */
async function manySessions(url: string, count: number) {
  const latencies: number[] = [];
  const failures: string[] = [];
  const began = performance.now();
  await Promise.all(
    Array.from({ length: count }, async () => {
      try {
        const session = await openSession(url);
        const start = performance.now();
        await session.call(1);
        latencies.push(performance.now() - start);
      } catch (error) {
        failures.push(String(error));
      }
    }),
  );
  latencies.sort((a, b) => a - b);
  return {
    sessions: count,
    errors: failures.length,
    firstError: failures[0],
    totalSeconds: round((performance.now() - began) / 1000),
    callP50: round(percentile(latencies, 50)),
    callP99: round(percentile(latencies, 99)),
  };
}

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
    stop: async () => {
      child.kill();
    },
  };
}

const SERVERS: [string, () => Promise<DevServer>][] = [
  ['floor', () => startWranglerDev({ config: 'bench/references/floor/wrangler.toml' })],
  ['mcp-agent', () => startWranglerDev({ config: 'bench/references/mcp-agent/wrangler.toml' })],
  ['node-sdk', startNodeSdk],
  ['this', () => startWranglerDev()],
  ['queued', () => startWranglerDev({ vars: { EXECUTION_MODE: 'queued' } })],
];

const runs: Run[] = [];
const many: Record<string, Awaited<ReturnType<typeof manySessions>>> = {};
for (const [name, start] of SERVERS) {
  const server = await start();
  try {
    for (const sessions of CONCURRENCY) {
      const run = await measure(name, `${server.url}/mcp`, sessions);
      runs.push(run);
      console.error(`${name} ×${sessions}: p50 ${run.p50} ms, p99 ${run.p99} ms, ${run.rps} req/s, ${run.errors} errors`);
    }
    if (name === 'this' || name === 'queued') many[name] = await manySessions(`${server.url}/mcp`, MANY_SESSIONS);
  } finally {
    await server.stop();
  }
}

const get = (server: string, sessions: number) => runs.find((r) => r.server === server && r.sessions === sessions)!;
const ratios = {
  p50VsFloor1: round(get('this', 1).p50 / get('floor', 1).p50),
  rpsVsMcpAgent50: round(get('this', 50).rps / get('mcp-agent', 50).rps),
  rpsVsFloor50: round(get('this', 50).rps / get('floor', 50).rps),
  queuedAddedP50Ms: round(get('queued', 1).p50 - get('this', 1).p50),
  queuedAddedP99Ms: round(get('queued', 1).p99 - get('this', 1).p99),
};
const targets = { p50VsFloor1: '<= 1.25', rpsVsMcpAgent50: '>= 2', manySessionsErrors: '0', queuedAddedP50Ms: '<= 25' };

console.log(`\ntools/call of server_info over Streamable HTTP, ${SECONDS} s per run, ${cpus().length} cores\n`);
console.log('server     sessions   p50 ms   p99 ms     req/s  errors');
for (const r of runs) {
  console.log(
    `${r.server.padEnd(10)} ${String(r.sessions).padStart(8)} ${r.p50.toFixed(2).padStart(8)} ${r.p99.toFixed(2).padStart(8)} ${r.rps.toFixed(1).padStart(9)} ${String(r.errors).padStart(7)}`,
  );
}
console.log(`\np50 this/floor at 1 session:        ${ratios.p50VsFloor1}  (target ${targets.p50VsFloor1})`);
console.log(`req/s this/mcp-agent at 50 sessions: ${ratios.rpsVsMcpAgent50}  (target ${targets.rpsVsMcpAgent50})`);
console.log(`req/s this/floor at 50 sessions:     ${ratios.rpsVsFloor50}`);
console.log(`queued adds at 1 session:            p50 ${ratios.queuedAddedP50Ms} ms, p99 ${ratios.queuedAddedP99Ms} ms  (target p50 ${targets.queuedAddedP50Ms})`);
for (const [name, m] of Object.entries(many)) {
  console.log(
    `${name}: ${m.sessions} sessions at once, one call each: ${m.errors} errors (lost or duplicated answers count as errors), ${m.totalSeconds} s in all, call p50 ${m.callP50} ms, p99 ${m.callP99} ms`,
  );
}

mkdirSync('bench/results', { recursive: true });
writeFileSync(
  'bench/results/latency.json',
  JSON.stringify({ date: new Date().toISOString(), quick, seconds: SECONDS, cores: cpus().length, runs, ratios, targets, manySessions: many }, null, 2),
);
console.log('\nwrote bench/results/latency.json');
