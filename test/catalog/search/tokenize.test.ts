import { describe, expect, it } from 'vitest';
import { analyze, stem, tokenize } from '../../../src/catalog/search/tokenize';

describe('tokenize', () => {
  it('splits camelCase and digits and keeps the whole word, drops stop words, stems with Porter', () => {
    expect(tokenize('googleSheets')).toEqual(['googlesheet', 'googl', 'sheet']);
    expect(tokenize('Send the emails to OpenAI')).toEqual(['send', 'email', 'openai', 'open', 'ai']);
    expect(tokenize('ga4')).toEqual(['ga4', 'ga']);
    expect(stem('documents')).toBe(stem('document'));
    expect(stem('created')).toBe(stem('create'));
    expect(stem('queries')).toBe(stem('query'));
    expect(stem('scheduling')).toBe(stem('schedule'));
    expect(stem('o365')).toBe('o365');
    // A verb's particle says nothing of the node: "pull out links" is not about Split Out.
    expect(tokenize('pull out all links')).toEqual(['pull', 'all', 'link']);
  });

  it('keeps each word as written beside its term, for typo tolerance and intent', () => {
    expect(analyze('Postgress rows added')).toEqual([
      { word: 'postgress', term: 'postgress' },
      { word: 'rows', term: 'row' },
      { word: 'added', term: 'ad' },
    ]);
  });
});
