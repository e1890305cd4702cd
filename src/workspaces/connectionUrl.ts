/**
 * What the Worker will call when a user gives an n8n URL (issue 41, item 5): https in a deployment,
 * http only for an n8n on loopback while this server itself runs on loopback (`npm run dev`); no
 * private, loopback or link-local address unless the operator allows private networks; no credentials,
 * query or fragment in the URL. The URL parser has already turned other spellings of an address
 * (`2130706433`, `0x7f.1`, `[::ffff:127.0.0.1]`) into the one checked. Host names are not resolved here:
 * n8n's own name decides where the Worker connects, and Cloudflare's fetch does not reach private
 * networks from a deployment. Pure.
 */

export interface UrlPolicy {
  /** This server answers on loopback (`npm run dev`): an n8n on loopback may be reached over http. */
  serverOnLoopback: boolean;
  /** The operator allows private and link-local addresses (ALLOW_PRIVATE_N8N). */
  allowPrivateNetworks: boolean;
}

/** The policy of a server answering at `serverUrl` (the request's URL) under these variables. */
export const urlPolicyOf = (env: { ALLOW_PRIVATE_N8N?: string | undefined }, serverUrl: string): UrlPolicy => ({
  serverOnLoopback: addressKind(new URL(serverUrl).hostname) === 'loopback',
  allowPrivateNetworks: env.ALLOW_PRIVATE_N8N === 'true',
});

/** The instance's base URL (no `/api/v1`, no trailing slash), or why it is refused, naming the fix. */
export type UrlVerdict = { base: string } | { problem: string };

const EXAMPLE = 'write it as https://n8n.example.com';

export function checkConnectionUrl(raw: string, policy: UrlPolicy): UrlVerdict {
  let url: URL;
  try {
    url = new URL(raw.trim());
  } catch {
    return { problem: `the n8n URL is not a URL: ${EXAMPLE}` };
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return { problem: `the n8n URL must start with https://: ${EXAMPLE}` };
  if (url.username || url.password) return { problem: 'the n8n URL holds a user name or password: leave them out; the n8n API key is given apart' };
  if (url.search || url.hash) return { problem: `the n8n URL has a query or fragment: give the instance's address alone, ${EXAMPLE}` };
  const where = addressKind(url.hostname);
  const loopbackDev = where === 'loopback' && policy.serverOnLoopback;
  if (url.protocol === 'http:' && !loopbackDev)
    return {
      problem: `the n8n URL must use https (${url.host} over http would carry the API key in clear); http is taken only for an n8n on loopback while this server runs on loopback, as under npm run dev`,
    };
  if (where !== 'public' && !loopbackDev && !policy.allowPrivateNetworks)
    return {
      problem: `${url.hostname} is a ${where} address, which this server does not call unless its operator allows private networks (ALLOW_PRIVATE_N8N=true): give the n8n's public https address`,
    };
  const path = url.pathname.replace(/\/+$/, '').replace(/\/api\/v1$/, '');
  return { base: `${url.origin}${path}` };
}

type AddressKind = 'public' | 'loopback' | 'private' | 'link-local';

/** Where a host name (as URL.hostname spells it) points, as far as its spelling says. */
export function addressKind(hostname: string): AddressKind {
  const host = hostname.toLowerCase().replace(/\.$/, '');
  if (host === 'localhost' || host.endsWith('.localhost')) return 'loopback';
  if (host.endsWith('.local') || host.endsWith('.internal') || host.endsWith('.lan') || host.endsWith('.home.arpa')) return 'private';
  const v4 = ipv4(host);
  if (v4) return ipv4Kind(v4);
  if (host.startsWith('[')) return ipv6Kind(host.slice(1, -1));
  return 'public';
}

function ipv4(host: string): number[] | null {
  const parts = host.split('.');
  if (parts.length !== 4 || !parts.every((p) => /^\d{1,3}$/.test(p))) return null;
  const bytes = parts.map(Number);
  return bytes.every((b) => b <= 255) ? bytes : null;
}

function ipv4Kind([a, b]: number[]): AddressKind {
  if (a === 127) return 'loopback';
  if (a === 169 && b === 254) return 'link-local';
  // 0/8 "this network", 10/8, 100.64/10 (carrier-grade NAT), 172.16/12, 192.168/16, 198.18/15 (benchmarking).
  if (
    a === 0 ||
    a === 10 ||
    (a === 100 && b! >= 64 && b! < 128) ||
    (a === 172 && b! >= 16 && b! < 32) ||
    (a === 192 && b === 168) ||
    (a === 198 && (b === 18 || b === 19))
  )
    return 'private';
  return 'public';
}

function ipv6Kind(address: string): AddressKind {
  if (address === '::1') return 'loopback';
  if (address === '::') return 'private';
  // An IPv4 address mapped into IPv6 (the URL parser writes it in hex: ::ffff:7f00:1).
  const mapped = /^::ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})$/.exec(address);
  if (mapped) {
    const [high, low] = [parseInt(mapped[1]!, 16), parseInt(mapped[2]!, 16)];
    return ipv4Kind([high >> 8, high & 255, low >> 8, low & 255]);
  }
  const first = parseInt(address.split(':')[0] || '0', 16);
  if ((first & 0xffc0) === 0xfe80) return 'link-local';
  if ((first & 0xfe00) === 0xfc00) return 'private';
  return 'public';
}
