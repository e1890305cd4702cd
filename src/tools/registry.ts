import type { Env } from '../env';
import { serverInfo } from './serverInfo';
import type { ToolDefinition } from './tool';

/** The tools every deployment serves. Later layers (catalog, n8n) add theirs here. */
const CORE_TOOLS: readonly ToolDefinition[] = [serverInfo];

/** The tools a session on this deployment offers. */
export function toolsFor(_env: Env): readonly ToolDefinition[] {
  return CORE_TOOLS;
}
