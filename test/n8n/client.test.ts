import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { N8nClient } from '../../src/n8n/client';
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
});
