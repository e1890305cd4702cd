/**
 * Which words the table holds (distill.ts): every word the catalog's nodes are described by, then the
 * most frequent English words up to the table's size, less function words (a query's "the", "with"
 * mean nothing in a node search, and a table without them ignores them).
 */
import type { NodeSpec } from '../../../src/catalog/nodeSpec.ts';
import { searchText } from '../../../src/catalog/search/buildIndex.ts';
import { POOLED_FIELDS, type PooledField } from '../../../src/catalog/search/semantic.ts';
import { analyze } from '../../../src/catalog/search/tokenize.ts';

/** English function words: left out of the table, so never pooled (tokenize.ts's stop words are left out before). */
export const FUNCTION_WORDS = new Set(
  (
    'a an the to for of in on and or with into from by my me i is are be using use via that this it its at as ' +
    'was were been being am has have had will shall may might must not no so if then than there their them they he she his her him ' +
    'who whom whose when where why all any each every both either neither also just only very too more most such own same other another ' +
    'about over under after before again further once here few many much us we our ours you your yours its itself'
  ).split(' '),
);

/** A word a query can be looked up by: letters (digits after the first), short enough to be a word. */
const TABLE_WORD = /^[a-z][a-z0-9]{1,23}$/;

/** The words of the fields a node's vector pools, each with how many nodes say it. */
export function catalogWords(specs: NodeSpec[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const spec of specs) {
    const text = searchText(spec);
    const words = new Set((Object.keys(POOLED_FIELDS) as PooledField[]).flatMap((field) => analyze(text[field]).map((t) => t.word)));
    for (const word of words) counts.set(word, (counts.get(word) ?? 0) + 1);
  }
  return counts;
}

/**
 * The table's words, sorted: the catalog's (those `catalog` has, any frequency) and then `frequent`
 * (most frequent first) until there are `size`.
 */
export function vocabulary(catalog: Iterable<string>, frequent: readonly string[], size: number): string[] {
  const kept = new Set<string>();
  const add = (word: string) => {
    if (kept.size < size && TABLE_WORD.test(word) && !FUNCTION_WORDS.has(word)) kept.add(word);
  };
  for (const word of catalog) add(word);
  for (const word of frequent) add(word);
  return [...kept].sort();
}
