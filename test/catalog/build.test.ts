import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { buildCatalog, categoriesOf, SpecError, validateSpec } from '../../src/catalog/build';
import { Catalog, clearCatalogCache } from '../../src/catalog/catalog';
import { CURRENT_KEY, indexKey } from '../../src/catalog/keys';
import type { SearchIndex } from '../../src/catalog/search/buildIndex';
import { loadSeedCatalog } from '../../src/catalog/seed';
import { loadCatalog, seedSpecs, spec } from '../support/catalog';


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

  it('keeps seed files and types.json in step', () => {
    const files = new Map<string, unknown>([['ACTION_NODE/A.json', spec('A')]]);
    expect(specError(() => loadSeedCatalog({ ACTION_NODE: ['A', 'B'] }, files)).message).toMatch(/B\.json.*missing/);
    expect(specError(() => loadSeedCatalog({}, files)).message).toMatch(/not listed in types\.json/);
    expect(specError(() => loadSeedCatalog({ FLOW_NODE: ['A'] }, new Map([['FLOW_NODE/A.json', spec('A')]]))).field).toBe('node_type');
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

  it('refuses a subtype that appears twice', async () => {
    await expect(buildCatalog([spec('A'), spec('A')], { sources: ['seed'] })).rejects.toThrow(/appears twice/);
  });
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

describe('the seed taxonomy in specs/seed', () => {
  it('validates, and its types map is exactly seed 002’s get_node_types example', async () => {
    const { types } = await buildCatalog(seedSpecs(), { sources: ['seed'] });
    expect(types).toEqual({
      ACTION_NODE: ['RUN_CODE', 'HTTP_REQUEST', 'PARSE_IMAGE', 'WEB_SEARCH', 'DATABASE_OPERATION', 'FILE_OPERATION', 'DATA_TRANSFORMATION'],
      TRIGGER_NODE: ['TRIGGER_MANUAL', 'TRIGGER_CRON', 'TRIGGER_WEBHOOK', 'TRIGGER_CHAT', 'TRIGGER_EMAIL', 'TRIGGER_FORM', 'TRIGGER_CALENDAR'],
      AI_AGENT_NODE: ['GEMINI_NODE', 'OPENAI_NODE', 'CLAUDE_NODE'],
      FLOW_NODE: ['IF', 'FILTER', 'LOOP', 'MERGE', 'SWITCH', 'WAIT'],
      TOOL_NODE: ['TOOL_GOOGLE_CALENDAR_MCP', 'CALENDAR', 'EMAIL', 'HTTP'],
      MEMORY_NODE: ['MEMORY_VECTOR_STORE', 'MEMORY_SIMPLE', 'MEMORY_DOCUMENT', 'MEMORY_BUFFER', 'MEMORY_KNOWLEDGE', 'MEMORY_EMBEDDING'],
      HUMAN_LOOP_NODE: ['HUMAN_GMAIL', 'HUMAN_SLACK', 'HUMAN_DISCORD', 'HUMAN_TELEGRAM', 'HUMAN_APP'],
      EXTERNAL_ACTION_NODE: [
        'EXTERNAL_GITHUB',
        'EXTERNAL_GOOGLE_CALENDAR',
        'EXTERNAL_TRELLO',
        'EXTERNAL_EMAIL',
        'EXTERNAL_SLACK',
        'EXTERNAL_API_CALL',
        'EXTERNAL_WEBHOOK',
        'EXTERNAL_NOTIFICATION',
      ],
    });
  });

  it('gives every seed node real parameters, ports and an example', () => {
    for (const s of seedSpecs()) {
      expect(s.parameters.length, s.subtype).toBeGreaterThan(0);
      expect(s.output_ports.length + s.input_ports.length, s.subtype).toBeGreaterThan(0);
      expect(s.examples.length, s.subtype).toBeGreaterThan(0);
      if (s.node_type === 'TRIGGER_NODE') expect(s.input_ports, s.subtype).toEqual([]);
    }
  });
});

describe('categoriesOf', () => {
  it('gives each category its subtypes in catalog order, categories sorted', () => {
    const specs = [spec('b', { categories: ['Flow', 'Core Nodes'] }), spec('a', { categories: ['Core Nodes'] }), spec('c')];
    expect(categoriesOf(specs)).toEqual({ 'Core Nodes': ['b', 'a'], Flow: ['b'] });
  });
});
