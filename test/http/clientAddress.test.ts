import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { behindCloudflare, clientAddress } from '../../src/http/clientAddress';

const deployed = { ...env, ALLOWED_HOSTS: '' };
/** What `npm run dev` sets. */
const local = { ...env, ALLOWED_HOSTS: 'localhost,127.0.0.1,[::1]' };
const from = (url: string, address?: string) => new Request(url, { headers: address === undefined ? {} : { 'cf-connecting-ip': address } });

describe('clientAddress', () => {
  it('behind Cloudflare: the address Cloudflare set', () => {
    expect(behindCloudflare(from('https://mcp.example/mcp'), deployed)).toBe(true);
    expect(clientAddress(from('https://mcp.example/mcp', '198.51.100.7'), deployed)).toBe('198.51.100.7');
    // Cloudflare always sets it; were it missing, all such requests would share one address.
    expect(clientAddress(from('https://mcp.example/mcp'), deployed)).toBe('unknown');
  });

  it('not behind Cloudflare (ALLOWED_HOSTS set, or a loopback host): one shared address, whatever CF-Connecting-IP the client sent', () => {
    for (const [url, vars] of [
      ['http://localhost:8787/mcp', local],
      ['http://127.0.0.1:8787/mcp', local],
      ['https://mcp.example/mcp', { ...env, ALLOWED_HOSTS: 'mcp.example' }],
      ['http://localhost:8787/mcp', deployed],
      ['http://127.0.0.1:8787/mcp', deployed],
      ['http://[::1]:8787/mcp', deployed],
    ] as const) {
      expect(behindCloudflare(from(url), vars), url).toBe(false);
      for (const address of ['198.51.100.7', '198.51.100.8', '2001:db8::1', undefined]) expect(clientAddress(from(url, address), vars)).toBe('local');
    }
  });

  it('keys an IPv6 address by its /64, however it is written', () => {
    const network = (address: string) => clientAddress(from('https://mcp.example/', address), deployed);
    for (const address of ['2001:db8:0:1::1', '2001:db8:0:1:ffff:ffff:ffff:ffff', '2001:0DB8:0000:0001:0:0:0:2', '2001:db8:0:1::ffff:192.0.2.1']) {
      expect(network(address), address).toBe('2001:db8:0:1::/64');
    }
    expect(network('2001:db8:0:2::1')).toBe('2001:db8:0:2::/64');
    expect(network('::1')).toBe('0:0:0:0::/64');
    expect(network('::ffff:192.0.2.1')).toBe('0:0:0:0::/64');
    // Not an IPv6 address: kept as it is.
    expect(network('1:2:3:4:5:6:7:8:9')).toBe('1:2:3:4:5:6:7:8:9');
    expect(network('1::2::3')).toBe('1::2::3');
    expect(network('zz::1')).toBe('zz::1');
  });
});
