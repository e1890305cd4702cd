import { afterEach, describe, expect, it, vi } from 'vitest';
import { catalogsFromArgs, DEFAULT_CATALOGS } from '../../scripts/catalog/build';

describe('which catalogs a build takes', () => {
  afterEach(() => vi.unstubAllEnvs());

  it("serves n8n's nodes and the community's by default; the seed taxonomy only when asked for", () => {
    vi.stubEnv('CATALOGS', undefined);
    expect(DEFAULT_CATALOGS).toBe('n8n,community');
    expect(catalogsFromArgs([])).toEqual(['n8n', 'community']);
    expect(catalogsFromArgs(['--catalogs', 'seed'])).toEqual(['seed']);
    expect(catalogsFromArgs(['--port', '8788', '--catalogs', 'seed,n8n'])).toEqual(['seed', 'n8n']);
    vi.stubEnv('CATALOGS', 'seed');
    expect(catalogsFromArgs([])).toEqual(['seed']);
  });
});
