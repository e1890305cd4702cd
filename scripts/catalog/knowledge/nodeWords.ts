/**
 * What people call each node and the jobs they do with it (nodeWords.json): the words a query in a
 * user's own terms has and n8n's descriptions lack ("page whoever is on call" for PagerDuty). Search
 * indexes them beside n8n's text (src/catalog/search/buildIndex.ts). How the file was written is in
 * its `about` and `method`.
 */
import { readFileSync } from 'node:fs';
import type { NodeWords } from '../../../src/catalog/search/buildIndex.ts';

export const NODE_WORDS_FILE = 'scripts/catalog/knowledge/nodeWords.json';

interface NodeWordsFile {
  about: string;
  method: string;
  nodes: NodeWords;
}

/** The committed node words, checked: every entry has its three lists of strings. */
export function readNodeWords(file = NODE_WORDS_FILE): NodeWords {
  const { nodes } = JSON.parse(readFileSync(file, 'utf8')) as NodeWordsFile;
  for (const [type, entry] of Object.entries(nodes)) {
    for (const list of ['names', 'jobs', 'domain'] as const) {
      if (!Array.isArray(entry[list]) || entry[list].some((w) => typeof w !== 'string')) throw new Error(`${file}: ${type}.${list} is not a list of words`);
    }
  }
  return nodes;
}
