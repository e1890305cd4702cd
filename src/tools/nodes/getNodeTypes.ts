import { z } from 'zod';
import { Catalog } from '../../catalog/catalog';
import { NodeTypeSchema } from '../../catalog/nodeSpec';
import { defineTool } from '../tool';

export const getNodeTypes = defineTool({
  name: 'get_node_types',
  title: 'List node types',
  description:
    'Get all available workflow node types and their subtypes, as {NODE_TYPE: [subtypes]}. ' +
    'Use a subtype with get_node_details to learn how to configure it.',
  input: z.object({
    type_filter: NodeTypeSchema.optional().describe('Filter by node type (optional)'),
  }),
  annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
  execution: 'direct',
  scope: 'nodes:read',
  async run({ type_filter }, { env }) {
    const types = await new Catalog(env.SPECS).types();
    if (!type_filter) return types;
    return { [type_filter]: types[type_filter] ?? [] };
  },
});
