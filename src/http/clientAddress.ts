import type { Env } from '../env';
import { allowedHosts, isLoopbackHost } from './hosts';

/**
 * Whether the request came through Cloudflare's edge, which sets CF-Connecting-IP itself (a client's
 * own is never passed on). Not so under `wrangler dev`, where miniflare keeps a CF-Connecting-IP the
 * client sent: `npm run dev` marks such a server by setting ALLOWED_HOSTS, and a request to a
 * loopback host name never came through Cloudflare either.
 */
export const behindCloudflare = (request: Request, env: Env): boolean => allowedHosts(env) === null && !isLoopbackHost(new URL(request.url).hostname);

/**
 * Where a request comes from, for limits per address: the address Cloudflare saw, an IPv6 one as its
 * /64 (one host commonly holds a whole /64 to pick addresses from). A server not behind Cloudflare has
 * no address it can trust, so every caller shares one: `local`.
 */
export function clientAddress(request: Request, env: Env): string {
  if (!behindCloudflare(request, env)) return 'local';
  const address = request.headers.get('cf-connecting-ip');
  if (address === null) return 'unknown';
  return address.includes(':') ? ipv6Network(address) : address;
}

/** The /64 an IPv6 address is in, as `2001:db8:0:1::/64`; the address itself if it does not parse. */
function ipv6Network(address: string): string {
  const halves = address.toLowerCase().split('::');
  if (halves.length > 2) return address;
  const groups = (half: string | undefined) => (half ? half.split(':') : []);
  const [head, tail] = [groups(halves[0]), groups(halves[1])];
  // An embedded IPv4 address (`::ffff:192.0.2.1`) is the last two groups.
  const length = (half: string[]) => half.reduce((n, group) => n + (group.includes('.') ? 2 : 1), 0);
  const zeros = halves.length === 2 ? 8 - length(head) - length(tail) : 0;
  const all = [...head, ...Array<string>(Math.max(zeros, 0)).fill('0'), ...tail];
  const network = all.slice(0, 4);
  if (length(all) !== 8 || zeros < 0 || !network.every((group) => /^[0-9a-f]{1,4}$/.test(group))) return address;
  return `${network.map((group) => parseInt(group, 16).toString(16)).join(':')}::/64`;
}
