import { join } from 'node:path';

/**
 * Where `npm run dev` keeps its key: beside the local state it unlocks (git-ignored, like all of
 * .wrangler/). On its own so the benchmarks, which run under plain `node`, can read it without
 * importing src/.
 */
export const devKeyFile = (stateDir: string) => join(stateDir, 'dev-api-key.json');
