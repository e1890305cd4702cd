import { describe, expect, it } from 'vitest';
import { buildSemanticIndex, bytesAt, int8s, lookUp, pool, SemanticSearcher, toBase64, toInt8, type PooledField } from '../../../src/catalog/search/semantic';
import { fixtureTable } from '../../support/wordTable';

const fields = (title: string, description: string): Record<PooledField, string> => ({
  title,
  description,
  aliases: '',
  actions: '',
  jobs: '',
  operations: '',
  categories: '',
});

describe('int8 vectors as base64', () => {
  it('round-trip every byte value, whole and from any offset', () => {
    const bytes = Int8Array.from({ length: 256 }, (_, i) => i - 128);
    const text = toBase64(bytes);
    expect([...int8s(text)]).toEqual([...bytes]);
    for (const [start, length] of [
      [0, 4],
      [1, 5],
      [2, 64],
      [127, 3],
      [250, 6],
    ] as const)
      expect([...bytesAt(text, start, length)]).toEqual([...bytes.subarray(start, start + length)]);
  });

  it('scales a vector so that its largest component is ±127, keeping its direction', () => {
    expect([...toInt8([0.5, -1, 0.25])]).toEqual([64, -127, 32]);
    expect([...toInt8([0, 0])]).toEqual([0, 0]);
  });
});

describe('lookUp', () => {
  const { words } = fixtureTable();

  it('finds a word as written, else its stem or the stem with its dropped "e"', () => {
    expect(words[lookUp(words, 'invoice')]).toBe('invoice');
    expect(words[lookUp(words, 'invoices')]).toBe('invoice');
    expect(words[lookUp(words, 'archives')]).toBe('archive');
    expect(lookUp(words, 'zzqxv')).toBe(-1);
  });
});

describe('pool', () => {
  it('adds the vectors up, each times its weight', () => {
    expect([
      ...pool(
        [
          [[1, 2], 2],
          [[3, -1], 1],
        ],
        2,
      ),
    ]).toEqual([5, 3]);
  });
});

describe('SemanticSearcher', () => {
  const table = fixtureTable();
  const nodes = [
    fields('Invoice Ninja', 'Create invoices and record payments'),
    fields('Spotify', 'Play music and manage a playlist'),
    fields('Forecast', 'Get the weather'),
  ];
  const searcher = new SemanticSearcher(buildSemanticIndex(table, nodes));
  const words = (query: string) => query.toLowerCase().split(' ');
  const best = (query: string) => {
    const cosines = searcher.similarities(words(query))!;
    return [...cosines.keys()].sort((a, b) => cosines[b]! - cosines[a]!)[0];
  };

  it('finds the node closest in meaning to a query none of whose words it says', () => {
    expect(best('song')).toBe(1);
    expect(best('bill')).toBe(0);
    expect(best('will it rain')).toBe(2);
  });

  it('gives cosines between -1 and 1, the closest node near 1', () => {
    const cosines = searcher.similarities(['song'])!;
    for (const c of cosines) expect(Math.abs(c)).toBeLessThanOrEqual(1 + 1e-6);
    expect(cosines[1]).toBeGreaterThan(0.9);
  });

  it('ignores words the table does not know, and has nothing for a query of only those', () => {
    expect([...searcher.similarities(['song', 'zzqxv', 'blorp'])!]).toEqual([...searcher.similarities(['song'])!]);
    expect(searcher.similarities(['zzqxv', 'blorp'])).toBeNull();
    expect(searcher.similarities(['the', 'of', 'and'])).toBeNull();
  });

  it('weighs a word by how rare it is among the nodes: one every node says moves a query little', () => {
    const index = buildSemanticIndex(table, [fields('A', 'archive invoice'), fields('B', 'archive music'), fields('C', 'archive rain')]);
    const weights = Array.from(int8s(index.wordWeights), (w) => w & 0xff);
    const weight = (word: string) => weights[table.words.indexOf(word)]!;
    expect(weight('archive')).toBeLessThan(weight('invoice'));
    expect(weight('song')).toBe(255);
  });
});
