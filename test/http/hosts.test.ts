import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { assertAllowedHost } from '../../src/http/hosts';

const accepts = (url: string, allowedHosts: string) => {
  try {
    assertAllowedHost(new Request(url), { ...env, ALLOWED_HOSTS: allowedHosts });
    return true;
  } catch {
    return false;
  }
};

describe('Host rules (DNS rebinding on a local server)', () => {
  it('refuses a Host outside ALLOWED_HOSTS, even with a matching Origin', () => {
    const rebound = new Request('http://evil.example.com/mcp', { headers: { origin: 'http://evil.example.com' } });
    expect(() => assertAllowedHost(rebound, { ...env, ALLOWED_HOSTS: 'localhost,127.0.0.1,[::1]' })).toThrow(/host "evil.example.com" is not allowed/);
  });

  it('accepts loopback hosts, and any host when ALLOWED_HOSTS is empty (deployed)', () => {
    for (const url of ['http://localhost:8787/mcp', 'http://127.0.0.1:8787/mcp', 'http://[::1]:8787/mcp']) {
      expect(accepts(url, 'localhost,127.0.0.1,[::1]'), url).toBe(true);
    }
    expect(accepts('https://mcp.example/mcp', '')).toBe(true);
  });

  it('holds an entry that names a port to it (what `npm run dev` sets), the default port included', () => {
    const dev = 'localhost:8787,127.0.0.1:8787,[::1]:8787';
    for (const url of ['http://localhost:8787/mcp', 'http://127.0.0.1:8787/', 'http://[::1]:8787/sse']) expect(accepts(url, dev), url).toBe(true);
    for (const url of ['http://localhost:9999/mcp', 'http://127.0.0.1/', 'http://[::1]:1/sse', 'http://evil.example:8787/'])
      expect(accepts(url, dev), url).toBe(false);
    expect(() => assertAllowedHost(new Request('http://localhost:9999/mcp'), { ...env, ALLOWED_HOSTS: dev })).toThrow(/host "localhost:9999" is not allowed/);
    expect(accepts('https://mcp.example/', 'mcp.example:443')).toBe(true);
    expect(accepts('http://mcp.example/', 'mcp.example:443')).toBe(false);
    expect(accepts('http://mcp.example/', 'mcp.example:80')).toBe(true);
  });

  it('refuses everything when ALLOWED_HOSTS is set but none of it parses (it never opens up)', () => {
    expect(accepts('http://localhost:8787/', 'localhost:port, :8787')).toBe(false);
  });
});
