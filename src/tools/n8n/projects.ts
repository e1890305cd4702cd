import { z } from 'zod';
import { n8nId } from '../../n8n/ids';
import { CREATES, DELETES, n8nTool, page, paging, READS, type Page } from './n8nTool';
import { projectFor } from './userData';

export const PROJECT_TOOLS = [
  n8nTool({
    name: 'list_projects',
    title: 'List projects',
    description: 'List the projects (n8n plans with projects only). Personal projects are named after their owner: those names need the users:read scope too.',
    input: z.object({ ...paging }),
    annotations: READS,
    async run({ limit, cursor }, n8n, ctx) {
      return page('projects', await n8n.get<Page<Record<string, unknown>>>('/projects', { query: { limit, cursor } }), (p) => projectFor(ctx.caller, p));
    },
  }),
  n8nTool({
    name: 'create_project',
    title: 'Create a project',
    description: 'Create a team project.',
    input: z.object({ name: z.string().min(1).max(255).describe('Project name') }),
    annotations: CREATES,
    async run({ name }, n8n) {
      return (await n8n.post<Record<string, unknown> | undefined>('/projects', { body: { name } })) ?? { created: true, name };
    },
  }),
  n8nTool({
    name: 'delete_project',
    title: 'Delete a project',
    description: 'Delete a project.',
    input: z.object({ id: n8nId('project') }),
    annotations: DELETES,
    async run({ id }, n8n) {
      await n8n.delete(`/projects/${encodeURIComponent(id)}`);
      return { deleted: true, id };
    },
  }),
];
