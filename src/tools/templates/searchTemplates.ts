import { z } from 'zod';
import { withinBudget } from '../../catalog/budget';
import { TEMPLATE_CATEGORIES } from '../../templates/categories';
import { TemplateStore } from '../../templates/templateStore';
import { defineTool } from '../tool';

/** Node names one search may require: more is no search any template could pass. */
const MAX_NODES = 10;

export const searchTemplates = defineTool({
  name: 'search_templates',
  title: 'Search workflow templates',
  description:
    'Search ready-made n8n workflow templates, collected from public collections whose licence lets them be shared: by words ' +
    '(query: "telegram chatbot", "summarise web pages"), by the nodes they use (nodes: every one must be in the template; ' +
    'node types or display names, e.g. ["n8n-nodes-base.telegram", "OpenAI Chat Model"]), by task (category), or any mix. ' +
    'Returns for each: id, name, short description, node types, categories, licence, author, source link, and what ' +
    'validate_workflow found in it against this catalog. get_template with the id gives the workflow, ready for create_workflow.',
  input: z.object({
    query: z.string().max(500).optional().describe('Words of what the workflow should do'),
    nodes: z
      .array(z.string().min(1).max(200))
      .min(1)
      .max(MAX_NODES)
      .optional()
      .describe('Nodes the template must use, all of them: types (n8n-nodes-base.slack) or display names (Slack)'),
    category: z
      .enum(TEMPLATE_CATEGORIES)
      .optional()
      .describe(`The task: ${TEMPLATE_CATEGORIES.join(', ')}`),
    max_results: z.number().int().min(1).max(20).default(5).describe('Maximum number of templates to return (1-20)'),
  }),
  annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
  execution: 'direct',
  scope: 'nodes:read',
  rateLimiter: (env) => env.SEARCH_LIMITER,
  async run({ query, nodes, category, max_results }, { env }) {
    const searcher = await new TemplateStore(env.SPECS).searcher();
    const { results, ...rest } = searcher.search({ query, nodes, category, max: max_results });
    const listed = await withinBudget<object>(
      results.length,
      async (i) => results[i]!,
      // Past the budget, a template is named only: get_template has it whole.
      (i) => ({ id: results[i]!.id, name: results[i]!.name, left_out: 'to keep this answer under ~20,000 tokens' }),
    );
    return { results: listed, ...rest };
  },
});
