import { z } from 'zod';
import { n8nId, userIdOrEmail } from '../../n8n/ids';
import { ToolError } from '../tool';
import { CREATES, DELETES, n8nTool, page, paging, READS, type Page } from './n8nTool';

export const USER_TOOLS = [
  n8nTool({
    name: 'list_users',
    title: 'List users',
    description: 'List the users of the n8n instance (owner or admin API key; some plans only).',
    input: z.object({
      includeRole: z.boolean().optional().describe("Include each user's global role"),
      projectId: n8nId('project').optional().describe('Users of this project'),
      ...paging,
    }),
    annotations: READS,
    async run({ includeRole, projectId, limit, cursor }, n8n) {
      return page('users', await n8n.get<Page<Record<string, unknown>>>('/users', { query: { includeRole, projectId, limit, cursor } }), (u) => u);
    },
  }),
  n8nTool({
    name: 'get_user',
    title: 'Get a user',
    description: 'Get one user by id or email.',
    input: z.object({ id: userIdOrEmail, includeRole: z.boolean().optional() }),
    annotations: READS,
    run: ({ id, includeRole }, n8n) => n8n.get(`/users/${encodeURIComponent(id)}`, { query: { includeRole } }),
  }),
  n8nTool({
    name: 'create_user',
    title: 'Invite a user',
    description: 'Invite a user by email; n8n answers with the invitation (and an error per address it refused).',
    input: z.object({
      email: z.email().describe('Address to invite'),
      role: z.enum(['global:member', 'global:admin']).optional().describe('Global role (default global:member)'),
    }),
    annotations: CREATES,
    async run({ email, role }, n8n) {
      type Invitation = { user?: unknown; error?: string };
      // n8n's OpenAPI describes one invitation; older releases answer a list, one per address.
      const answer = await n8n.post<Invitation | Invitation[]>('/users', { body: [{ email, role: role ?? 'global:member' }] });
      const invitation = Array.isArray(answer) ? answer[0] : answer;
      if (invitation?.error) throw new ToolError(`n8n did not invite ${email}: ${invitation.error}`);
      return invitation ?? {};
    },
  }),
  n8nTool({
    name: 'delete_user',
    title: 'Delete a user',
    description: 'Delete a user from the instance.',
    input: z.object({ id: userIdOrEmail }),
    annotations: DELETES,
    async run({ id }, n8n) {
      await n8n.delete(`/users/${encodeURIComponent(id)}`);
      return { deleted: true, id };
    },
  }),
];
