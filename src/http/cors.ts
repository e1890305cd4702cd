import { HttpError } from '../protocol/httpError';
import { ErrorCode } from '../protocol/jsonrpc';
import type { Env } from '../env';
import { isLoopbackHost } from './hosts';

/**
 * Request headers a browser may send us: every one the MCP SDK's 2.x client sets (its Streamable HTTP
 * transport: Mcp-Method and Mcp-Name on each 2026-07-28 request, DPoP with DPoP-bound tokens,
 * Last-Event-ID on resumption), named because a wildcard never covers Authorization and does not count
 * on credentialed requests; then `*` for the rest it can send, whose names vary: a tool's
 * `Mcp-Param-{Name}` headers (SEP-2243) and the caller's own `requestInit` headers.
 */
const ALLOW_HEADERS = 'Content-Type, Accept, Authorization, DPoP, Mcp-Session-Id, Mcp-Protocol-Version, Mcp-Method, Mcp-Name, Last-Event-ID, *';
/** Browsers only let scripts read these response headers when they are listed: the 2.x client reads the session id and the auth challenge. */
const EXPOSE_HEADERS = 'Mcp-Session-Id, Mcp-Protocol-Version, WWW-Authenticate';
const ALLOW_METHODS = 'GET, POST, DELETE, OPTIONS';

/**
 * The request's Origin when it may call us, null when it sent none (CLI clients, n8n, mcp-remote).
 * Allowed: the server's own origin, the ALLOWED_ORIGINS list, and any localhost origin while the server
 * itself is served from localhost (local development). Anything else is 403: DNS-rebinding protection.
 */
export function allowedOrigin(request: Request, env: Env): string | null {
  const origin = request.headers.get('origin');
  if (origin === null) return null;
  const self = new URL(request.url);
  if (origin === self.origin) return origin;
  const allowList = (env.ALLOWED_ORIGINS ?? '')
    .split(',')
    .map((o) => o.trim())
    .filter(Boolean);
  if (allowList.includes(origin) || allowList.includes('*')) return origin;
  if (isLoopbackHost(self.hostname) && isLocalOrigin(origin)) return origin;
  throw new HttpError(403, ErrorCode.InvalidRequest, `Forbidden: origin ${JSON.stringify(origin)} is not allowed`);
}

function isLocalOrigin(origin: string): boolean {
  try {
    return isLoopbackHost(new URL(origin).hostname);
  } catch {
    return false;
  }
}

export function preflight(origin: string | null): Response {
  return new Response(null, {
    status: 204,
    headers: {
      'Access-Control-Allow-Origin': origin ?? '*',
      'Access-Control-Allow-Methods': ALLOW_METHODS,
      'Access-Control-Allow-Headers': ALLOW_HEADERS,
      'Access-Control-Max-Age': '86400',
      Vary: 'Origin',
    },
  });
}

/** CORS headers on the real response too, so browsers can read Mcp-Session-Id. */
export function withCors(response: Response, origin: string | null): Response {
  const headers = new Headers(response.headers);
  headers.set('Access-Control-Allow-Origin', origin ?? '*');
  headers.set('Access-Control-Expose-Headers', EXPOSE_HEADERS);
  headers.set('Vary', 'Origin');
  return new Response(response.body, { status: response.status, statusText: response.statusText, headers });
}
