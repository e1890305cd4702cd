import { z } from 'zod';
import { Catalog } from '../../catalog/catalog';
import { withinBudget } from '../../catalog/budget';
import { serializeSpec } from '../../catalog/serialize';
import { rankNodes } from '../../catalog/search/rankNodes';
import { defineTool } from '../tool';

export const searchNodes = defineTool({
  name: 'search_nodes',
  title: 'Search nodes',
  description:
    'Search workflow nodes by functionality, description or capabilities (e.g. "send email", "http request", ' +
    '"google sheets", "vector store"). Tolerates typos. Returns nodes ranked by relevance_score. The first ' +
    'step of building a workflow: search_nodes → get_node_details (node_type, subtype and the version you ' +
    'will use) → write the nodes → validate_workflow → fix what it reports.',
  input: z.object({
    query: z
      .string()
      .refine((q) => q.trim().length > 0, 'query must not be empty')
      .describe("Search query (e.g. 'HTTP request', 'send email', 'process data')"),
    max_results: z.number().int().min(1).max(50).default(10).describe('Maximum number of results to return (1-50)'),
    include_details: z.boolean().default(false).describe('Include node specifications (essentials) in results'),
  }),
  annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
  execution: 'direct',
  scope: 'nodes:read',
  rateLimiter: (env) => env.SEARCH_LIMITER,
  async run({ query, max_results, include_details }, { env }) {
    const hits = await rankNodes(env, query, max_results);
    if (!hits) throw new Error('No node catalog is loaded on this server');
    if (!include_details) return hits;
    const catalog = new Catalog(env.SPECS);
    return withinBudget(
      hits.length,
      async (i) => {
        const spec = await catalog.spec(hits[i]!.node_type, hits[i]!.subtype);
        const details = spec ? serializeSpec(spec, { includeExamples: false, includeSchemas: false, detail: 'essentials' }) : {};
        return { ...details, relevance_score: hits[i]!.relevance_score };
      },
      // Past the budget, hits come without details; get_node_details has them.
      (i) => hits[i]!,
    );
  },
});
