import type { IRequest } from 'itty-router';
import type { Principal } from '../principal';

/** A request on its way through the Worker, carrying what each step learned for the next ones and the log line. */
export type WorkerRequest = IRequest & {
  /** When the Worker got it (ms). */
  startedAt?: number;
  /** The allowed Origin, from the `before` check to the CORS headers. */
  origin?: string | null;
  /** Who is calling, from `authenticated` to the route. */
  principal?: Principal;
  /** The JSON-RPC method(s) and the tool called, for the log line (never arguments). */
  rpc?: string;
  tool?: string;
  /** Set for a 2026-07-28 request, answered without a session. */
  era?: 'modern';
};

/** The principal `authenticated` attached; a route mounted without that step is a bug, not a 401. */
export function principalOf(request: WorkerRequest): Principal {
  if (!request.principal) throw new Error('route mounted without authentication');
  return request.principal;
}
