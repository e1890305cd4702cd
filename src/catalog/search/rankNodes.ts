import type { Env } from '../../env';
import { observe } from '../../observability/events';
import { Catalog } from '../catalog';
import type { SearchHit } from './search';

/**
 * The ranking `search_nodes` answers with, timed into the search metrics; the landing page's explorer
 * calls the same. Null when no catalog is loaded.
 */
export async function rankNodes(env: Env, query: string, maxResults: number, nodeType?: string): Promise<SearchHit[] | null> {
  const searcher = await new Catalog(env.SPECS).searcher();
  if (!searcher) return null;
  const started = Date.now();
  const hits = searcher.search(query, maxResults, nodeType);
  observe(env, { kind: 'search', ms: Date.now() - started, hits: hits.length, queryLength: query.length });
  return hits;
}
