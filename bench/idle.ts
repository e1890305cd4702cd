/**
 * What an idle connected client costs its session object. Clients connect, then wait, the way Claude
 * Code holds its GET /mcp stream and n8n its /sse stream open between calls. Against `wrangler dev`
 * with a short idle TTL, so the alarms an idle session still gets fall inside the run; from the
 * server's own log lines (LOG_LEVEL=info) it counts what each client's object did while the client
 * waited: requests served, alarms run and how long each took.
 *
 *   npm run bench:idle -- [--seconds 35] [--ttl 10]
 *
 * The object holds no client stream (the Worker does, src/sessions/handoff/heldStream.ts), so it is active only
 * while it handles an event: active wall time per idle client per hour = its events per hour × their
 * duration. An idle client sends no event; the object's own alarm wakes it once per idle TTL (a legacy
 * SSE session is extended, a Streamable HTTP one ends). Before, the object served the client's open
 * response all along: 3,600 s per hour, whatever it did.
 * Prints a table and writes bench/results/idle.json.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { startWranglerDev } from '../scripts/lib/wranglerDev.ts';
import { percentile, round } from './lib/stats.ts';

const { values: flags } = parseArgs({ options: { seconds: { type: 'string', default: '35' }, ttl: { type: 'string', default: '10' } } });
const SECONDS = Number(flags.seconds);
const TTL = Number(flags.ttl);
/** wrangler.toml's SESSION_IDLE_TTL_SECONDS: what a deployment's idle sessions get. */
const DEFAULT_TTL = 3600;

interface LogEvent {
  kind: string;
  session?: string;
  ms?: number;
  outcome?: string;
  route?: string;
}

const server = await startWranglerDev({ vars: { LOG_LEVEL: 'info', SESSION_IDLE_TTL_SECONDS: String(TTL) }, requestLimit: 10_000_000, logLevel: 'log' });
const auth = { authorization: `Bearer ${server.apiKey}` };
const json = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };

/** Reads a stream to its end or until aborted; counts its keepalive comments and whether it ended. */
function watch(response: Response, signal: AbortSignal) {
  const seen = { bytes: 0, keepalives: 0, ended: false, text: '' };
  const done = (async () => {
    const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
    signal.addEventListener('abort', () => void reader.cancel().catch(() => {}));
    try {
      for (let read = await reader.read(); !read.done; read = await reader.read()) {
        seen.text += read.value;
        seen.keepalives += read.value.split(': keepalive').length - 1;
      }
      seen.ended = !signal.aborted;
    } catch {
      seen.ended = !signal.aborted;
    }
  })();
  return { seen, done };
}

/** A Streamable HTTP client: initialize, initialized, then its GET stream held open. */
async function streamableClient(signal: AbortSignal) {
  const init = await fetch(`${server.url}/mcp`, {
    method: 'POST',
    headers: { ...json, ...auth },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'idle', version: '1' } },
    }),
  });
  await init.text();
  const session = init.headers.get('mcp-session-id')!;
  const headers = { ...auth, 'mcp-session-id': session, 'mcp-protocol-version': '2025-11-25' };
  await fetch(`${server.url}/mcp`, {
    method: 'POST',
    headers: { ...json, ...headers },
    body: JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }),
  });
  const stream = await fetch(`${server.url}/mcp`, { headers: { ...headers, accept: 'text/event-stream' }, signal });
  return { session, ...watch(stream, signal) };
}

/** A legacy HTTP+SSE client (n8n's SSE endpoint): the stream, initialize, initialized. */
async function legacyClient(signal: AbortSignal) {
  const stream = await fetch(`${server.url}/sse`, { headers: { ...auth, accept: 'text/event-stream' }, signal });
  const watched = watch(stream, signal);
  while (!/data: (\/messages\S+)/.test(watched.seen.text)) await new Promise((r) => setTimeout(r, 20));
  const endpoint = /data: (\/messages\S+)/.exec(watched.seen.text)![1]!;
  const post = (body: unknown) => fetch(`${server.url}${endpoint}`, { method: 'POST', headers: { ...json, ...auth }, body: JSON.stringify(body) });
  await post({
    jsonrpc: '2.0',
    id: 1,
    method: 'initialize',
    params: { protocolVersion: '2024-11-05', capabilities: {}, clientInfo: { name: 'idle', version: '1' } },
  });
  await post({ jsonrpc: '2.0', method: 'notifications/initialized' });
  return { session: new URL(endpoint, server.url).searchParams.get('sessionId')!, ...watched };
}

try {
  const stop = new AbortController();
  const clients = { 'Streamable HTTP (GET /mcp held)': await streamableClient(stop.signal), 'legacy SSE (/sse held)': await legacyClient(stop.signal) };
  const idleFrom = server.logs().length;
  await new Promise((r) => setTimeout(r, SECONDS * 1000));
  stop.abort();
  await Promise.all(Object.values(clients).map((c) => c.done));
  const events = server
    .logs()
    .slice(idleFrom)
    .split('\n')
    .flatMap((line) => {
      try {
        return [JSON.parse(line.slice(line.indexOf('{'))) as LogEvent];
      } catch {
        return [];
      }
    });

  const rows = Object.entries(clients).map(([client, { session, seen }]) => {
    const mine = events.filter((event) => event.session === session);
    const alarms = mine.filter((event) => event.kind === 'alarm');
    const alarmMs = alarms.map((event) => event.ms ?? 0).sort((a, b) => a - b);
    const medianAlarmMs = alarmMs.length ? percentile(alarmMs, 50) : 0;
    // At the default TTL an idle session's object wakes once per hour: its alarm (extend, or end).
    return {
      client,
      idleSeconds: SECONDS,
      requests: mine.filter((event) => event.kind === 'request').length,
      alarms: alarms.length,
      alarmOutcomes: alarms.map((event) => event.outcome),
      medianAlarmMs: round(medianAlarmMs, 1),
      keepalivesReceived: seen.keepalives,
      streamEndedByServer: seen.ended,
      activeMsPerHourAtDefaultTtl: round(medianAlarmMs * (3600 / DEFAULT_TTL), 1),
      activeMsPerHourBefore: 3_600_000,
    };
  });
  console.log(`idle clients, ${SECONDS} s, SESSION_IDLE_TTL_SECONDS=${TTL} for the run (${DEFAULT_TTL} deployed)\n`);
  console.log('client                           requests  alarms (outcome)            alarm ms  keepalives  active ms/h now  before');
  for (const row of rows) {
    const alarms = `${row.alarms} (${row.alarmOutcomes.join(', ')})`;
    console.log(
      `${row.client.padEnd(33)}${String(row.requests).padStart(8)}  ${alarms.padEnd(26)}${String(row.medianAlarmMs).padStart(9)}${String(row.keepalivesReceived).padStart(12)}${String(row.activeMsPerHourAtDefaultTtl).padStart(17)}${String(row.activeMsPerHourBefore).padStart(9)}`,
    );
  }
  mkdirSync('bench/results', { recursive: true });
  writeFileSync('bench/results/idle.json', JSON.stringify({ seconds: SECONDS, ttl: TTL, rows }, null, 2) + '\n');
} finally {
  await server.stop();
}
