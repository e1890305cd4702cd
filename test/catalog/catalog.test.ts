import { env } from 'cloudflare:workers';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { buildCatalog } from '../../src/catalog/build';
import { Catalog, clearCatalogCache, listedUnder } from '../../src/catalog/catalog';
import { CURRENT_KEY, indexKey } from '../../src/catalog/keys';
import type { SearchIndex } from '../../src/catalog/search/buildIndex';
import { loadCatalog, spec } from '../support/catalog';

afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
});

describe('pointer flip', () => {
  it('readers see the old catalog until the pointer moves, then the new one', async () => {
    const old = await loadCatalog([spec('OLD')]);
    const next = await buildCatalog([spec('NEW')], { sources: ['seed'] });
    for (const { key, value } of next.entries.slice(0, -1)) await env.SPECS.put(key, value);
    clearCatalogCache();
    const catalog = new Catalog(env.SPECS);
    expect(await catalog.version()).toBe(old.manifest.version);
    expect(await catalog.types()).toEqual({ ACTION_NODE: ['OLD'] });
    await env.SPECS.put(CURRENT_KEY, next.manifest.version);
    clearCatalogCache();
    expect(await catalog.types()).toEqual({ ACTION_NODE: ['NEW'] });
  });

  it('reads an index of another format as no search index, rather than misreading it', async () => {
    const { manifest } = await loadCatalog([spec('A', { description: 'Talks to an API' })]);
    clearCatalogCache();
    expect(await new Catalog(env.SPECS).searcher()).not.toBeNull();
    const key = indexKey(manifest.version);
    const index = JSON.parse((await env.SPECS.get(key))!) as SearchIndex;
    await env.SPECS.put(key, JSON.stringify({ ...index, version: index.version - 1, names: index.names.map(([terms, forms]) => [terms, forms]) }));
    clearCatalogCache();
    expect(await new Catalog(env.SPECS).searcher()).toBeNull();
  });

  it('reads nothing when no catalog was loaded', async () => {
    await env.SPECS.delete(CURRENT_KEY);
    clearCatalogCache();
    const catalog = new Catalog(env.SPECS);
    expect(await catalog.version()).toBeNull();
    expect(await catalog.types()).toEqual({});
  });
});

describe('Catalog.spec', () => {
  /** A node with descriptions for typeVersions 1 and 2 (older) and 3 (newest). */
  const described = async () => {
    const versions = { node_versions: [1, 2, 3] };
    await loadCatalog([
      spec('n8n-nodes-base.thing', { source: 'n8n', version: '3', type_versions: [3], ...versions, description: 'newest' }),
      spec('n8n-nodes-base.thing', { source: 'n8n', version: '2', type_versions: [1, 2], ...versions, description: 'older' }),
    ]);
    return new Catalog(env.SPECS);
  };

  it('answers the newest description, or the one that covers the typeVersion asked', async () => {
    const catalog = await described();
    expect((await catalog.spec('ACTION_NODE', 'n8n-nodes-base.thing'))?.description).toBe('newest');
    expect((await catalog.spec('ACTION_NODE', 'n8n-nodes-base.thing', 3))?.description).toBe('newest');
    expect((await catalog.spec('ACTION_NODE', 'n8n-nodes-base.thing', 1))?.description).toBe('older');
    expect((await catalog.spec('ACTION_NODE', 'n8n-nodes-base.thing', 2))?.description).toBe('older');
  });

  it('answers null for a typeVersion the node does not have, or a node of another type', async () => {
    const catalog = await described();
    expect(await catalog.spec('ACTION_NODE', 'n8n-nodes-base.thing', 4)).toBeNull();
    expect(await catalog.spec('FLOW_NODE', 'n8n-nodes-base.thing')).toBeNull();
  });

  it('never looks up a name the types map lacks: a made-up name could pass KV’s key length', async () => {
    const catalog = await described();
    await catalog.types();
    const get = vi.spyOn(env.SPECS, 'get');
    expect(await catalog.spec('ACTION_NODE', 'x'.repeat(600))).toBeNull();
    expect(await catalog.spec('ACTION_NODE', '__proto__')).toBeNull();
    expect(await catalog.spec('constructor', 'x')).toBeNull();
    expect(get).not.toHaveBeenCalled();
  });
});

describe('what an isolate caches', () => {
  it('reads the version pointer again after 30 s, and a new version’s values afresh', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    await loadCatalog([spec('OLD')]);
    const catalog = new Catalog(env.SPECS);
    expect(await catalog.types()).toEqual({ ACTION_NODE: ['OLD'] });
    const next = await buildCatalog([spec('NEW')], { sources: ['seed'] });
    for (const { key, value } of next.entries) await env.SPECS.put(key, value);
    vi.advanceTimersByTime(29_000);
    expect(await catalog.types()).toEqual({ ACTION_NODE: ['OLD'] });
    vi.advanceTimersByTime(2_000);
    expect(await catalog.types()).toEqual({ ACTION_NODE: ['NEW'] });
  });

  it('reads a value once per version, and retries one whose read failed', async () => {
    await loadCatalog([spec('A')]);
    const catalog = new Catalog(env.SPECS);
    await catalog.version();
    const get = vi.spyOn(env.SPECS, 'get').mockRejectedValueOnce(new Error('KV is down'));
    await expect(catalog.types()).rejects.toThrow('KV is down');
    expect(await catalog.types()).toEqual({ ACTION_NODE: ['A'] });
    expect(await catalog.types()).toEqual({ ACTION_NODE: ['A'] });
    expect(get).toHaveBeenCalledTimes(2);
  });
});

describe('the node type a subtype is listed under', () => {
  it('is the one type that lists it, whatever was asked; none for a subtype no type lists', () => {
    const types = { ACTION_NODE: ['HTTP_REQUEST'], FLOW_NODE: ['IF', 'SWITCH'] };
    expect(listedUnder(types, 'SWITCH')).toBe('FLOW_NODE');
    expect(listedUnder(types, 'HTTP_REQUEST')).toBe('ACTION_NODE');
    expect(listedUnder(types, 'NOPE')).toBeUndefined();
    expect(listedUnder(types, '__proto__')).toBeUndefined();
  });
});
