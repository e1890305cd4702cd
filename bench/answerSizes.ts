/**
 * The largest answers the tools whose answers grow can be made to give, in bytes of the JSON-RPC
 * message, per byte of the request that asked: against `npm run dev` (seed catalog) driving the contract
 * fake of n8n, which holds a ~10 MB execution, ten ~1.8 MB executions of one workflow, a ~3 MB workflow
 * with its kept versions, and ~1 MB stored tests (try_nodes is not here: the fake runs no node; its
 * answer holds at most OUTPUT_CHARS of items, src/tools/n8n/tryNodes.ts). Each call is a 2026-07-28 request answered in the
 * Worker (no Durable Object in the way, so the answer is whatever the tool gives); one more asks for the
 * 10 MB execution in a 2025 session, whose answer goes through the session object's storage, and says
 * whether it arrived. Also measured: how many bytes of objects an execution's JSON parses into, per
 * byte (what bounds how much the Worker reads from n8n, src/n8n/client.ts).
 *
 * Run it in the tree to measure (it starts that tree's `npm run dev` and test/fakes/n8n):
 *
 *   npx tsx bench/answerSizes.ts --out bench/results/answer-sizes.json
 *   npx tsx bench/answerSizes.ts --compare before.json after.json     # the table of two runs
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { parseArgs } from 'node:util';
import { parseSse } from '../scripts/lib/sseFrame.ts';
import { startWranglerDev } from '../scripts/lib/wranglerDev.ts';
import { startFakeN8n } from '../test/fakes/n8n/server.ts';
import { largeWorkflow } from '../test/support/workflows.ts';

const { values: flags } = parseArgs({
  options: { out: { type: 'string', default: 'bench/results/answer-sizes.json' }, compare: { type: 'boolean', default: false } },
  allowPositionals: true,
});

interface Row {
  tool: string;
  what: string;
  requestBytes: number;
  answerBytes: number;
  isError: boolean;
  seconds: number;
  /** The start of the answer's text, to tell what it was. */
  said: string;
}

interface Run {
  rows: Row[];
  session: { answered: boolean; answerBytes: number; seconds: number; said: string };
  /** Heap an execution's JSON parses into, per byte: the fake's items, and items of names, e-mails, numbers and flags. */
  parse: { shape: string; executionBytes: number; heapBytes: number; perByte: number }[];
}

const kb = (n: number) => (n >= 1e6 ? `${(n / 1e6).toFixed(1)} MB` : `${(n / 1e3).toFixed(1)} kB`);
const utf8 = (text: string) => Buffer.byteLength(text, 'utf8');

function table(runs: [string, Run][]) {
  const [, first] = runs[0]!;
  const head = ['tool', 'asked', 'request', ...runs.flatMap(([label]) => [`answer ${label}`, `per request byte ${label}`])];
  const lines = first.rows.map((row, i) => [
    row.tool,
    row.what,
    kb(row.requestBytes),
    ...runs.flatMap(([, run]) => {
      const r = run.rows[i]!;
      return [`${kb(r.answerBytes)}${r.isError ? ' (error)' : ''}`, String(Number((r.answerBytes / r.requestBytes).toPrecision(2)))];
    }),
  ]);
  const widths = head.map((h, c) => Math.max(h.length, ...lines.map((l) => l[c]!.length)));
  for (const line of [head, ...lines]) console.log(line.map((cell, c) => cell.padEnd(widths[c]!)).join('  '));
  for (const [label, run] of runs) {
    const s = run.session;
    console.log(
      `\n${label}: get_execution (10 MB, fullData) in a 2025 session: ${s.answered ? `answered, ${kb(s.answerBytes)} in ${s.seconds} s: ${s.said}` : `no answer in ${s.seconds} s`}`,
    );
    for (const p of run.parse) {
      console.log(
        `${label}: an execution's JSON (${p.shape}) parses into ${p.perByte.toFixed(2)} bytes of objects per byte (${kb(p.executionBytes)} → ${kb(p.heapBytes)})`,
      );
    }
  }
}

if (flags.compare) {
  table(
    process.argv
      .slice(2)
      .filter((a) => a.endsWith('.json'))
      .map((path) => [path.replace(/^.*\//, '').replace(/\.json$/, ''), JSON.parse(readFileSync(path, 'utf8')) as Run]),
  );
  process.exit(0);
}

const n8n = await startFakeN8n('n8n_api_bench_key');
const server = await startWranglerDev({
  vars: { N8N_API_URL: n8n.url, N8N_API_KEY: n8n.apiKey, RATE_LIMITS: 'off' },
  env: { CATALOGS: 'seed' },
});
const auth = { authorization: `Bearer ${server.apiKey}` };
const accept = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };

const fake = (path: string, body: unknown) =>
  fetch(`${n8n.url}/__fake/${path}`, { method: 'POST', body: JSON.stringify(body) }).then((r) => r.json() as Promise<{ id: string }>);
const n8nApi = (method: string, path: string, body?: unknown) =>
  fetch(`${n8n.url}/api/v1${path}`, { method, headers: { 'x-n8n-api-key': n8n.apiKey, 'content-type': 'application/json' }, body: JSON.stringify(body) }).then(
    (r) => r.json() as Promise<Record<string, any>>,
  );

/** The first JSON-RPC message with `id` in a body (SSE or JSON), and the bytes it took. */
function answerIn(text: string, contentType: string, id: number): { message: any; bytes: number } | undefined {
  const datas = contentType.startsWith('text/event-stream') ? parseSse(text).map((e) => e.data) : [text];
  for (const data of datas) {
    if (!data) continue;
    const message = JSON.parse(data);
    if (message.id === id) return { message, bytes: utf8(data) };
  }
  return undefined;
}

const saidOf = (message: any) => {
  const text: string = message?.result?.content?.[0]?.text ?? message?.error?.message ?? '';
  return text.slice(0, 90).replaceAll('\n', ' ');
};

let nextId = 1;
/** A 2026-07-28 tools/call, answered in the Worker: its row, and its text read as JSON (undefined when it is not). */
async function call(tool: string, args: Record<string, unknown>, what: string): Promise<{ row: Row; json: any }> {
  const id = nextId++;
  const meta = {
    'io.modelcontextprotocol/protocolVersion': '2026-07-28',
    'io.modelcontextprotocol/clientInfo': { name: 'bench', version: '1' },
    'io.modelcontextprotocol/clientCapabilities': {},
  };
  const body = JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: tool, arguments: args, _meta: meta } });
  const started = Date.now();
  const response = await fetch(`${server.url}/mcp`, {
    method: 'POST',
    headers: { ...accept, ...auth, 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'tools/call', 'mcp-name': tool },
    body,
  });
  const text = await response.text();
  const found = answerIn(text, response.headers.get('content-type') ?? '', id);
  if (!found) throw new Error(`${tool}: no answer (HTTP ${response.status}) ${text.slice(0, 300)}`);
  const row = {
    tool,
    what,
    requestBytes: utf8(body),
    answerBytes: found.bytes,
    isError: found.message.result?.isError === true || found.message.error !== undefined,
    seconds: Math.round((Date.now() - started) / 100) / 10,
    said: saidOf(found.message),
  };
  console.error(`${tool} (${what}): ${kb(row.requestBytes)} → ${kb(row.answerBytes)}${row.isError ? ' error' : ''}, ${row.seconds} s`);
  let json: unknown;
  try {
    json = JSON.parse(found.message.result?.content?.[0]?.text ?? '');
  } catch {
    // a sentence
  }
  return { row, json };
}

/** The same call in a 2025 session (its answer kept in the session object's event store): whether it comes within `seconds`. */
async function inSession(tool: string, args: Record<string, unknown>, seconds: number): Promise<Run['session']> {
  const version = '2025-11-25';
  const init = await fetch(`${server.url}/mcp`, {
    method: 'POST',
    headers: { ...accept, ...auth },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 0,
      method: 'initialize',
      params: { protocolVersion: version, capabilities: {}, clientInfo: { name: 'bench', version: '1' } },
    }),
  });
  await init.text();
  const session = { ...accept, ...auth, 'mcp-session-id': init.headers.get('mcp-session-id')!, 'mcp-protocol-version': version };
  await fetch(`${server.url}/mcp`, { method: 'POST', headers: session, body: JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }) }).then(
    (r) => r.text(),
  );
  const started = Date.now();
  const timeout = AbortSignal.timeout(seconds * 1000);
  try {
    const response = await fetch(`${server.url}/mcp`, {
      method: 'POST',
      headers: session,
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: tool, arguments: args } }),
      signal: timeout,
    });
    // The stream stays open until the answer; read until it carries one.
    const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
    let text = '';
    for (let read = await reader.read(); !read.done; read = await reader.read()) {
      text += read.value;
      const found = answerIn(text.slice(0, text.lastIndexOf('\n\n') + 2), 'text/event-stream', 1);
      if (found) {
        await reader.cancel();
        return { answered: true, answerBytes: found.bytes, seconds: Math.round((Date.now() - started) / 100) / 10, said: saidOf(found.message) };
      }
    }
  } catch {
    // out of time
  }
  return { answered: false, answerBytes: 0, seconds: Math.round((Date.now() - started) / 100) / 10, said: '' };
}

const rows: Row[] = [];
const measure = async (tool: string, args: Record<string, unknown>, what: string) => {
  const { row, json } = await call(tool, args, what);
  rows.push(row);
  return json;
};
try {
  // ~10 MB: 45,000 items of the fake's ~220 bytes.
  const large = await fake('executions', { workflowId: 'wfBenchLarge1', items: 45_000 });
  for (let n = 0; n < 10; n++) await fake('executions', { workflowId: 'wfBenchTen1', items: 8_000 });
  await measure('get_execution', { id: large.id, includeData: true, fullData: true }, '10 MB execution, fullData');
  await measure('list_executions', { workflowId: 'wfBenchTen1', includeData: true, fullData: true, limit: 10 }, '10 × 1.8 MB, fullData');

  const big = largeWorkflow('Bench large', 8, 370_000);
  const { id: inN8n } = await n8nApi('POST', '/workflows', big);
  await measure('get_workflow', { id: inN8n }, '3 MB workflow');
  const { id } = await measure('create_workflow', { workflow: { ...big, name: 'Bench kept' }, force: true }, '3 MB workflow');
  await measure('update_workflow', { id, workflow: largeWorkflow('Bench kept', 8, 370_000, 'b'), force: true }, '3 MB, every node changed');
  const { versions } = (await call('list_workflow_versions', { id }, 'its versions')).json;
  const { version } = versions.at(-1);
  await measure('get_workflow_version', { id, version }, '3 MB version');
  await measure('diff_workflow_versions', { id, from: version }, 'every node changed');
  await measure('autofix_workflow', { workflow: big }, '3 MB workflow');
  const payload = { blob: 'x'.repeat(1_000_000) };
  await measure('save_workflow_test', { id, test: { name: 'one', payload } }, '1 MB payload');
  for (const name of ['two', 'three']) await call('save_workflow_test', { id, test: { name, payload } }, '1 MB payload');
  await measure('list_workflow_tests', { id }, '3 tests of 1 MB');

  const session = await inSession('get_execution', { id: large.id, includeData: true, fullData: true }, 90);
  console.error(`2025 session: ${session.answered ? `answered ${kb(session.answerBytes)}` : 'no answer'} in ${session.seconds} s`);

  // What an execution's JSON parses into: the heap it takes, per byte of JSON (Node's V8, as workerd's; run with --expose-gc).
  const gc = (globalThis as { gc?: () => void }).gc ?? (() => {});
  const heapOf = (shape: string, text: string) => {
    gc();
    const before = process.memoryUsage().heapUsed;
    const parsed: unknown = JSON.parse(text);
    gc();
    const heapBytes = process.memoryUsage().heapUsed - before;
    if (parsed === null) throw new Error('unreachable: keeps the parsed value alive until measured');
    return { shape, executionBytes: utf8(text), heapBytes, perByte: heapBytes / utf8(text) };
  };
  const people = Array.from({ length: 40_000 }, (_, i) => ({
    json: {
      id: i,
      name: `Customer ${i}`,
      email: `user${i}@example.com`,
      score: i * 0.5,
      active: i % 2 === 0,
      tags: ['a', 'b'],
      note: 'lorem ipsum '.repeat(6),
    },
    pairedItem: { item: i },
  }));
  const parse = [
    heapOf(
      "the fake's items",
      await fetch(`${n8n.url}/api/v1/executions/${large.id}?includeData=true`, { headers: { 'x-n8n-api-key': n8n.apiKey } }).then((r) => r.text()),
    ),
    heapOf('names, e-mails, numbers', JSON.stringify({ id: '1', data: { resultData: { runData: { Code: [{ data: { main: [people] } }] } } } })),
  ];

  const run: Run = { rows, session, parse };
  table([['this tree', run]]);
  mkdirSync(dirname(flags.out), { recursive: true });
  writeFileSync(flags.out, JSON.stringify(run, null, 2) + '\n');
} finally {
  await server.stop();
  await n8n.stop();
}
