import { z } from 'zod';
import { n8nTool } from './n8nTool';

export const AUDIT_TOOLS = [
  n8nTool({
    name: 'get_audit_events',
    title: 'Run a security audit',
    description: "Run n8n's security audit (POST /audit): risky credentials, database and filesystem access, nodes, instance settings.",
    input: z.object({
      categories: z
        .array(z.enum(['credentials', 'database', 'nodes', 'filesystem', 'instance']))
        .optional()
        .describe('Limit the audit to these'),
      daysAbandonedWorkflow: z.number().int().min(1).optional().describe('Days without a run after which a workflow counts as abandoned'),
    }),
    // Reads and reports; n8n computes it afresh each time.
    annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: true },
    tooLarge: { readTheRest: 'Ask for fewer categories at a time.' },
    async run({ categories, daysAbandonedWorkflow }, n8n) {
      const additionalOptions = { ...(categories ? { categories } : {}), ...(daysAbandonedWorkflow ? { daysAbandonedWorkflow } : {}) };
      return n8n.post('/audit', { body: Object.keys(additionalOptions).length ? { additionalOptions } : {} });
    },
  }),
];
