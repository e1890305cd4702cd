import type { Env } from '../env';
import { n8nConnection } from '../n8n/client';
import { QUEUE_TEST_TOOLS } from './conformance/queueTools';
import { TASK_TEST_TOOLS } from './conformance/taskTools';
import { CONFORMANCE_TOOLS } from './conformance/tools';
import { getNodeDetails } from './nodes/getNodeDetails';
import { N8N_TOOLS } from './n8n';
import { getNodeTypes } from './nodes/getNodeTypes';
import { searchNodes } from './nodes/searchNodes';
import { serverInfo } from './serverInfo';
import { autofixWorkflow } from './validation/autofixWorkflow';
import { validateNode } from './validation/validateNode';
import { validateWorkflow } from './validation/validateWorkflow';
import type { ToolDefinition } from './tool';

/** The tools every deployment serves. */
const CORE_TOOLS: readonly ToolDefinition[] = [serverInfo, getNodeTypes, getNodeDetails, searchNodes, validateNode, validateWorkflow, autofixWorkflow];

/** The tools a session on this deployment offers: the n8n tools only when an n8n is configured. */
export function toolsFor(env: Env): readonly ToolDefinition[] {
  return [
    ...CORE_TOOLS,
    ...(n8nConnection(env) ? N8N_TOOLS : []),
    ...(env.CONFORMANCE_PACK === 'on' ? [...CONFORMANCE_TOOLS, ...QUEUE_TEST_TOOLS, ...TASK_TEST_TOOLS] : []),
  ];
}
