/**
 * Whether one caller's long tool call holds another caller's short one. Against `npm run dev` (wrangler
 * dev: the queues and their consumers as miniflare runs them, src/worker.ts) and the contract fake of
 * n8n, whose webhooks answer after --long-seconds: caller A runs try_nodes (a throwaway workflow called
 * through its webhook, so it takes that long), and once n8n has its webhook call, caller B (another key)
 * calls list_workflows. B's list_workflows alone first, as the baseline.
 *
 *   npm run bench:fairness -- [--rounds 5] [--long-seconds 10]
 *
 * Prints B's latencies alone and beside A's run, and writes bench/results/fairness.json.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { startWranglerDev } from '../scripts/lib/wranglerDev.ts';
import { startFakeN8n } from '../test/fakes/n8n/server.ts';
import { percentile, round } from './lib/stats.ts';

const { values: flags } = parseArgs({ options: { rounds: { type: 'string', default: '5' }, 'long-seconds': { type: 'string', default: '10' } } });
const ROUNDS = Number(flags.rounds);
const LONG_MS = Number(flags['long-seconds']) * 1000;

const n8n = await startFakeN8n('n8n_api_fairness_key');
const server = await startWranglerDev({ vars: { N8N_API_URL: n8n.url, N8N_API_KEY: n8n.apiKey, RATE_LIMITS: 'off' } });

/** A second caller: a key of its own, made as a developer makes one. */
function otherKey(): string {
  const run = spawnSync(
    'npm',
    ['run', '--silent', 'keys', '--', 'create', '--name', 'fairness-b', '--scopes', '*', '--local', '--persist-to', server.stateDir],
    {
      encoding: 'utf8',
    },
  );
  if (run.status !== 0) throw new Error(`npm run keys: ${run.stderr}`);
  return run.stdout.trim();
}

async function connect(key: string, name: string): Promise<Client> {
  const client = new Client({ name, version: '1' });
  await client.connect(new StreamableHTTPClientTransport(new URL('/mcp', server.url), { requestInit: { headers: { authorization: `Bearer ${key}` } } }));
  return client;
}

/** A tool call's time in ms; its answer must be no error. */
async function timed(client: Client, name: string, args: Record<string, unknown>): Promise<number> {
  const started = performance.now();
  const result = await client.callTool({ name, arguments: args }, undefined, { timeout: 120_000 });
  if (result.isError) throw new Error(`${name}: ${JSON.stringify(result.content)}`);
  return performance.now() - started;
}

const webhookCalls = () => n8n.requests.filter((r) => r.startsWith('POST /webhook/try-nodes-')).length;

async function untilWebhookCalled(before: number): Promise<void> {
  while (webhookCalls() === before) await new Promise((resolve) => setTimeout(resolve, 50));
}

const summary = (ms: number[]) => {
  const sorted = [...ms].sort((a, b) => a - b);
  return { ms: ms.map((m) => round(m, 0)), p50: round(percentile(sorted, 50), 0), max: round(sorted.at(-1)!, 0) };
};

try {
  const a = await connect(server.apiKey!, 'fairness-a');
  const b = await connect(otherKey(), 'fairness-b');
  await timed(b, 'list_workflows', {});

  const alone: number[] = [];
  for (let round = 0; round < ROUNDS; round++) alone.push(await timed(b, 'list_workflows', {}));

  n8n.webhookDelayMs = LONG_MS;
  const beside: number[] = [];
  const long: number[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    const before = webhookCalls();
    const trying = timed(a, 'try_nodes', { nodes: [{ name: 'Pass', type: 'n8n-nodes-base.noOp', typeVersion: 1, parameters: {} }], waitSeconds: 60 });
    await untilWebhookCalled(before);
    beside.push(await timed(b, 'list_workflows', {}));
    long.push(await trying);
  }
  await a.close();
  await b.close();

  const result = {
    date: new Date().toISOString(),
    commit: execFileSync('git', ['rev-parse', '--short', 'HEAD'], { encoding: 'utf8' }).trim(),
    rounds: ROUNDS,
    longSeconds: LONG_MS / 1000,
    listWorkflowsAlone: summary(alone),
    listWorkflowsBesideTryNodes: summary(beside),
    tryNodes: summary(long),
  };
  console.log(`list_workflows alone:                p50 ${result.listWorkflowsAlone.p50} ms, max ${result.listWorkflowsAlone.max} ms`);
  console.log(`list_workflows beside a try_nodes:   p50 ${result.listWorkflowsBesideTryNodes.p50} ms, max ${result.listWorkflowsBesideTryNodes.max} ms`);
  console.log(`try_nodes (webhook ${LONG_MS / 1000} s):          p50 ${result.tryNodes.p50} ms`);
  mkdirSync('bench/results', { recursive: true });
  writeFileSync('bench/results/fairness.json', JSON.stringify(result, null, 2) + '\n');
} finally {
  await server.stop();
  await n8n.stop();
}
