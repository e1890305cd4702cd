import type { Env } from '../env';
import type { ExecutionPolicy, ToolDefinition } from '../tools/tool';

/** Seed 001's PendingCallsManager default. */
const DEFAULT_CALL_TIMEOUT_MS = 120_000;

/** The tool's own policy, unless the deployment forces every tool to one (EXECUTION_MODE). */
export function executionPolicy(tool: ToolDefinition, env: Env): ExecutionPolicy {
  const forced = env.EXECUTION_MODE;
  return forced === 'direct' || forced === 'queued' ? forced : tool.execution;
}

/**
 * Whether a queued call of `tool` with these arguments (undefined: kept apart, too large for a message)
 * runs long (ToolDefinition.runsLong): then it is consumed from a queue of its own (LONG_CALLS_QUEUE).
 * A queue hands its consumer the next batch only once the current one is done (miniflare always;
 * Cloudflare until it adds a concurrent consumer, which it decides after a batch), so a long call in a
 * batch held every call queued after it (docs/reliability.md).
 */
export const runsLong = (tool: ToolDefinition, args: Record<string, unknown> | undefined): boolean => tool.runsLong?.(args) ?? false;

/** How long a queued call may take: the tool's own limit, else the deployment's, else 120 s. */
export function callTimeoutMs(tool: ToolDefinition, env: Env): number {
  const deployment = Number(env.TOOL_TIMEOUT_SECONDS) * 1000;
  return tool.timeoutMs ?? (Number.isFinite(deployment) && deployment > 0 ? deployment : DEFAULT_CALL_TIMEOUT_MS);
}
