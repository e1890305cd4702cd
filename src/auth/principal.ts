import type { WorkerRequest } from '../http/request';

/**
 * Who is calling, as the Worker established it on this request. Sessions are bound to `id`; rate
 * limits count per `subject`. Plain data: it travels to the session object over RPC.
 */
export interface Principal {
  /** The credential: `key:<id>` for an API key, `oauth:<grant id>` for an OAuth grant, `anonymous`. */
  id: string;
  /** The identity behind it: the API key or operator an OAuth grant was approved with; per IP when anonymous. */
  subject: string;
  scopes: readonly string[];
}

/** The principal `authenticated` attached; a route mounted without that step is a bug, not a 401. */
export function principalOf(request: WorkerRequest): Principal {
  if (!request.principal) throw new Error('route mounted without authentication');
  return request.principal;
}
