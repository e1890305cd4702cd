import type { Env } from '../env';
import type { ExecutionPolicy, ToolDefinition } from '../tools/tool';

/** Seed 001's PendingCallsManager default. */
const DEFAULT_CALL_TIMEOUT_MS = 120_000;

/** The tool's own policy, unless the deployment forces every tool to one (EXECUTION_MODE). */
export function executionPolicy(tool: ToolDefinition, env: Env): ExecutionPolicy {
  const forced = env.EXECUTION_MODE;
  return forced === 'direct' || forced === 'queued' ? forced : tool.execution;
}

type IsLong = (args: Record<string, unknown> | undefined) => boolean;

/**
 * Calls that run a workflow in n8n and wait for it, seconds to minutes: they are consumed from a queue
 * of their own (LONG_CALLS_QUEUE), so that no short call waits behind one. A queue hands its consumer
 * the next batch only once the current one is done (miniflare always; Cloudflare until it adds a
 * concurrent consumer, which it decides after a batch), so a long call in a batch held every call queued
 * after it (docs/reliability.md). edit_workflow only when it runs the workflow's saved tests; its
 * arguments unknown (kept apart, too large for a message), as if it did.
 */
const LONG_CALLS: ReadonlyMap<string, IsLong> = new Map<string, IsLong>([
  ['try_nodes', () => true],
  ['test_workflow', () => true],
  ['run_workflow_tests', () => true],
  ['edit_workflow', (args) => args === undefined || args.runTests === true],
]);

/** Whether a queued call of `tool` with these arguments (undefined: not at hand) runs long. */
export function runsLong(tool: string, args: Record<string, unknown> | undefined): boolean {
  return LONG_CALLS.get(tool)?.(args) ?? false;
}

/** How long a queued call may take: the tool's own limit, else the deployment's, else 120 s. */
export function callTimeoutMs(tool: ToolDefinition, env: Env): number {
  const deployment = Number(env.TOOL_TIMEOUT_SECONDS) * 1000;
  return tool.timeoutMs ?? (Number.isFinite(deployment) && deployment > 0 ? deployment : DEFAULT_CALL_TIMEOUT_MS);
}
