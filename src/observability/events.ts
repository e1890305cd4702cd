import { isSessionId } from '../lib/sessionIds';
import type { Env } from '../env';
import type { WorkerRequest } from '../http/request';

/**
 * What the server reports about itself: JSON log lines (what `wrangler tail` and Workers Logs show)
 * and, when the METRICS binding is there, Workers Analytics Engine data points. Events carry names,
 * ids, outcomes and timings only — never credentials, never tool arguments.
 */
export type ObservedEvent =
  /** Every HTTP request the Worker answers; `ms` is the time to the response's headers. */
  | {
      kind: 'request';
      route: string;
      httpMethod: string;
      status: number;
      ms: number;
      rpc?: string;
      tool?: string;
      session?: string;
      principal?: string;
      era?: 'modern';
    }
  /** Every tool run, directly or by the queue consumer; `outcome` is ok, error (an isError result) or failed (threw). */
  | { kind: 'tool'; tool: string; execution: 'direct' | 'queued'; outcome: 'ok' | 'error' | 'failed'; ms: number; session?: string }
  /** A queued call picked up by the consumer: how long it waited in the queue, on which attempt. */
  | { kind: 'queue'; tool: string; waitMs: number; attempt: number }
  /** A search_nodes query (its size and result count, not its text). */
  | { kind: 'search'; ms: number; hits: number; queryLength: number }
  /**
   * A session object's alarm: what an idle session still costs (bench/idle.ts). `outcome`: the session
   * was kept (deadline not reached, a waiting call, an open legacy stream) or closed.
   */
  | { kind: 'alarm'; outcome: 'kept' | 'closed'; ms: number; session: string };

/**
 * Analytics Engine rows, one layout for every kind so one SQL table serves them all:
 * index1 = kind; blob1 kind, blob2 name (route or tool), blob3 outcome or status, blob4 detail
 * (HTTP method, execution mode, JSON-RPC method); double1 duration ms, double2 a count (status, hits,
 * attempt), double3 a second measure (query length).
 */
export function dataPoint(event: ObservedEvent): AnalyticsEngineDataPoint {
  switch (event.kind) {
    case 'request':
      return row(event.kind, [event.route, String(event.status), `${event.httpMethod} ${event.rpc ?? ''}`.trim()], [event.ms, event.status]);
    case 'tool':
      return row(event.kind, [event.tool, event.outcome, event.execution], [event.ms, 1]);
    case 'queue':
      return row(event.kind, [event.tool, 'picked-up', ''], [event.waitMs, event.attempt]);
    case 'search':
      return row(event.kind, ['search_nodes', event.hits === 0 ? 'no-hits' : 'hits', ''], [event.ms, event.hits, event.queryLength]);
    case 'alarm':
      return row(event.kind, ['session', event.outcome, ''], [event.ms, 1]);
  }
}

const row = (kind: string, blobs: string[], doubles: number[]): AnalyticsEngineDataPoint => ({ indexes: [kind], blobs: [kind, ...blobs], doubles });

/**
 * Every event becomes a data point; a log line is written for every request (`info`, `warn` when it
 * failed) and for tool runs that did not go well (`warn`). One line per request is what `wrangler tail`
 * needs; with LOG_LEVEL=warn only the warnings are written. (A line per tool run and search on top cost
 * a fifth of the throughput under load in `wrangler dev`, and the metrics have them.)
 */
export function observe(env: Env, event: ObservedEvent): void {
  const level = logLevelOf(event);
  if (level === 'warn' || (level === 'info' && env.LOG_LEVEL !== 'warn')) console.log(JSON.stringify({ level, ...event }));
  env.METRICS?.writeDataPoint(dataPoint(event));
}

function logLevelOf(event: ObservedEvent): 'info' | 'warn' | undefined {
  if (event.kind === 'request') return event.status >= 400 ? 'warn' : 'info';
  if (event.kind === 'alarm') return 'info';
  if (event.kind === 'tool' && event.outcome !== 'ok') return 'warn';
  return undefined;
}

/** The request's event: its route pattern (never the raw path of an unknown one), status, timing, and what it was about. */
export function requestEvent(request: WorkerRequest, response: Response): ObservedEvent {
  const route = request.route && request.route !== '*' ? request.route : 'other';
  // The URL is parsed only for the legacy routes that name the session in it.
  const inQuery = request.url.includes('sessionId=') ? new URL(request.url).searchParams.get('sessionId') : null;
  const session = [request.headers.get('mcp-session-id'), response.headers.get('mcp-session-id'), inQuery].find(isSessionId);
  return {
    kind: 'request',
    route,
    httpMethod: request.method,
    status: response.status,
    ms: Date.now() - (request.startedAt ?? Date.now()),
    ...(request.rpc ? { rpc: request.rpc } : {}),
    ...(request.tool ? { tool: request.tool } : {}),
    ...(session ? { session } : {}),
    ...(request.principal ? { principal: request.principal.id } : {}),
    ...(request.era ? { era: request.era } : {}),
  };
}
