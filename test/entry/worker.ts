/**
 * The test entry: the production Worker (src/worker.ts) with the test-only code composed on top: the
 * conformance pack (./conformance: the suite's tools, resources and prompts, the MRTR fixtures, the
 * queue and task test tools), the fault hooks (./faults.ts) and the session object's delivery counts
 * (./SessionObject.ts). It runs with wrangler.toml's configuration and this file as the main module:
 * in the workers test project (vitest.config.ts), and as `wrangler dev test/entry/worker.ts` for
 * `npm run conformance` and `npm run load` (startWranglerDev's `entry`). `npm run dev` and
 * `npm run deploy` serve src/worker.ts, which holds none of this.
 */
import { addToServer } from '../../src/server/additions';
import { requestStateCodec } from '../../src/server/requestState';
import production from '../../src/worker';
import { installMrtrPack, type Round } from './conformance/mrtrPack';
import { installConformancePack } from './conformance/pack';
import { QUEUE_TEST_TOOLS } from './conformance/queueTools';
import { TASK_TEST_TOOLS } from './conformance/taskTools';
import { CONFORMANCE_TOOLS } from './conformance/tools';
import { EVICT_PATH, evictSession, withFailedAttempts, type FaultEnv } from './faults';

export { SessionObject } from './SessionObject';
export { TaskObject } from '../../src/tasks/TaskObject';
export { HistoryObject } from '../../src/history/HistoryObject';

/** The pack's tools, served through the production registry beside the deployment's own. */
export const TEST_TOOLS = [...CONFORMANCE_TOOLS, ...QUEUE_TEST_TOOLS, ...TASK_TEST_TOOLS];

addToServer({
  tools: TEST_TOOLS,
  install(server, env, era) {
    installConformancePack(server, era);
    const codec = requestStateCodec<Round>(env);
    if (codec) installMrtrPack(server, codec);
  },
});

const isEviction = (request: Request) => request.method === 'POST' && new URL(request.url).pathname === EVICT_PATH;

export default {
  fetch: (request, env, ctx) => (isEviction(request) ? evictSession(request, env) : production.fetch(request, env, ctx)),
  // Only attempts of the tool-calls consumer fail: the dead-letter consumer is what answers calls that kept failing.
  queue: (batch, env) => production.queue(batch.queue.endsWith('-dlq') ? batch : withFailedAttempts(batch, env), env),
} satisfies ExportedHandler<FaultEnv>;
