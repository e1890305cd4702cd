/**
 * Runs the MCP conformance suite's server scenarios against `wrangler dev` with the test-only
 * conformance pack enabled. Scenarios that cannot pass yet are listed, with the reason, in
 * test/conformance/expected-failures.yml; the run fails on any other failure, and on a listed
 * scenario that now passes (so the baseline only shrinks).
 */
import { spawnSync } from 'node:child_process';
import { startWranglerDev } from './lib/wranglerDev.ts';

// The suite sends no credentials (it tests the protocol; access control has tests of its own), so this
// local server takes anonymous callers.
const server = await startWranglerDev({ vars: { CONFORMANCE_PACK: 'on', ALLOW_ANONYMOUS: 'true' } });
let status = 1;
try {
  const run = spawnSync(
    'npx',
    [
      'conformance',
      'server',
      '--url',
      `${server.url}/mcp`,
      '--expected-failures',
      'test/conformance/expected-failures.yml',
      '--suite',
      'all',
      '--output-dir',
      'test/conformance/.results',
      ...process.argv.slice(2),
    ],
    { stdio: 'inherit' },
  );
  status = run.status ?? 1;
} finally {
  await server.stop();
}
process.exit(status);
