import { describe, expect, inject, it } from 'vitest';
import { testConnection } from '../../src/workspaces/connectionTest';

/** Against the contract fake of n8n (test/fakes/n8n), which refuses a wrong X-N8N-API-KEY as n8n does and serves an editor page under /n8n-<release>. */
const n8nUrl = inject('n8nUrl');
const n8nKey = inject('n8nKey');

describe('testing a connection before it is saved', () => {
  it('passes when the API takes the key, and reads the release from the editor page', async () => {
    expect(await testConnection(`${n8nUrl}/n8n-1.123.81`, n8nKey)).toEqual({ ok: true, release: '1.123.81' });
    // No editor page where the release is said: the test still passes, the release unknown.
    expect(await testConnection(n8nUrl, n8nKey)).toEqual({ ok: true, release: null });
  });

  it('says the key was refused, naming where to make one, and never repeats the key', async () => {
    const wrong = 'n8n_api_not_the_key_0123456789';
    const result = await testConnection(n8nUrl, wrong);
    expect(result).toEqual({ ok: false, problem: expect.stringMatching(/refused the API key: create one in n8n \(Settings → n8n API\)/) });
    expect(JSON.stringify(result)).not.toContain(wrong);
  });

  it('says there is no public API where the URL points, naming what to give instead', async () => {
    expect(await testConnection(`${n8nUrl}/not-n8n`, n8nKey)).toEqual({
      ok: false,
      problem: expect.stringMatching(/no n8n public API at .*\/not-n8n\/api\/v1: give the instance's own address/),
    });
  });

  it('does not follow a redirect with the key, and says where it led', async () => {
    const redirecting: typeof fetch = async () => new Response(null, { status: 302, headers: { location: 'https://elsewhere.example/api/v1/workflows' } });
    const result = await testConnection('https://n8n.example.com', n8nKey, { fetch: redirecting });
    expect(result).toEqual({ ok: false, problem: expect.stringMatching(/redirects the API to elsewhere.example, which is not followed with the key/) });
  });

  it('gives up after its time-out, and says an unreachable host in words', async () => {
    const silent: typeof fetch = (_url, init) =>
      new Promise((_resolve, reject) => init?.signal?.addEventListener('abort', () => reject(init.signal!.reason as Error)));
    expect(await testConnection('https://n8n.example.com', n8nKey, { fetch: silent, timeoutMs: 50 })).toEqual({
      ok: false,
      problem: expect.stringMatching(/n8n.example.com did not answer in 0.05 s/),
    });
    const refused: typeof fetch = async () => {
      throw new TypeError('fetch failed');
    };
    expect(await testConnection('https://n8n.example.com', n8nKey, { fetch: refused })).toEqual({
      ok: false,
      problem: expect.stringMatching(/could not be reached \(TypeError\): check the address/),
    });
  });
});
