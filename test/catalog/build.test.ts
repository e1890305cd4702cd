import { describe, expect, it } from 'vitest';
import { buildCatalog, categoriesOf, SpecError, validateSpec } from '../../src/catalog/build';
import { CURRENT_KEY, indexKey, looksKey } from '../../src/catalog/keys';
import type { SearchIndex } from '../../src/catalog/search/buildIndex';
import { spec } from '../support/catalog';

function specError(fn: () => unknown): SpecError {
  try {
    fn();
  } catch (error) {
    if (error instanceof SpecError) return error;
    throw error;
  }
  throw new Error('expected a SpecError');
}

describe('spec validation', () => {
  it('names the file and the field at fault', () => {
    const bad = { ...spec('X'), parameters: [{ name: 'p', type: 'strng', required: true, description: '' }] };
    const error = specError(() => validateSpec('ACTION_NODE/X.json', bad));
    expect(error.path).toBe('ACTION_NODE/X.json');
    expect(error.field).toBe('parameters.0.type');
    expect(error.message).toMatch(/^ACTION_NODE\/X\.json: parameters\.0\.type: /);
  });

  it('refuses unknown fields and node types', () => {
    expect(specError(() => validateSpec('a.json', { ...spec('X'), colour: 'red' })).message).toMatch(/colour/);
    expect(specError(() => validateSpec('a.json', { ...spec('X'), node_type: 'MAGIC_NODE' })).field).toBe('node_type');
  });
});

describe('catalog build', () => {
  it('is deterministic: same specs, same version and entries', async () => {
    const a = await buildCatalog([spec('A'), spec('B')], { sources: ['seed'] });
    const b = await buildCatalog([spec('A'), spec('B')], { sources: ['seed'] });
    expect(a.entries).toEqual(b.entries);
    expect(a.manifest.version).toMatch(/^[0-9a-f]{12}$/);
    const c = await buildCatalog([spec('A'), spec('B', { description: 'changed' })], { sources: ['seed'] });
    expect(c.manifest.version).not.toBe(a.manifest.version);
  });

  it('puts every key under the version and the pointer last', async () => {
    const { entries, manifest } = await buildCatalog([spec('A')], { sources: ['seed'] });
    expect(entries.at(-1)).toEqual({ key: CURRENT_KEY, value: manifest.version });
    for (const { key } of entries.slice(0, -1)) expect(key.startsWith(`catalog:${manifest.version}:`)).toBe(true);
  });

  it('builds the search index with what real workflows say of each node, and versions by it', async () => {
    const specs = [spec('A', { description: 'Talks to an API' }), spec('B', { description: 'Talks to an API' })];
    const usage = { counts: { A: 30 }, names: { B: { 'Shorten link': 2 } } };
    const built = await buildCatalog(specs, { sources: ['seed'], usage });
    const plain = await buildCatalog(specs, { sources: ['seed'] });
    expect(built.manifest.version).not.toBe(plain.manifest.version);
    const index = JSON.parse(built.entries.find((e) => e.key === indexKey(built.manifest.version))!.value) as SearchIndex;
    expect(index.usage).toEqual([100, 0]);
    expect(index.terms).toContain('shorten');
    const unused = JSON.parse(plain.entries.find((e) => e.key === indexKey(plain.manifest.version))!.value) as SearchIndex;
    expect(unused.usage).toEqual([0, 0]);
    expect(unused.terms).not.toContain('shorten');
  });

  it('stores how the workflow view draws node types under the version, and versions by it', async () => {
    const looks = { about: 'test', types: { 'n8n-nodes-base.set': { name: 'Edit Fields', color: null, icon: 0 } }, icons: ['<svg viewBox="0 0 1 1"/>'] };
    const built = await buildCatalog([spec('A')], { sources: ['seed'], looks });
    const plain = await buildCatalog([spec('A')], { sources: ['seed'] });
    expect(built.manifest.version).not.toBe(plain.manifest.version);
    expect(JSON.parse(built.entries.find((e) => e.key === looksKey(built.manifest.version))!.value)).toEqual(looks);
    expect(plain.entries.some((e) => e.key === looksKey(plain.manifest.version))).toBe(false);
  });

  it('refuses a subtype that appears twice', async () => {
    await expect(buildCatalog([spec('A'), spec('A')], { sources: ['seed'] })).rejects.toThrow(/appears twice/);
  });
});

describe('categoriesOf', () => {
  it('gives each category its subtypes in catalog order, categories sorted', () => {
    const specs = [spec('b', { categories: ['Flow', 'Core Nodes'] }), spec('a', { categories: ['Core Nodes'] }), spec('c')];
    expect(categoriesOf(specs)).toEqual({ 'Core Nodes': ['b', 'a'], Flow: ['b'] });
  });
});
