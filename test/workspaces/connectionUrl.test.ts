import { describe, expect, it } from 'vitest';
import { addressKind, checkConnectionUrl, type UrlPolicy } from '../../src/workspaces/connectionUrl';

const deployed: UrlPolicy = { serverOnLoopback: false, allowPrivateNetworks: false };
const dev: UrlPolicy = { serverOnLoopback: true, allowPrivateNetworks: false };
const problem = (raw: string, policy = deployed) => {
  const verdict = checkConnectionUrl(raw, policy);
  return 'problem' in verdict ? verdict.problem : undefined;
};

/** One test per rule of what the Worker will call (issue 41, item 5). */
describe('n8n connection URLs', () => {
  it('takes an https instance URL, with or without /api/v1 and a trailing slash, as its base', () => {
    for (const raw of ['https://n8n.example.com', 'https://n8n.example.com/', 'https://n8n.example.com/api/v1', ' https://n8n.example.com/api/v1/ '])
      expect(checkConnectionUrl(raw, deployed), raw).toEqual({ base: 'https://n8n.example.com' });
    expect(checkConnectionUrl('https://example.com:8443/n8n/api/v1', deployed)).toEqual({ base: 'https://example.com:8443/n8n' });
  });

  it('refuses http in a deployment; takes it for a loopback n8n only while the server runs on loopback', () => {
    expect(problem('http://n8n.example.com')).toMatch(/must use https .* as under npm run dev/);
    expect(problem('http://127.0.0.1:5678')).toMatch(/must use https/);
    expect(checkConnectionUrl('http://127.0.0.1:5678', dev)).toEqual({ base: 'http://127.0.0.1:5678' });
    expect(checkConnectionUrl('http://localhost:5678/api/v1', dev)).toEqual({ base: 'http://localhost:5678' });
    // Loopback dev is about loopback: a private address over http stays refused.
    expect(problem('http://192.168.1.20:5678', dev)).toMatch(/must use https/);
  });

  it('refuses private, loopback and link-local addresses in every spelling unless the operator allows private networks', () => {
    const inside = [
      'https://10.0.0.5',
      'https://172.20.1.1',
      'https://192.168.0.10',
      'https://100.100.1.1',
      'https://169.254.169.254',
      'https://127.0.0.1',
      'https://2130706433', // 127.0.0.1 as one number
      'https://0x7f.1', // and in hex
      'https://[::1]',
      'https://[::ffff:127.0.0.1]',
      'https://[::ffff:a9fe:a9fe]', // 169.254.169.254, mapped
      'https://[fd00::1]',
      'https://[fe80::1]',
      'https://localhost',
      'https://n8n.localhost',
      'https://n8n.internal',
      'https://0.0.0.0',
    ];
    for (const raw of inside) {
      expect(problem(raw), raw).toMatch(/address, which this server does not call unless its operator allows private networks \(ALLOW_PRIVATE_N8N=true\)/);
      expect(checkConnectionUrl(raw, { serverOnLoopback: false, allowPrivateNetworks: true }), raw).toHaveProperty('base');
    }
    for (const raw of ['https://172.32.0.1', 'https://100.128.0.1', 'https://8.8.8.8', 'https://[2606:4700::1111]'])
      expect(checkConnectionUrl(raw, deployed), raw).toHaveProperty('base');
  });

  it('refuses credentials, a query or a fragment in the URL, and what is not an http(s) URL, naming the fix', () => {
    expect(problem('https://admin:secret@n8n.example.com')).toMatch(/holds a user name or password: leave them out/);
    expect(problem('https://admin:secret@n8n.example.com')).not.toContain('secret');
    expect(problem('https://n8n.example.com/?key=1')).toMatch(/query or fragment/);
    expect(problem('https://n8n.example.com/#x')).toMatch(/query or fragment/);
    expect(problem('ftp://n8n.example.com')).toMatch(/must start with https:\/\//);
    expect(problem('file:///etc/passwd')).toMatch(/must start with https:\/\//);
    expect(problem('n8n.example.com')).toMatch(/is not a URL: write it as https:\/\/n8n.example.com/);
  });

  it('reads the kind of an address from its spelling, as URL.hostname gives it', () => {
    expect(['n8n.example.com', '1.1.1.1', '[2001:db8::1]'].map(addressKind)).toEqual(['public', 'public', 'public']);
    expect(addressKind('LOCALHOST.')).toBe('loopback');
    expect(addressKind(new URL('https://[::ffff:10.0.0.1]').hostname)).toBe('private');
  });
});
