import type { Env } from '../env';
import { HttpError } from '../protocol/httpError';
import { ErrorCode } from '../protocol/jsonrpc';

const LOCAL_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);

/** Whether a URL's hostname names this machine (`[::1]` as URL.hostname spells it). */
export const isLoopbackHost = (hostname: string): boolean => LOCAL_HOSTS.has(hostname);

/** An ALLOWED_HOSTS entry: a host name, and the one port it is served on when the entry names one. */
interface AllowedHost {
  hostname: string;
  port?: string;
}

const ENTRY = /^(\[[0-9a-f:.]+\]|[^:[\]]+)(?::(\d{1,5}))?$/;

/**
 * ALLOWED_HOSTS, comma-separated `host` or `host:port` entries: the loopback names on the port it
 * serves under `npm run dev`; null when unset or empty (a deployment). An entry that does not parse
 * allows nothing.
 */
export function allowedHosts(env: Env): AllowedHost[] | null {
  const entries = (env.ALLOWED_HOSTS ?? '')
    .split(',')
    .map((entry) => entry.trim().toLowerCase())
    .filter(Boolean);
  if (entries.length === 0) return null;
  return entries.flatMap((entry) => {
    const [, hostname, port] = ENTRY.exec(entry) ?? [];
    if (hostname === undefined) return [];
    return [{ hostname, ...(port === undefined ? {} : { port: String(Number(port)) }) }];
  });
}

const portOf = (url: URL): string => url.port || (url.protocol === 'https:' ? '443' : '80');

/**
 * DNS-rebinding protection for servers that are not behind Cloudflare's routing (local `wrangler dev`):
 * when ALLOWED_HOSTS is set, a request whose Host is not in it (on the entry's port, if it names one)
 * is refused, before anything takes the request's origin for its own (OAuth metadata, links). Deployed
 * Workers leave it empty, since Cloudflare only routes hostnames the account owns to them.
 */
export function assertAllowedHost(request: Request, env: Env): void {
  const allowed = allowedHosts(env);
  if (allowed === null) return;
  const url = new URL(request.url);
  if (!allowed.some(({ hostname, port }) => hostname === url.hostname && (port === undefined || port === portOf(url)))) {
    throw new HttpError(403, ErrorCode.InvalidRequest, `Forbidden: host ${JSON.stringify(url.host)} is not allowed`);
  }
}
