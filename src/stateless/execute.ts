import type { Env } from '../env';
import { callTimeoutMs } from '../server/policy';
import { runDirect, toolContext } from '../server/runTool';
import type { ToolExecutor } from '../server/createServer';

/**
 * How a 2026-07-28 tools/call runs: where the request arrived, in the Worker. A queued tool that was
 * not asked to run as a task runs here too, under its deadline: the request's own response is the
 * only place its answer can go, and the Worker holds it at no wall-time cost.
 */
export function modernExecutor(env: Env): ToolExecutor {
  return (tool, args, request) => {
    const signal = AbortSignal.any([request.signal, AbortSignal.timeout(callTimeoutMs(tool, env))]);
    return runDirect(tool, args, toolContext(env, tool, undefined, { ...request, signal }));
  };
}
