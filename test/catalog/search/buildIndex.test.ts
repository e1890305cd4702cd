import { describe, expect, it } from 'vitest';
import { buildSearchIndex, decodePostings, usagePrior } from '../../../src/catalog/search/buildIndex';
import { stem } from '../../../src/catalog/search/tokenize';
import type { NodeSpec } from '../../../src/catalog/nodeSpec';
import { spec } from '../../support/catalog';

const n8n = (name: string, display_name: string, overrides: Partial<NodeSpec> = {}) =>
  spec(`n8n-nodes-base.${name}`, { display_name, source: 'n8n', description: `Consume the ${display_name} API`, ...overrides });

describe('buildSearchIndex', () => {
  const catalog = [n8n('crypto', 'Crypto'), n8n('mailgun', 'Mailgun'), n8n('mailjet', 'Mailjet')];
  const term = (word: string) => stem(word);

  it('records the nodes builders mostly mean by a term: a fifth of its uses or more, in two workflows or more', () => {
    const names = {
      'n8n-nodes-base.crypto': { 'Generate UUID': 4, 'Hash it': 1 },
      'n8n-nodes-base.mailgun': { 'Generate report': 12 },
      'n8n-nodes-base.mailjet': { 'Generate newsletter': 1 },
    };
    const index = buildSearchIndex(catalog, { counts: {}, names });
    const doc = (name: string) => index.docs.findIndex(([, subtype]) => subtype === `n8n-nodes-base.${name}`);
    expect(decodePostings(index.meant[term('generate')]!)).toEqual([doc('crypto'), 24, doc('mailgun'), 71]);
    expect(decodePostings(index.meant[term('uuid')]!)).toEqual([doc('crypto'), 100]);
    expect(index.meant[term('hash')]).toBeUndefined();
  });
});

describe('usagePrior', () => {
  it('scales counts by their logarithm to 0–100 and gives replaced nodes none', () => {
    const specs = [n8n('a', 'A'), n8n('b', 'B'), n8n('c', 'C'), n8n('d', 'D', { hidden: true }), n8n('e', 'E', { legacy: true })];
    const prior = usagePrior(specs, { 'n8n-nodes-base.a': 99, 'n8n-nodes-base.b': 9, 'n8n-nodes-base.d': 500, 'n8n-nodes-base.e': 500 });
    expect(prior).toEqual([100, 50, 0, 0, 0]);
    expect(usagePrior(specs, {})).toEqual([0, 0, 0, 0, 0]);
  });
});
