import { describe, expect, it } from 'vitest';
import { buildSearchIndex } from '../../../src/catalog/search/buildIndex';
import { Searcher, withinDistance } from '../../../src/catalog/search/search';
import { stem, tokenize } from '../../../src/catalog/search/tokenize';
import { seedSpecs } from '../../support/catalog';

describe('tokenize', () => {
  it('splits camelCase and keeps the whole word, drops stop words, stems lightly', () => {
    expect(tokenize('googleSheets')).toEqual(['googlesheet', 'googl', 'sheet']);
    expect(tokenize('Send the emails to OpenAI')).toEqual(['send', 'email', 'openai', 'open', 'ai']);
    expect(stem('documents')).toBe(stem('document'));
    expect(stem('created')).toBe(stem('create'));
    expect(stem('manually')).toBe('manual');
    expect(stem('address')).toBe('address');
  });
});

describe('withinDistance', () => {
  it('counts insertions, deletions, substitutions and adjacent swaps', () => {
    expect(withinDistance('gmial', 'gmail', 1)).toBe(true); // swap
    expect(withinDistance('webhok', 'webhook', 1)).toBe(true); // insertion
    expect(withinDistance('slak', 'slack', 1)).toBe(true);
    expect(withinDistance('slack', 'stack', 1)).toBe(true);
    expect(withinDistance('slack', 'snack', 0)).toBe(false);
    expect(withinDistance('github', 'gitlab', 1)).toBe(false);
  });
});

describe('search over the seed taxonomy', () => {
  const searcher = new Searcher(buildSearchIndex(seedSpecs()));
  const top = (query: string, n = 3) => searcher.search(query, n).map((h) => h.subtype);

  it('ranks the node an expert would pick first', () => {
    expect(top('http request')[0]).toBe('HTTP_REQUEST');
    expect(top('run a cron schedule')[0]).toBe('TRIGGER_CRON');
    expect(top('branch on a condition')[0]).toBe('IF');
    expect(top('semantic search over embeddings')).toContain('MEMORY_VECTOR_STORE');
  });

  it('tolerates typos and expands aliases', () => {
    expect(top('webhok', 2).sort()).toEqual(['EXTERNAL_WEBHOOK', 'TRIGGER_WEBHOOK']);
    expect(top('gmial approval')[0]).toBe('HUMAN_GMAIL');
    expect(top('cURL')[0]).toBe('HTTP_REQUEST');
    expect(top('chatgpt')[0]).toBe('OPENAI_NODE');
  });

  it('prefers triggers only when the query asks what starts a workflow', () => {
    expect(top('new email received')[0]).toBe('TRIGGER_EMAIL');
    expect(top('send email')[0]).not.toBe('TRIGGER_EMAIL');
  });

  it('returns scores in descending order, at most max results, nothing for noise', () => {
    const hits = searcher.search('send a message', 5);
    expect(hits.length).toBeLessThanOrEqual(5);
    for (let i = 1; i < hits.length; i++) expect(hits[i - 1]!.relevance_score).toBeGreaterThanOrEqual(hits[i]!.relevance_score);
    expect(searcher.search('zzqxv', 10)).toEqual([]);
    expect(searcher.search('the of and', 10)).toEqual([]);
  });
});

describe('search within one node type, and browsing a type', () => {
  const searcher = new Searcher(buildSearchIndex(seedSpecs()));

  it('keeps the unfiltered ranking, restricted to the type', () => {
    const all = searcher.search('send a message', 100);
    const actions = searcher.search('send a message', 100, 'EXTERNAL_ACTION_NODE');
    expect(actions.length).toBeGreaterThan(1);
    expect(actions.length).toBeLessThan(all.length);
    expect(actions).toEqual(all.filter((h) => h.node_type === 'EXTERNAL_ACTION_NODE'));
    expect(searcher.search('send a message', 2, 'EXTERNAL_ACTION_NODE')).toEqual(actions.slice(0, 2));
  });

  it('lists every node of a type by name', () => {
    const specs = seedSpecs().filter((s) => s.node_type === 'TRIGGER_NODE');
    const listed = searcher.ofType('TRIGGER_NODE');
    expect(listed.map((h) => h.subtype).sort()).toEqual(specs.map((s) => s.subtype).sort());
    const names = listed.map((h) => h.display_name);
    expect(names).toEqual([...names].sort((a, b) => a.localeCompare(b)));
    expect(searcher.ofType('NO_SUCH_TYPE')).toEqual([]);
  });
});
