import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readNodeWords } from '../../../../scripts/catalog/knowledge/nodeWords';
import { readSeedCatalog } from '../../../../scripts/catalog/readSeed';

describe('readNodeWords', () => {
  it('reads the committed words: an entry per node, each with jobs', () => {
    const words = readNodeWords();
    expect(Object.keys(words).length).toBeGreaterThan(500);
    for (const entry of Object.values(words)) expect(entry.jobs.length).toBeGreaterThan(0);
    expect(words['n8n-nodes-base.set']!.jobs.join(' ')).toMatch(/field/);
  });

  it('refuses a file whose entry is not three lists of words, naming the entry', () => {
    const file = join(mkdtempSync(join(tmpdir(), 'words-')), 'nodeWords.json');
    writeFileSync(file, JSON.stringify({ about: '', method: '', nodes: { 'n8n-nodes-base.set': { names: [], jobs: 'add a field', domain: [] } } }));
    expect(() => readNodeWords(file)).toThrow(/n8n-nodes-base\.set\.jobs is not a list of words/);
  });

  it('leaves the seed taxonomy without words: its types are not n8n’s', () => {
    const words = readNodeWords();
    expect(readSeedCatalog().filter((s) => Object.hasOwn(words, s.subtype))).toEqual([]);
  });
});
