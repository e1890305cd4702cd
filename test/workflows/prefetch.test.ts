import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { Catalog } from '../../src/catalog/catalog';
import { catalogForNodes } from '../../src/workflows/prefetch';
import { loadCatalog } from '../support/catalog';
import { n8nSpecs } from '../support/n8nCatalog';
import { SPECIAL_NAMES, withPrototypesUnchanged } from '../support/specialNames';

describe('the descriptions a workflow needs, read from KV', () => {
  it('reads those of the types and versions used; a type no node has (odd names included) is never looked up', async () => {
    await loadCatalog(n8nSpecs, ['n8n']);
    const odd = [...SPECIAL_NAMES, '../catalog:current', 'x'.repeat(600), 'n8n-nodes-base.set:3.4'];
    const nodes = [
      { type: 'n8n-nodes-base.set', typeVersion: 3.4 },
      { type: 'n8n-nodes-base.if', typeVersion: 1 },
      ...odd.map((type) => ({ type, typeVersion: 1 })),
      null,
      { type: 'n8n-nodes-base.if', typeVersion: Number.MAX_VALUE },
    ];
    const read: string[] = [];
    const kv = { get: (key: string, type: 'json') => (read.push(key), env.SPECS.get(key, type)) } as KVNamespace;
    const view = await withPrototypesUnchanged(() => catalogForNodes(new Catalog(kv), nodes));
    expect(read.map((key) => key.replace(/^catalog:[^:]+:/, '')).sort()).toEqual([
      'catalog:current',
      'spec:ACTION_NODE:n8n-nodes-base.set',
      'spec:FLOW_NODE:n8n-nodes-base.if',
      'spec:FLOW_NODE:n8n-nodes-base.if@1',
      'types',
    ]);
    expect(view!.describe('n8n-nodes-base.set', 3.4)?.subtype).toBe('n8n-nodes-base.set');
    expect(view!.describe('n8n-nodes-base.if', 1)?.type_versions).toContain(1);
    for (const type of odd) expect(view!.newest(type)).toBeNull();
    expect(view!.typeNames()).toContain('n8n-nodes-base.slack');
  });
});
