import { describe, expect, it } from 'vitest';
import { catalogOf } from '../../src/workflows/nodeCatalog';
import { spec } from '../support/catalog';

const described = (typeVersions: number[], description: string) => spec('n8n-nodes-base.thing', { source: 'n8n', type_versions: typeVersions, description });

describe('catalogOf', () => {
  const catalog = catalogOf([described([1, 2], 'older'), described([3], 'newest'), spec('SEED_NODE')]);

  it('answers the newest description of a type, whatever the order given', () => {
    expect(catalog.newest('n8n-nodes-base.thing')?.description).toBe('newest');
    expect(catalogOf([described([3], 'newest'), described([1, 2], 'older')]).newest('n8n-nodes-base.thing')?.description).toBe('newest');
  });

  it('answers the description that covers a typeVersion, and a seed spec for any version', () => {
    expect(catalog.describe('n8n-nodes-base.thing', 2)?.description).toBe('older');
    expect(catalog.describe('n8n-nodes-base.thing', 3)?.description).toBe('newest');
    expect(catalog.describe('n8n-nodes-base.thing', 4)).toBeNull();
    expect(catalog.describe('SEED_NODE', 7)?.subtype).toBe('SEED_NODE');
  });

  it('knows no type it was not given, a prototype name included', () => {
    for (const type of ['n8n-nodes-base.other', '__proto__', 'constructor']) {
      expect(catalog.newest(type), type).toBeNull();
      expect(catalog.describe(type, 1), type).toBeNull();
    }
  });

  it('lists the type names given, or those of its specs', () => {
    expect(catalog.typeNames()).toEqual(['n8n-nodes-base.thing', 'SEED_NODE']);
    expect(catalogOf([], ['a', 'b']).typeNames()).toEqual(['a', 'b']);
  });
});
