import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { clearCatalogCache } from '../../src/catalog/catalog';
import { CURRENT_KEY } from '../../src/catalog/keys';
import { SERVER_NAME, SERVER_VERSION } from '../../src/config';
import { loadCatalog, spec } from '../support/catalog';
import { call } from '../support/mcp';

describe('GET /health', () => {
  it('answers, without a credential, what is deployed: the name, version, transports and the catalog loaded', async () => {
    const { manifest } = await loadCatalog([spec('A'), spec('B')]);
    const response = await call('/health', { headers: { authorization: '' } });
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({
      status: 'ok',
      name: SERVER_NAME,
      version: SERVER_VERSION,
      catalogVersion: manifest.version,
      catalog: { specs: 2, sources: ['seed'] },
      transports: ['streamable-http (/mcp)', 'sse (/sse, /mcp/sse)', 'sse-query (/mcp/sse?method=…)'],
    });
  });

  it('says there is no catalog when none was loaded, and is still ok', async () => {
    await env.SPECS.delete(CURRENT_KEY);
    clearCatalogCache();
    expect(await (await call('/health')).json()).toMatchObject({ status: 'ok', catalogVersion: null, catalog: null });
  });
});
