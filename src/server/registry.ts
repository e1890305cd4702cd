import type { Env } from '../env';
import { drivesN8n, servesWorkspaces } from '../n8n/client';
import { instanceArgument } from '../tools/n8n/n8nTool';
import { listInstances } from '../tools/listInstances';
import { getGuide } from '../tools/getGuide';
import { getNodeDetails } from '../tools/nodes/getNodeDetails';
import { N8N_TOOLS } from '../tools/n8n';
import { getNodeTypes } from '../tools/nodes/getNodeTypes';
import { searchNodes } from '../tools/nodes/searchNodes';
import { getTemplate } from '../tools/templates/getTemplate';
import { searchTemplates } from '../tools/templates/searchTemplates';
import { serverInfo } from '../tools/serverInfo';
import { autofixWorkflow } from '../tools/validation/autofixWorkflow';
import { validateNode } from '../tools/validation/validateNode';
import { validateWorkflow } from '../tools/validation/validateWorkflow';
import type { ToolDefinition } from '../tools/tool';
import { serverAdditions } from './additions';

/** The tools every deployment serves. */
const CORE_TOOLS: readonly ToolDefinition[] = [
  serverInfo,
  getNodeTypes,
  getNodeDetails,
  searchNodes,
  searchTemplates,
  getTemplate,
  getGuide,
  validateNode,
  validateWorkflow,
  autofixWorkflow,
];

/** The n8n tools where workspaces are on: each also takes `instance`; made on first use (not at every isolate's start), once, so each schema is converted once. */
let n8nToolsWithInstance: readonly ToolDefinition[] | undefined;
const withInstance = (): readonly ToolDefinition[] =>
  (n8nToolsWithInstance ??= N8N_TOOLS.map((tool) => ({ ...tool, input: tool.input.extend(instanceArgument) })));

/**
 * The tools a session on this deployment offers: the n8n tools and list_instances only when it drives
 * n8n (taking `instance` where workspaces are on); then any the entry added (./additions.ts).
 */
export function toolsFor(env: Env): readonly ToolDefinition[] {
  const n8n = !drivesN8n(env) ? [] : [listInstances, ...(servesWorkspaces(env) ? withInstance() : N8N_TOOLS)];
  return [...CORE_TOOLS, ...n8n, ...(serverAdditions()?.tools ?? [])];
}
