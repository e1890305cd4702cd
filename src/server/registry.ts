import type { Env } from '../env';
import { n8nConnection } from '../n8n/client';
import { getGuide } from '../tools/getGuide';
import { getNodeDetails } from '../tools/nodes/getNodeDetails';
import { N8N_TOOLS } from '../tools/n8n';
import { getNodeTypes } from '../tools/nodes/getNodeTypes';
import { searchNodes } from '../tools/nodes/searchNodes';
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
  getGuide,
  validateNode,
  validateWorkflow,
  autofixWorkflow,
];

/** The tools a session on this deployment offers: the n8n tools only when an n8n is configured; then any the entry added (./additions.ts). */
export function toolsFor(env: Env): readonly ToolDefinition[] {
  return [...CORE_TOOLS, ...(n8nConnection(env) ? N8N_TOOLS : []), ...(serverAdditions()?.tools ?? [])];
}
