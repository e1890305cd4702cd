/**
 * Load and faults against `wrangler dev` of the test entry (test/entry/worker.ts: the production Worker
 * with the queued test tools and the fault hooks on top): many sessions at once, Streamable HTTP and
 * the legacy HTTP+SSE transport, each a closed loop of tools/list, knowledge tool calls and queued
 * calls for a fixed time. Every JSON-RPC id must get exactly one answer, the right one; the run
 * counts what was sent and answered, errors by kind, latency percentiles and throughput per second.
 *
 * With --faults, while the load runs: session objects reset at random (an eviction mid-use), 20% of
 * queue consumer attempts fail, some calls outlast their deadline, some clients drop a call's stream
 * and resume it with Last-Event-ID, and some never send DELETE. Each is reported with the calls it
 * touched and what they got.
 *
 *   npm run load              60 s, 200 sessions           npm run load -- --faults
 *   npm run load:quick        10 s, 50 sessions (CI, with and without faults)
 *   flags: --seconds N --sessions N --sse SHARE (of legacy SSE sessions, default 0.25)
 *
 * Writes bench/results/load[-faults].json and the charts bench/charts/load[-faults]-*.svg (bench/RESULTS.md's;
 * a --quick run writes its charts to bench/results/ instead).
 * Exits 1 if an answer was lost, duplicated or wrong, on any 5xx without faults, and on any but 503
 * (a reset session object, retry) with them.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { parseArgs } from 'node:util';
import { Agent, setGlobalDispatcher } from 'undici';
import { startWranglerDev, TEST_ENTRY } from '../scripts/lib/wranglerDev.ts';
import { LegacySseSession, StreamableSession, type Call, type Outcome, type Sent, type Target } from './lib/loadClient.ts';
import { percentile, round } from './lib/stats.ts';
import { barChart, lineChart } from './lib/svg.ts';

const { values: flags } = parseArgs({
  options: {
    quick: { type: 'boolean', default: false },
    faults: { type: 'boolean', default: false },
    seconds: { type: 'string' },
    sessions: { type: 'string' },
    sse: { type: 'string', default: '0.25' },
  },
});
const FAULTS = flags.faults;
const SECONDS = Number(flags.seconds ?? (flags.quick ? 10 : 60));
const SESSIONS = Number(flags.sessions ?? (flags.quick ? 50 : 200));
const SSE_SHARE = Number(flags.sse);
/** With faults: the deadline of queued calls, room for a few retries behind the queue's backlog. */
const DEADLINE_S = 30;
const IDLE_TTL_S = FAULTS ? 15 : 3600;
const name = FAULTS ? 'load-faults' : 'load';

setGlobalDispatcher(new Agent({ connections: 4096, pipelining: 1, keepAliveTimeout: 30_000 }));

const QUERIES = ['slack', 'send email', 'http request', 'google sheets', 'webhook', 'ai agent', 'postgres', 'schedule'];
const text = (r: Record<string, any>) => String(r.content?.[0]?.text ?? '');
/** Percentile of unsorted times. */
const pct = (values: number[], p: number) =>
  round(
    percentile(
      [...values].sort((a, b) => a - b),
      p,
    ),
  );
const OPS: Record<string, { weight: number; call: (id: number) => Call }> = {
  'tools/list': { weight: 3, call: () => ({ method: 'tools/list', expect: (r) => r.tools?.some((t: { name: string }) => t.name === 'search_nodes') }) },
  search_nodes: {
    weight: 3,
    call: (id) => ({
      method: 'tools/call',
      params: { name: 'search_nodes', arguments: { query: QUERIES[id % QUERIES.length], max_results: 5 } },
      expect: (r) => Array.isArray(JSON.parse(text(r))) && JSON.parse(text(r)).length > 0,
    }),
  },
  get_node_details: {
    weight: 2,
    call: () => ({
      method: 'tools/call',
      params: {
        name: 'get_node_details',
        arguments: { nodes: [{ node_type: 'ACTION_NODE', subtype: 'n8n-nodes-base.httpRequest' }], include_examples: false },
      },
      expect: (r) => text(r).includes('n8n-nodes-base.httpRequest'),
    }),
  },
  queued: {
    weight: 2,
    call: (id) => ({
      method: 'tools/call',
      params: { name: 'test_queued_echo', arguments: { text: `t${id}` } },
      expect: (r) => r.structuredContent?.echo === `t${id}`,
    }),
  },
  ...(FAULTS
    ? {
        // A consumer slower than the call's deadline (this tool's own is 1 s): the clear answer is a timeout error result.
        slow: {
          weight: 0.2,
          call: () => ({ method: 'tools/call', params: { name: 'test_queued_slow', arguments: { ms: 3000 } }, expect: () => false }),
        },
      }
    : {}),
};
const totalWeight = Object.values(OPS).reduce((sum, op) => sum + op.weight, 0);
function pick(): string {
  let r = Math.random() * totalWeight;
  for (const [op, { weight }] of Object.entries(OPS)) if ((r -= weight) < 0) return op;
  return 'tools/list';
}

interface Record_ extends Sent {
  op: string;
  transport: 'streamable' | 'sse';
  session: number;
  startedAt: number;
  /** Faults that touched this call. */
  faults: string[];
}

const server = await startWranglerDev({
  entry: TEST_ENTRY, // the queued test tools, and the fault hooks
  vars: {
    RATE_LIMITS: 'off', // one key drives every session
    SESSION_IDLE_TTL_SECONDS: String(IDLE_TTL_S),
    ...(FAULTS ? { FAULT_QUEUE_FAIL_RATE: '0.2', TOOL_TIMEOUT_SECONDS: String(DEADLINE_S) } : {}),
  },
});
const target: Target = { url: server.url, apiKey: server.apiKey };
const records: Record_[] = [];
const faultLog = { evictions: 0, evictedCallsInFlight: 0 };
let openFailures = 0;

try {
  // Sessions: a share on the legacy transport; with faults, half the Streamable ones speak 2025-11-25 (resumable).
  const sessions = await Promise.all(
    Array.from({ length: SESSIONS }, async (_, i) => {
      const legacy = i < SESSIONS * SSE_SHARE;
      const session = legacy ? new LegacySseSession(target) : new StreamableSession(target, FAULTS && i % 2 ? '2025-11-25' : '2025-06-18');
      try {
        await session.open();
        return session;
      } catch {
        openFailures++;
        return undefined;
      }
    }),
  );
  const inFlight = new Map<number, Set<Record_>>();
  const start = performance.now();
  const end = start + SECONDS * 1000;
  let nextId = 1;

  // Each client, when its time is up: most say goodbye (DELETE); every fifth Streamable one never does,
  // and is checked to have kept its state (then, with faults, to expire after the idle TTL).
  const goodbyes: number[] = [];
  const abandoned: StreamableSession[] = [];
  let abandonedAlive = 0;
  const loops = sessions.map(async (session, index) => {
    if (!session) return;
    const mine = new Set<Record_>();
    inFlight.set(index, mine);
    while (performance.now() < end) {
      const op = pick();
      const id = nextId++;
      const record = {
        op,
        transport: session instanceof LegacySseSession ? 'sse' : 'streamable',
        session: index,
        startedAt: performance.now() - start,
        faults: [],
      } as unknown as Record_;
      mine.add(record);
      const drop = FAULTS && session instanceof StreamableSession && session.protocolVersion === '2025-11-25' && op === 'queued' && id % 10 === 0;
      if (drop) record.faults.push('stream-dropped');
      if (op === 'slow') record.faults.push('past-deadline');
      if (op === 'queued' && FAULTS) record.faults.push('consumer-failures');
      const sent =
        session instanceof LegacySseSession ? await session.send(id, OPS[op]!.call(id)) : await session.send(id, OPS[op]!.call(id), { dropAfterPriming: drop });
      mine.delete(record);
      records.push(Object.assign(record, sent));
      if (session instanceof LegacySseSession && session.broken) break; // its stream is gone: that client reconnects as a new session
    }
    if (session instanceof LegacySseSession) return;
    if (index % 5 === 0) {
      abandoned.push(session);
      if (await session.alive()) abandonedAlive++;
    } else {
      goodbyes.push(await session.close());
    }
  });

  // Faults: reset a random Streamable session's object every second, marking the calls it had in flight.
  const evictions = FAULTS
    ? (async () => {
        while (performance.now() < end - 1000) {
          await new Promise((r) => setTimeout(r, 1000));
          const candidates = sessions.map((s, i) => [s, i] as const).filter(([s]) => s instanceof StreamableSession);
          const [session, index] = candidates[Math.floor(Math.random() * candidates.length)]!;
          for (const record of inFlight.get(index) ?? []) record.faults.push('evicted');
          faultLog.evictedCallsInFlight += inFlight.get(index)?.size ?? 0;
          faultLog.evictions++;
          await fetch(`${server.url}/__faults/evict?sessionId=${(session as StreamableSession).sessionId}`, { method: 'POST' });
        }
      })()
    : Promise.resolve();
  await Promise.all([...loops, evictions]);
  const elapsed = (performance.now() - start) / 1000;

  // Late answers would show up now: give the legacy streams a moment, then count duplicates there.
  await new Promise((r) => setTimeout(r, 2000));
  const legacyDuplicates = sessions.reduce((sum, s) => sum + (s instanceof LegacySseSession ? s.duplicates() : 0), 0);

  for (const s of sessions) if (s instanceof LegacySseSession) s.close();
  // A session that answered 404 mid-run lost its state: there must be none.
  const lostSessions = new Set(records.filter((r) => r.outcome === 'http-404').map((r) => r.session));
  let expiredAfterTtl: number | null = null;
  if (FAULTS) {
    await new Promise((r) => setTimeout(r, (IDLE_TTL_S + 5) * 1000));
    expiredAfterTtl = (await Promise.all(abandoned.map((s) => s.alive()))).filter((alive) => !alive).length;
  }

  // ---- report ----
  const count = (rs: Record_[], pred: (r: Record_) => boolean) => rs.filter(pred).length;
  const isClearError = (o: Outcome) => o === 'tool-error' || o === 'dropped' || o.startsWith('http-');
  const outcomes: Record<string, number> = {};
  for (const r of records) outcomes[r.outcome] = (outcomes[r.outcome] ?? 0) + 1;
  /** What error answers said, by message with numbers blanked. */
  const errorMessages: Record<string, number> = {};
  for (const r of records) if (r.error) errorMessages[r.error.replace(/\d+/g, 'N')] = (errorMessages[r.error.replace(/\d+/g, 'N')] ?? 0) + 1;
  const lost = count(records, (r) => r.outcome === 'lost');
  const duplicated = count(records, (r) => r.answers > 1) + legacyDuplicates;
  const wrong = count(records, (r) => r.outcome === 'wrong' || r.outcome === 'rpc-error');
  const fivexx = count(records, (r) => /^http-5/.test(r.outcome));
  // Under faults a reset session object answers requests that reach it mid-restart with 503 + Retry-After: a clear error.
  const unexplained5xx = count(records, (r) => /^http-5/.test(r.outcome) && !(FAULTS && r.outcome === 'http-503'));
  const ok = count(records, (r) => r.outcome === 'ok');
  const byOp = Object.fromEntries(
    Object.keys(OPS).map((op) => {
      const rs = records.filter((r) => r.op === op);
      const ms = rs.filter((r) => r.outcome === 'ok').map((r) => r.ms);
      return [op, { calls: rs.length, ok: count(rs, (r) => r.outcome === 'ok'), p50: pct(ms, 50), p90: pct(ms, 90), p99: pct(ms, 99) }];
    }),
  );
  const byTransport = Object.fromEntries(
    (['streamable', 'sse'] as const).map((t) => {
      const rs = records.filter((r) => r.transport === t);
      return [
        t,
        {
          calls: rs.length,
          ok: count(rs, (r) => r.outcome === 'ok'),
          p50: pct(
            rs.map((r) => r.ms),
            50,
          ),
          p99: pct(
            rs.map((r) => r.ms),
            99,
          ),
        },
      ];
    }),
  );
  const faultReport = FAULTS
    ? Object.fromEntries(
        ['evicted', 'stream-dropped', 'consumer-failures', 'past-deadline'].map((fault) => {
          const rs = records.filter((r) => r.faults.includes(fault));
          const answered = count(rs, (r) => r.answers === 1 || isClearError(r.outcome));
          return [
            fault,
            {
              calls: rs.length,
              answeredOnce: answered,
              ok: count(rs, (r) => r.outcome === 'ok'),
              clearError: count(rs, (r) => isClearError(r.outcome)),
              lost: count(rs, (r) => r.outcome === 'lost'),
              resumed: count(rs, (r) => r.resumed === true),
              p99Ms: pct(
                rs.map((r) => r.ms),
                99,
              ),
            },
          ];
        }),
      )
    : undefined;
  const seconds = Math.ceil(elapsed);
  const timeline = { completed: Array(seconds).fill(0), errors: Array(seconds).fill(0) };
  for (const r of records) {
    const second = Math.min(seconds - 1, Math.floor((r.startedAt + r.ms) / 1000));
    timeline.completed[second]++;
    if (r.outcome !== 'ok') timeline.errors[second]++;
  }

  const report = {
    date: new Date().toISOString(),
    cores: cpus().length,
    faults: FAULTS,
    seconds: round(elapsed),
    sessions: { requested: SESSIONS, openFailures, legacySse: Math.round(SESSIONS * SSE_SHARE) },
    sent: records.length,
    answered: records.length - lost,
    rps: round(records.length / elapsed),
    ok,
    outcomes,
    errorMessages,
    exactlyOnce: { lost, duplicated, wrong },
    http5xx: fivexx,
    byOp,
    byTransport,
    ...(faultReport
      ? {
          faultsInjected: {
            evictions: faultLog.evictions,
            evictedCallsInFlight: faultLog.evictedCallsInFlight,
            consumerFailureRate: 0.2,
            deadlineSeconds: DEADLINE_S,
          },
          byFault: faultReport,
        }
      : {}),
    sessionsLostMidRun: lostSessions.size,
    sessionsWithoutDelete: { count: abandoned.length, keptStateAfterRun: abandonedAlive, expiredAfterIdleTtl: expiredAfterTtl, idleTtlSeconds: IDLE_TTL_S },
    deleted: { count: goodbyes.length, status200: goodbyes.filter((s) => s === 200).length },
    timeline,
  };

  mkdirSync('bench/results', { recursive: true });
  writeFileSync(`bench/results/${name}.json`, JSON.stringify(report, null, 2));
  writeFileSync(`bench/results/${name}-calls.json`, JSON.stringify(records));
  const charts = flags.quick ? 'bench/results' : 'bench/charts';
  mkdirSync(charts, { recursive: true });
  const label = `${SESSIONS} sessions${FAULTS ? ', with faults' : ''}`;
  writeFileSync(
    `${charts}/${name}-throughput.svg`,
    lineChart(`Answers per second (${label})`, 'second', 'answers / s', { answered: timeline.completed, 'not ok': timeline.errors }),
  );
  const ops = Object.keys(byOp);
  writeFileSync(
    `${charts}/${name}-latency.svg`,
    barChart(`Latency of answered calls (${label})`, 'call', 'ms', ops, {
      p50: ops.map((o) => byOp[o]!.p50),
      p90: ops.map((o) => byOp[o]!.p90),
      p99: ops.map((o) => byOp[o]!.p99),
    }),
  );
  if (faultReport) {
    const faults = Object.keys(faultReport);
    writeFileSync(
      `${charts}/${name}-outcomes.svg`,
      barChart(`Calls touched by each fault, and what they got`, 'fault', 'calls', faults, {
        ok: faults.map((f) => faultReport[f]!.ok),
        'clear error': faults.map((f) => faultReport[f]!.clearError),
        lost: faults.map((f) => faultReport[f]!.lost),
      }),
    );
  }

  console.log(JSON.stringify({ ...report, timeline: undefined }, null, 2));
  console.log(`\nwrote bench/results/${name}.json and ${charts}/${name}-*.svg`);
  const stateKept = abandonedAlive === abandoned.length && goodbyes.every((s) => s === 200) && lostSessions.size === 0;
  const failed = lost > 0 || duplicated > 0 || wrong > 0 || unexplained5xx > 0 || openFailures > 0 || !stateKept;
  if (failed) {
    console.error(
      `FAILED: lost ${lost}, duplicated ${duplicated}, wrong ${wrong}, 5xx ${fivexx} (not 503 under faults: ${unexplained5xx}), ` +
        `sessions not opened ${openFailures}, sessions lost mid-run ${lostSessions.size}, kept ${abandonedAlive}/${abandoned.length}, DELETE 200 ${goodbyes.filter((s) => s === 200).length}/${goodbyes.length}`,
    );
  }
  process.exitCode = failed ? 1 : 0;
} finally {
  await server.stop();
}
