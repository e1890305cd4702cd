import { z } from 'zod';
import type { N8nClient } from '../../n8n/client';
import { n8nId } from '../../n8n/ids';
import { CREATES, DELETES, n8nTool, page, paging, READS, REPLACES, type Page } from './n8nTool';
import { workflowPath } from './workflowApi';

interface Tag {
  id: string;
  name: string;
}
const tag = ({ id, name }: Tag) => ({ id, name });
const name = z.string().min(1).max(24).describe('Tag name');

export const TAG_TOOLS = [
  n8nTool({
    name: 'list_tags',
    title: 'List tags',
    description: 'List the workflow tags: id and name.',
    input: z.object({ ...paging }),
    annotations: READS,
    async run({ limit, cursor }, n8n) {
      return page('tags', await n8n.get<Page<Tag>>('/tags', { query: { limit, cursor } }), tag);
    },
  }),
  n8nTool({
    name: 'create_tag',
    title: 'Create a tag',
    description: 'Create a workflow tag.',
    input: z.object({ name }),
    annotations: CREATES,
    run: async ({ name }, n8n) => tag(await n8n.post<Tag>('/tags', { body: { name } })),
  }),
  n8nTool({
    name: 'update_tag',
    title: 'Rename a tag',
    description: 'Rename a tag; workflows keep it.',
    input: z.object({ id: n8nId('tag'), name }),
    annotations: REPLACES,
    run: async ({ id, name }, n8n) => tag(await n8n.put<Tag>(`/tags/${encodeURIComponent(id)}`, { body: { name } })),
  }),
  n8nTool({
    name: 'delete_tag',
    title: 'Delete a tag',
    description: 'Delete a tag; it is removed from every workflow.',
    input: z.object({ id: n8nId('tag') }),
    annotations: DELETES,
    async run({ id }, n8n) {
      const deleted = await n8n.delete<Tag>(`/tags/${encodeURIComponent(id)}`);
      return { deleted: true, ...(deleted ? tag(deleted) : { id }) };
    },
  }),
  n8nTool({
    name: 'get_workflow_tags',
    title: 'Get a workflow’s tags',
    description: 'The tags of a workflow.',
    input: z.object({ workflowId: n8nId('workflow') }),
    annotations: READS,
    run: async ({ workflowId }, n8n) => ({ tags: (await n8n.get<Tag[]>(`/workflows/${encodeURIComponent(workflowId)}/tags`)).map(tag) }),
  }),
  n8nTool({
    name: 'update_workflow_tags',
    title: 'Set a workflow’s tags',
    description: 'Set the tags of a workflow to exactly these tag ids (an empty list removes all).',
    input: z.object({ workflowId: n8nId('workflow'), tagIds: z.array(n8nId('tag')).describe('Ids of existing tags (list_tags, create_tag)') }),
    annotations: REPLACES,
    async run({ workflowId, tagIds }, n8n) {
      const tags = await n8n.put<Tag[]>(`/workflows/${encodeURIComponent(workflowId)}/tags`, { body: tagIds.map((id) => ({ id })) });
      return { tags: tags.map(tag) };
    },
  }),
];

/** Every tag of n8n, by name: its id. */
async function tagIds(n8n: N8nClient): Promise<Map<string, string>> {
  const known = new Map<string, string>();
  let cursor: string | undefined;
  do {
    const page = await n8n.get<{ data: { id: string; name: string }[]; nextCursor?: string | null }>('/tags', { query: { limit: 250, cursor } });
    for (const tag of page.data) known.set(tag.name, tag.id);
    cursor = page.nextCursor ?? undefined;
  } while (cursor);
  return known;
}

/** The names among `names` n8n has no tag of. */
export async function missingTags(n8n: N8nClient, names: readonly string[]): Promise<string[]> {
  const known = await tagIds(n8n);
  return names.filter((name) => !known.has(name));
}

/** Sets a workflow's tags by name (n8n sets them as one list of tag ids); tags that do not exist yet are created. */
export async function setWorkflowTags(n8n: N8nClient, workflowId: string, names: readonly string[]): Promise<string[]> {
  const known = await tagIds(n8n);
  const ids: { id: string }[] = [];
  for (const name of names) {
    const tagId = known.get(name) ?? (await n8n.post<{ id: string }>('/tags', { body: { name } })).id;
    ids.push({ id: tagId });
  }
  await n8n.put(`${workflowPath(workflowId)}/tags`, { body: ids });
  return [...names];
}
