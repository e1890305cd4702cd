import { env } from 'cloudflare:workers';
import { beforeEach, describe, expect, it } from 'vitest';
import { clearCatalogCache } from '../../src/catalog/catalog';
import { CURRENT_KEY, templateIndexKey } from '../../src/catalog/keys';
import { clearTemplateCache, TemplateStore } from '../../src/templates/templateStore';
import { loadCatalog } from '../support/catalog';
import { n8nSpecs } from '../support/n8nCatalog';
import { loadTemplates } from './templateCatalog';
import { CHAT_AGENT, SLACK_REPORT } from './templateFixtures';

/** SPECS as the store reads it, each key it asks for noted. */
function recordingKv(): { kv: KVNamespace; read: string[] } {
  const read: string[] = [];
  const kv = new Proxy(env.SPECS, {
    get: (target, property) =>
      property === 'get'
        ? (key: string, type: 'json') => {
            read.push(key);
            return target.get(key, type);
          }
        : Reflect.get(target, property, target),
  });
  return { kv, read };
}

beforeEach(() => {
  clearCatalogCache();
  clearTemplateCache();
});

describe('TemplateStore', () => {
  it('says there are no templates when no catalog is loaded', async () => {
    await env.SPECS.delete(CURRENT_KEY);
    await expect(new TemplateStore(env.SPECS).searcher()).rejects.toThrow(/No node catalog is loaded/);
  });

  it('says the catalog was built without templates when it was', async () => {
    await loadCatalog(n8nSpecs, ['n8n']);
    await expect(new TemplateStore(env.SPECS).searcher()).rejects.toThrow(/built without workflow templates/);
  });

  it('reads the index of the current version, and each template whole by its id', async () => {
    const { manifest } = await loadTemplates();
    const store = new TemplateStore(env.SPECS);
    expect((await store.searcher()).search({ query: 'slack', max: 5 }).results[0]!.id).toBe(SLACK_REPORT.id);
    expect(await store.template(SLACK_REPORT.id)).toMatchObject({ ...SLACK_REPORT, validation: { valid: true }, node_types: expect.any(Array) });
    expect(await env.SPECS.get(templateIndexKey(manifest.version))).not.toBeNull();
  });

  it('never turns an id the index does not list into a KV read', async () => {
    await loadTemplates();
    const { kv, read } = recordingKv();
    expect(await new TemplateStore(kv).template('0123456789ab')).toBeNull();
    expect(read.filter((key) => key.includes(':template:'))).toEqual([]);
  });

  it('reads the new index once the catalog changes under it', async () => {
    await loadTemplates([SLACK_REPORT]);
    expect(await new TemplateStore(env.SPECS).template(CHAT_AGENT.id)).toBeNull();
    await loadTemplates([SLACK_REPORT, CHAT_AGENT]);
    expect(await new TemplateStore(env.SPECS).template(CHAT_AGENT.id)).toMatchObject({ id: CHAT_AGENT.id });
  });
});
