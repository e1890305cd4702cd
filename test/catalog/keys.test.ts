import { describe, expect, it } from 'vitest';
import { categoriesKey, CURRENT_KEY, indexKey, manifestKey, olderSpecKey, specKey, typesKey } from '../../src/catalog/keys';

describe('the catalog’s KV layout', () => {
  it('puts everything of a catalog under its version, and the pointer outside every version', () => {
    const keys = [
      manifestKey('v1'),
      typesKey('v1'),
      categoriesKey('v1'),
      indexKey('v1'),
      specKey('v1', 'ACTION_NODE', 'HTTP_REQUEST'),
      olderSpecKey('v1', 'ACTION_NODE', 'HTTP_REQUEST', 2),
    ];
    for (const key of keys) expect(key.startsWith('catalog:v1:'), key).toBe(true);
    expect(new Set(keys).size).toBe(keys.length);
    expect(CURRENT_KEY.startsWith('catalog:v1:')).toBe(false);
  });

  it('keys an older description by the typeVersion it covers, beside the newest', () => {
    expect(specKey('v1', 'ACTION_NODE', '@n8n/n8n-nodes-langchain.agent')).toBe('catalog:v1:spec:ACTION_NODE:@n8n/n8n-nodes-langchain.agent');
    expect(olderSpecKey('v1', 'ACTION_NODE', 'n8n-nodes-base.if', 2.1)).toBe('catalog:v1:spec:ACTION_NODE:n8n-nodes-base.if@2.1');
    expect(olderSpecKey('v1', 'ACTION_NODE', 'n8n-nodes-base.if', 1)).not.toBe(olderSpecKey('v1', 'ACTION_NODE', 'n8n-nodes-base.if', 2));
  });
});
