import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readWordTable, WORDS_FILE, type WordTableFile } from '../../../../scripts/catalog/semantic/table';
import { toBase64 } from '../../../../src/catalog/search/semantic';

const file = (content: Partial<WordTableFile>) => {
  const path = join(mkdtempSync(join(tmpdir(), 'words-')), 'words.json');
  writeFileSync(path, JSON.stringify({ about: '', teacher: '', licence: '', method: '', scale: 1, ...content }));
  return path;
};

describe('readWordTable', () => {
  it('reads the committed table: sorted words, dims bytes each, where it comes from said', () => {
    const table = readWordTable(WORDS_FILE)!;
    expect(table.dims).toBe(64);
    expect(table.words.length).toBeGreaterThan(10_000);
    expect(table.vectors).toHaveLength(table.words.length * 64);
    for (const word of ['invoice', 'weather', 'spreadsheet']) expect(table.words).toContain(word);
    expect(table.words).not.toContain('the');
  });

  it('reads a table back as written, and none where there is no file', () => {
    const vectors = Int8Array.from([1, -2, 3, -4]);
    expect(readWordTable(file({ dims: 2, words: 'a b', vectors: toBase64(vectors) }))).toEqual({ dims: 2, words: ['a', 'b'], vectors });
    expect(readWordTable(join(tmpdir(), 'no-such-words.json'))).toBeUndefined();
  });

  it('refuses a table whose sizes disagree or whose words are not sorted', () => {
    expect(() => readWordTable(file({ dims: 2, words: 'a b', vectors: toBase64(Int8Array.from([1, 2, 3])) }))).toThrow(/3 bytes for 2 words of 2 dimensions/);
    expect(() => readWordTable(file({ dims: 1, words: 'b a', vectors: toBase64(Int8Array.from([1, 2])) }))).toThrow(/not sorted at "a"/);
  });
});
