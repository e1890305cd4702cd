import { z } from 'zod';
import { n8nId } from '../../n8n/ids';
import { CREATES, DELETES, n8nTool, page, paging, READS, type Page } from './n8nTool';

export const VARIABLE_TOOLS = [
  n8nTool({
    name: 'list_variables',
    title: 'List variables',
    description: 'List the instance variables ($vars in expressions): key and value (n8n plans with variables only).',
    input: z.object({ projectId: n8nId('project').optional().describe('Variables of this project'), ...paging }),
    annotations: READS,
    async run({ projectId, limit, cursor }, n8n) {
      return page('variables', await n8n.get<Page<Record<string, unknown>>>('/variables', { query: { projectId, limit, cursor } }), (v) => v);
    },
  }),
  n8nTool({
    name: 'create_variable',
    title: 'Create a variable',
    description: 'Create a variable, available in expressions as $vars.<key>.',
    input: z.object({
      key: z
        .string()
        .regex(/^[A-Za-z_][A-Za-z0-9_]*$/, 'letters, digits and _, not starting with a digit')
        .max(50)
        .describe('Variable name'),
      value: z.string().max(1000).describe('Its value'),
      projectId: n8nId('project').optional().describe('A project to scope it to (default: global)'),
    }),
    annotations: CREATES,
    async run({ key, value, projectId }, n8n) {
      const created = await n8n.post<Record<string, unknown> | undefined>('/variables', { body: { key, value, ...(projectId ? { projectId } : {}) } });
      return created ?? { created: true, key };
    },
  }),
  n8nTool({
    name: 'delete_variable',
    title: 'Delete a variable',
    description: 'Delete a variable; expressions using it get nothing.',
    input: z.object({ id: n8nId('variable') }),
    annotations: DELETES,
    async run({ id }, n8n) {
      await n8n.delete(`/variables/${encodeURIComponent(id)}`);
      return { deleted: true, id };
    },
  }),
];
