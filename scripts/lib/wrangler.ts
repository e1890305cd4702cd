import { spawnSync } from 'node:child_process';

/** Runs a wrangler command and returns what it printed; throws with its stderr when it fails. */
export function wrangler(args: string[]): string {
  const run = spawnSync('npx', ['wrangler', ...args], { stdio: ['ignore', 'pipe', 'pipe'], encoding: 'utf8' });
  if (run.status !== 0) throw new Error(`wrangler ${args.slice(0, 3).join(' ')} failed:\n${run.stderr}`);
  return run.stdout;
}
