import { z } from 'zod';
import { workflowBody } from '../../n8n/workflowBody';
import { ToolError } from '../tool';
import { CREATES, DELETES, id, n8nTool, page, paging, READS, REPLACES, TOGGLES, type Page } from './n8nTool';

interface Workflow {
  id: string;
  name: string;
  active?: boolean;
  isArchived?: boolean;
  createdAt?: string;
  updatedAt?: string;
  nodes?: unknown[];
  tags?: { id: string; name: string }[];
}

/** What a listing shows of a workflow: enough to pick one, not its whole graph. */
const summary = (w: Workflow) => ({
  id: w.id,
  name: w.name,
  active: w.active,
  ...(w.isArchived ? { isArchived: true } : {}),
  updatedAt: w.updatedAt,
  nodes: w.nodes?.length ?? 0,
  tags: w.tags?.map((t) => t.name) ?? [],
});

/** A workflow as get_workflow returns it; any other fields are passed along and filtered for n8n. */
const workflowInput = z
  .looseObject({
    name: z.string().min(1).describe('Workflow name'),
    nodes: z.array(z.looseObject({})).describe('Nodes: name, type, typeVersion, position, parameters, credentials…'),
    connections: z.record(z.string(), z.unknown()).describe('Connections keyed by source node name'),
    settings: z.looseObject({}).optional().describe('Workflow settings (executionOrder, timezone, errorWorkflow…)'),
  })
  .describe('The workflow; what get_workflow returns is accepted as is, read-only fields are dropped');

const workflowPath = (workflowId: string) => `/workflows/${encodeURIComponent(workflowId)}`;

export const WORKFLOW_TOOLS = [
  n8nTool({
    name: 'list_workflows',
    title: 'List workflows',
    description: 'List the n8n workflows (id, name, active, node count, tags), filtered and a page at a time.',
    input: z.object({
      active: z.boolean().optional().describe('Only active (true) or inactive (false) workflows'),
      tags: z.string().optional().describe('Comma-separated tag names; workflows having all of them'),
      name: z.string().optional().describe('Workflows with this name'),
      projectId: z.string().optional().describe('Workflows of this project'),
      ...paging,
    }),
    annotations: READS,
    async run({ active, tags, name, projectId, limit, cursor }, n8n) {
      const query = { active, tags, name, projectId, limit, cursor, excludePinnedData: true };
      return page('workflows', await n8n.get<Page<Workflow>>('/workflows', { query }), summary);
    },
  }),
  n8nTool({
    name: 'get_workflow',
    title: 'Get a workflow',
    description: 'Get one workflow whole: nodes, connections, settings. Change it and send it back with update_workflow.',
    input: z.object({ id: id('workflow') }),
    annotations: READS,
    run: ({ id }, n8n) => n8n.get(workflowPath(id)),
  }),
  n8nTool({
    name: 'create_workflow',
    title: 'Create a workflow',
    description: 'Create a workflow from name, nodes, connections and settings (inactive until activated).',
    input: z.object({ workflow: workflowInput }),
    annotations: CREATES,
    async run({ workflow }, n8n) {
      return summary(await n8n.post<Workflow>('/workflows', { body: workflowBody(workflow) }));
    },
  }),
  n8nTool({
    name: 'update_workflow',
    title: 'Update a workflow',
    description:
      'Replace a workflow with the one given: read it with get_workflow, change it, send the whole object back. ' +
      'Fields n8n does not accept on update (id, active, tags, createdAt…) are dropped.',
    input: z.object({ id: id('workflow').optional().describe('The workflow id; defaults to workflow.id'), workflow: workflowInput }),
    annotations: REPLACES,
    async run({ id, workflow }, n8n) {
      const workflowId = id ?? (typeof workflow.id === 'string' ? workflow.id : undefined);
      if (!workflowId) throw new ToolError('id: which workflow to update (or a workflow with its id)');
      return summary(await n8n.put<Workflow>(workflowPath(workflowId), { body: workflowBody(workflow) }));
    },
  }),
  n8nTool({
    name: 'delete_workflow',
    title: 'Delete a workflow',
    description: 'Delete a workflow for good.',
    input: z.object({ id: id('workflow') }),
    annotations: DELETES,
    async run({ id }, n8n) {
      const deleted = await n8n.delete<Workflow>(workflowPath(id));
      return { deleted: true, id: deleted?.id ?? id, name: deleted?.name };
    },
  }),
  n8nTool({
    name: 'activate_workflow',
    title: 'Activate a workflow',
    description: 'Activate (publish) a workflow, so its triggers run.',
    input: z.object({ id: id('workflow') }),
    annotations: TOGGLES,
    async run({ id }, n8n) {
      return summary(await n8n.post<Workflow>(`${workflowPath(id)}/activate`));
    },
  }),
  n8nTool({
    name: 'deactivate_workflow',
    title: 'Deactivate a workflow',
    description: 'Deactivate a workflow, so its triggers stop.',
    input: z.object({ id: id('workflow') }),
    annotations: TOGGLES,
    async run({ id }, n8n) {
      return summary(await n8n.post<Workflow>(`${workflowPath(id)}/deactivate`));
    },
  }),
];
