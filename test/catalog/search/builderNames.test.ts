import { describe, expect, it } from 'vitest';
import { builderTerms, termUses } from '../../../src/catalog/search/builderNames';
import { stem } from '../../../src/catalog/search/tokenize';
import { spec } from '../../support/catalog';

const n8n = (name: string, display_name: string) => spec(`n8n-nodes-base.${name}`, { display_name, source: 'n8n' });

describe('builderTerms', () => {
  const crypto = n8n('crypto', 'Crypto');
  const loop = n8n('splitInBatches', 'Loop Over Items (Split in Batches)');
  const term = (word: string) => stem(word);

  it("leaves out names that are the node's display or type name, written any way", () => {
    expect(builderTerms(crypto, { Crypto: 9, crypto: 2, 'CRYPTO ': 1 })).toEqual([]);
    expect(builderTerms(loop, { 'Loop Over Items': 9, 'Split In Batches': 4, splitInBatches: 1, 'loop over items (split in batches)': 1 })).toEqual([]);
  });
  it('orders terms by their uses, each repeated 1 + ⌊log₂ uses⌋ times, at most 3', () => {
    expect(builderTerms(crypto, { 'Generate UUID': 5, 'Generate hash': 2, 'Hash password': 1 })).toEqual(
      ['generate', 'generate', 'generate', 'uuid', 'uuid', 'uuid', 'hash', 'hash', 'password'].map(term),
    );
    expect(builderTerms(crypto, { uuid: 1000 })).toEqual(['uuid', 'uuid', 'uuid']);
  });
  it('gives index terms that are not analyzed again: a digit-joined word counts as often as it is used', () => {
    expect(builderTerms(crypto, { 'To base64': 1 })).toEqual(['64', 'base', 'base64']);
  });
  it('keeps the 40 most used terms', () => {
    const many = Object.fromEntries(
      Array.from({ length: 60 }, (_, i) => [`word${String.fromCharCode(97 + (i % 26))}${String.fromCharCode(97 + Math.floor(i / 26))}`, 60 - i]),
    );
    const terms = new Set(builderTerms(crypto, many));
    expect(terms.size).toBe(40);
    expect(terms.has(term('wordaa'))).toBe(true);
    expect(terms.has(term('wordhc'))).toBe(false);
  });
});

describe('termUses', () => {
  it('counts a term once per name, each name by the workflows that use it, adding up across the maps given', () => {
    const uses = termUses(n8n('crypto', 'Crypto'), { 'Hash hash': 3, 'Hash password': 2 }, { 'Hash files': 1, Crypto: 50 });
    expect(Object.fromEntries(uses)).toEqual({ [stem('hash')]: 6, [stem('password')]: 2, [stem('files')]: 1 });
  });
});
