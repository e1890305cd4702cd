import { env } from 'cloudflare:workers';
import { describe, expect, it, vi } from 'vitest';
import { N8nAnswerTooLarge, N8nClient } from '../../src/n8n/client';
import { nodeGate } from '../../src/tools/n8n/nodeGate';

const everyScope = { id: 'key_test', subject: 'key_test', scopes: ['*'] };

describe('the n8n client', () => {
  it('never sends a path the URL parser would resolve elsewhere (the last line behind the tools’ id checks)', async () => {
    // Nothing listens here: a request that were sent would fail with "Could not reach n8n" instead of this.
    const n8n = new N8nClient({ apiBase: 'http://127.0.0.1:1/api/v1', apiKey: 'n8n_api_secret' }, nodeGate(everyScope, env));
    for (const path of ['/workflows/.', '/workflows/..', '/workflows/a/../../rest/settings', '/credentials/schema/%2e/..']) {
      await expect(n8n.get(path), path).rejects.toThrow(/^n8n path .* resolves to .*: not sent$/);
    }
  });

  it('reads no more of an answer than 16 MiB, whether n8n says its length or not, and says what to do', async () => {
    const n8n = new N8nClient({ apiBase: 'http://n8n.example/api/v1', apiKey: 'n8n_api_secret' }, nodeGate(everyScope, env));
    const chunk = new Uint8Array(1024 * 1024).fill(0x20);
    let sent = 0;
    // 18 MiB of spaces, a MiB at a time.
    const body = () =>
      new ReadableStream<Uint8Array>({
        pull(controller) {
          if (++sent > 18) return controller.close();
          controller.enqueue(chunk);
        },
      });
    const said = { 'content-length': String(17 * 1024 * 1024) };
    const fetch = vi
      .spyOn(globalThis, 'fetch')
      .mockImplementation(async (input) =>
        (input instanceof Request ? input.url : input.toString()).includes('said') ? new Response(body(), { headers: said }) : new Response(body()),
      );
    try {
      const refused =
        /^n8n's answer to GET \/api\/v1\/executions(\/said)? is more than the 16 MiB this server reads at once \(a Worker has 128 MB of memory\): ask for less/;
      await expect(n8n.get('/executions/said')).rejects.toThrow(refused);
      expect(sent).toBeLessThanOrEqual(1);
      sent = 0;
      await expect(n8n.get('/executions')).rejects.toBeInstanceOf(N8nAnswerTooLarge);
      expect(sent).toBe(17);
    } finally {
      fetch.mockRestore();
    }
  });

  it('follows no redirect: the key goes only where it was given for, and the error names where the address is set', async () => {
    const sent: string[] = [];
    const fetch = vi.spyOn(globalThis, 'fetch').mockImplementation(async (input, init) => {
      sent.push(`${input instanceof Request ? input.url : input.toString()} ${(init as RequestInit).redirect}`);
      return new Response(null, { status: 302, headers: { location: 'https://elsewhere.example/api/v1/workflows' } });
    });
    try {
      const own = new N8nClient({ apiBase: 'https://n8n.example/api/v1', apiKey: 'n8n_api_secret' }, nodeGate(everyScope, env));
      await expect(own.get('/workflows')).rejects.toThrow(
        /redirects GET \/api\/v1\/workflows \(302\); the API key is not sent after a redirect: set the address n8n answers at itself as N8N_API_URL/,
      );
      const instance = { workspace: 'aaaaaaaaaaaa', name: 'prod', id: '0000000000000001' };
      const theirs = new N8nClient({ apiBase: 'https://n8n.example/api/v1', apiKey: 'n8n_api_secret', instance }, nodeGate(everyScope, env));
      await expect(theirs.get('/workflows')).rejects.toThrow(/for the connection "prod"/);
      expect(sent).toEqual(['https://n8n.example/api/v1/workflows manual', 'https://n8n.example/api/v1/workflows manual']);
    } finally {
      fetch.mockRestore();
    }
  });
});
