/**
 * Runs the MCP conformance suites' server scenarios against `wrangler dev` of the test entry (the
 * production Worker with the test-only conformance pack, test/entry/worker.ts), in both protocol eras:
 *
 * - @modelcontextprotocol/conformance 0.1.16, every scenario (`--suite all`), against the baseline in
 *   test/conformance/expected-failures.yml: the run fails on any other failure, and on a listed
 *   scenario that now passes (so the baseline only shrinks);
 * - 0.2.0-alpha.12 with `--requirements 2025-11-25` and `--requirements 2026-07-28`. A requirement set
 *   also runs what it does not score (the tasks extension, pending scenarios); every check of every
 *   scenario that ran must pass here, scored or not.
 *
 * Extra arguments go to the 0.1.16 run (e.g. `-- --scenario tools-list`).
 */
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { startWranglerDev, TEST_ENTRY } from './lib/wranglerDev.ts';

const RESULTS = 'test/conformance/.results';
// Both versions ship a `conformance` bin, so each is run by its own path.
const SUITE = 'node_modules/@modelcontextprotocol/conformance/dist/index.js';
const NEXT = 'node_modules/@modelcontextprotocol/conformance-next/dist/index.js';

// The suites send no credentials and test the protocol, not access control or rate limits (those have
// tests of their own), so this local server takes anonymous callers without limits; the three runs
// send more requests than a minute's budget. MRTR rounds need a requestState key.
const server = await startWranglerDev({
  entry: TEST_ENTRY,
  vars: { ALLOW_ANONYMOUS: 'true', RATE_LIMITS: 'off', REQUEST_STATE_KEY: randomBytes(32).toString('base64url') },
});
const failures: string[] = [];
try {
  const url = `${server.url}/mcp`;
  const baseline = run(process.execPath, [
    SUITE,
    'server',
    '--url',
    url,
    '--expected-failures',
    'test/conformance/expected-failures.yml',
    '--suite',
    'all',
    '--output-dir',
    join(RESULTS, '0.1.16'),
    ...process.argv.slice(2),
  ]);
  if (baseline !== 0) failures.push('0.1.16 --suite all (against the baseline)');
  for (const revision of ['2025-11-25', '2026-07-28']) {
    const dir = join(RESULTS, revision);
    rmSync(dir, { recursive: true, force: true });
    const status = run(process.execPath, [NEXT, 'server', '--url', url, '--requirements', revision, '--output-dir', dir]);
    const checks = readChecks(dir);
    const failed = checks.filter((c) => c.status === 'FAILURE');
    const warned = checks.filter((c) => c.status === 'WARNING');
    console.log(
      `\n0.2.0-alpha.12 --requirements ${revision}: ${checks.filter((c) => c.status === 'SUCCESS').length} checks passed, ${failed.length} failed, ${warned.length} warnings (scored and unscored scenarios)`,
    );
    for (const check of [...failed, ...warned]) console.log(`  ${check.status} ${check.scenario} ${check.id}: ${check.errorMessage ?? ''}`);
    if (status !== 0 || failed.length > 0 || checks.length === 0) failures.push(`0.2.0-alpha.12 --requirements ${revision}`);
  }
} finally {
  await server.stop();
}
if (failures.length > 0) console.error(`\nConformance failed: ${failures.join('; ')}`);
process.exit(failures.length > 0 ? 1 : 0);

function run(command: string, args: string[]): number {
  return spawnSync(command, args, { stdio: 'inherit' }).status ?? 1;
}

interface Check {
  scenario: string;
  id: string;
  status: string;
  errorMessage?: string;
}

/** Every check of every scenario a run wrote (one folder per scenario, each with its checks.json). */
function readChecks(dir: string): Check[] {
  return readdirSync(dir, { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .flatMap((entry) => {
      const checks = JSON.parse(readFileSync(join(dir, entry.name, 'checks.json'), 'utf8')) as Omit<Check, 'scenario'>[];
      return checks.map((check) => ({ ...check, scenario: entry.name.replace(/-\d{4}-\d{2}-\d{2}T.*$/, '') }));
    });
}
