import type { Env } from '../env';
import { QUEUE_TEST_TOOLS } from './conformance/queueTools';
import { CONFORMANCE_TOOLS } from './conformance/tools';
import { getNodeDetails } from './nodes/getNodeDetails';
import { getNodeTypes } from './nodes/getNodeTypes';
import { searchNodes } from './nodes/searchNodes';
import { serverInfo } from './serverInfo';
import type { ToolDefinition } from './tool';

/** The tools every deployment serves. Later layers (n8n) add theirs here. */
const CORE_TOOLS: readonly ToolDefinition[] = [serverInfo, getNodeTypes, getNodeDetails, searchNodes];

/** The tools a session on this deployment offers. */
export function toolsFor(env: Env): readonly ToolDefinition[] {
  return env.CONFORMANCE_PACK === 'on' ? [...CORE_TOOLS, ...CONFORMANCE_TOOLS, ...QUEUE_TEST_TOOLS] : CORE_TOOLS;
}
