/**
 * The search index inside workerd, for bench/searchWorkerd.ts. POST /load parses and readies an index
 * (the first load in an isolate is the cold one) and times its first query (which decodes the semantic
 * layer's node vectors); POST /query times queries, each run `repeat` times, with the ranker, with the
 * same index less its semantic layer (lexical only), and with a plain scan of the same documents (the
 * reference). Local workerd's clock advances during execution in ms steps, so each figure is a batch
 * divided by its size.
 */
import type { SearchIndex } from '../../../src/catalog/search/buildIndex';
import { Searcher } from '../../../src/catalog/search/search';

let searcher: Searcher | undefined;
let lexical: Searcher | undefined;

function scan(index: SearchIndex, query: string): number[] {
  const words = query.toLowerCase().split(/\W+/).filter(Boolean);
  const scored = index.docs.map(([, subtype, name, description], doc) => {
    const text = `${subtype} ${name} ${description}`.toLowerCase();
    return [doc, words.filter((w) => text.includes(w)).length] as const;
  });
  return scored
    .filter(([, n]) => n > 0)
    .sort((a, b) => b[1] - a[1])
    .slice(0, 10)
    .map(([doc]) => doc);
}

export default {
  async fetch(request: Request): Promise<Response> {
    const path = new URL(request.url).pathname;
    if (path === '/load') {
      const text = await request.text();
      const started = performance.now();
      const index = JSON.parse(text) as SearchIndex;
      searcher = new Searcher(index);
      const loadMs = performance.now() - started;
      searcher.search('send a message to the team', 10);
      const firstQueryMs = performance.now() - started - loadMs;
      lexical = new Searcher({ ...index, semantic: undefined });
      return Response.json({ loadMs, firstQueryMs });
    }
    if (path === '/query' && searcher && lexical) {
      const { queries, repeat } = (await request.json()) as { queries: string[]; repeat: number };
      const ranker = queries.map((q) => {
        const started = performance.now();
        for (let i = 0; i < repeat; i++) searcher!.search(q, 10);
        return (performance.now() - started) / repeat;
      });
      const lexicalOnly = queries.map((q) => {
        const started = performance.now();
        for (let i = 0; i < repeat; i++) lexical!.search(q, 10);
        return (performance.now() - started) / repeat;
      });
      const reference = queries.map((q) => {
        const started = performance.now();
        for (let i = 0; i < repeat; i++) scan(searcher!.index, q);
        return (performance.now() - started) / repeat;
      });
      return Response.json({ ranker, lexical: lexicalOnly, reference });
    }
    return new Response('POST /load, then POST /query', { status: 404 });
  },
};
