/**
 * The committed word table (words.json, written by `npm run catalog:semantic`) as the catalog build
 * reads it: no teacher model is needed to build or serve the catalog. WORDS_FILE in the environment
 * names another table; a path with no file (WORDS_FILE=none) builds the index without the semantic layer.
 */
import { existsSync, readFileSync } from 'node:fs';
import { int8s, type WordTable } from '../../../src/catalog/search/semantic.ts';

export const WORDS_FILE = 'scripts/catalog/semantic/words.json';

/** words.json: where the vectors come from and how they were made, then the table itself. */
export interface WordTableFile {
  about: string;
  teacher: string;
  licence: string;
  method: string;
  dims: number;
  /** float × scale = the stored int8 (one scale for the whole table). */
  scale: number;
  /** Sorted, joined by spaces. */
  words: string;
  /** int8, base64, `dims` bytes per word. */
  vectors: string;
}

/** The table in `file`, checked; undefined when there is none (search is then lexical only). */
export function readWordTable(file = process.env.WORDS_FILE ?? WORDS_FILE): WordTable | undefined {
  if (!existsSync(file)) return undefined;
  const content = JSON.parse(readFileSync(file, 'utf8')) as WordTableFile;
  const words = content.words.split(' ');
  const vectors = int8s(content.vectors);
  if (vectors.length !== words.length * content.dims)
    throw new Error(`${file}: ${vectors.length} bytes for ${words.length} words of ${content.dims} dimensions`);
  for (let i = 1; i < words.length; i++) if (!(words[i - 1]! < words[i]!)) throw new Error(`${file}: words not sorted at "${words[i]}"`);
  return { dims: content.dims, words, vectors };
}
