import { z } from 'zod';
import { allows } from '../auth/scopes';
import { EXPRESSION_GUIDE_URI, expressionGuide, timeZoneSection, type TimeZoneFacts } from '../catalog/expressionGuide';
import { drivesN8n, N8nClient } from '../n8n/client';
import { defaultConnectionFor } from '../workspaces/connectionFor';
import { n8nId } from '../n8n/ids';
import { nodeGate } from './n8n/nodeGate';
import { workflowPath, type Workflow } from './n8n/workflowApi';
import { defineTool, ToolError, type ToolContext } from './tool';

/**
 * The guides this server also serves as resources, as a tool: a client that only calls tools (n8n's MCP
 * Client Tool node is one) never reads a resource. One tool for every guide, so guides to come add a
 * topic, not a tool.
 */
export const getGuide = defineTool({
  name: 'get_guide',
  title: 'Read a guide',
  description:
    'How to write n8n expressions and Code nodes, before you write one: what may go inside {{ }} (one JavaScript expression, ' +
    "arrow functions too, no statements), $json, $input and $('Node').first() (items) against a list's .first(), Luxon dates, " +
    "and the time zone a workflow runs in on this server's n8n (with workflowId, that workflow's) and how to pin it. " +
    `The same text as the resource ${EXPRESSION_GUIDE_URI}, for clients that only call tools.`,
  input: z.object({
    topic: z.enum(['expressions']).default('expressions').describe('expressions: n8n expressions, dates and time zones, the Code node'),
    workflowId: n8nId('workflow')
      .optional()
      .describe('A saved workflow: the guide then says the time zone it runs in (its settings.timezone, read from n8n; needs the workflows:read scope)'),
  }),
  annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
  execution: 'direct',
  async run({ workflowId }, ctx) {
    return expressionGuide(timeZoneSection(await timeZoneFacts(ctx, workflowId)));
  },
});

/** What is known of the time zone here: whether an n8n is configured, and the asked workflow's setting as n8n has it. */
async function timeZoneFacts(ctx: ToolContext, workflowId: string | undefined): Promise<TimeZoneFacts> {
  const connection = await defaultConnectionFor(ctx.env, ctx.caller);
  if (workflowId === undefined) return { instance: connection !== undefined };
  if (!connection)
    throw new ToolError(
      drivesN8n(ctx.env)
        ? 'You have no default n8n (list_instances says which you have): there is no workflow to read. Ask without workflowId.'
        : 'No n8n is configured on this server (N8N_API_URL and N8N_API_KEY): there is no workflow to read. Ask without workflowId.',
    );
  if (!allows(ctx.caller.scopes, 'workflows:read')) {
    throw new ToolError('Reading a workflow’s time zone needs the workflows:read scope, which this credential lacks. Ask without workflowId.');
  }
  const workflow = await new N8nClient(connection, nodeGate(ctx.caller, ctx.env), ctx.signal).get<Workflow>(workflowPath(workflowId));
  const timezone = workflow.settings?.timezone;
  return { instance: true, workflow: { id: workflow.id, name: workflow.name, ...(typeof timezone === 'string' && timezone ? { timezone } : {}) } };
}
