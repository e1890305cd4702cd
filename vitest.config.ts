import { cloudflareTest } from '@cloudflare/vitest-plugin';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    // The server logs a JSON line per request and tool run: shown for failing tests only.
    silent: 'passed-only',
    projects: [
      {
        // Inside workerd, with wrangler.toml's bindings, serving the test entry: the production Worker
        // with the conformance pack, the fault hooks and the session objects' delivery counts on top.
        plugins: [
          cloudflareTest({
            main: './test/entry/worker.ts',
            wrangler: { configPath: './wrangler.toml' },
            miniflare: {
              bindings: {
                SESSION_IDLE_TTL_SECONDS: '600',
                // A key revoked in a test is refused at once; test/auth/keyCache.test.ts turns the cache on.
                API_KEY_CACHE_SECONDS: '0',
                OPERATOR_PASSWORD: 'operator password for tests',
                // Seals multi-round-trip requestState (MCP 2026-07-28), so the MRTR fixtures are served.
                REQUEST_STATE_KEY: 'request state key for tests, 32 bytes or more',
                // Runs per property in the *.fuzz.test.ts files: a quick pass in `npm test`, many in `npm run fuzz`.
                FUZZ_RUNS: process.env.FUZZ_RUNS ?? (process.env.npm_lifecycle_event === 'fuzz' ? '10000' : '200'),
              },
              ratelimits: {
                // A real (emulated) limiter small enough to run out of in a test: test/auth/rateLimit.test.ts.
                TINY_LIMITER: { namespace_id: '9001', simple: { limit: 3, period: 60 } },
                // Every OAuth client of the test files comes from one address; test/auth/oauth.test.ts runs TINY_LIMITER out instead.
                OAUTH_LIMITER: { namespace_id: '9002', simple: { limit: 10_000, period: 60 } },
              },
            },
          }),
        ],
        test: {
          name: 'workers',
          include: ['test/**/*.test.ts'],
          exclude: ['test/e2e/**', 'test/e2e-n8n/**', 'test/scripts/**', 'test/view/**'],
          // A fake n8n held to n8n's OpenAPI, for the n8n tools' runs in workerd (test/tools/n8n, the hostile-input tests).
          globalSetup: ['test/fakes/n8n/globalSetup.ts'],
          // The test entry composes its pack as it loads; loaded first, a test that calls src/ directly sees the pack too.
          setupFiles: ['test/entry/worker.ts'],
          testTimeout: 30_000,
        },
      },
      {
        // Build-time scripts (catalog import) in Node.
        test: { name: 'scripts', include: ['test/scripts/**/*.test.ts'] },
      },
      {
        // The workflow view (src/view): its pure parts in Node, its drawing in Chromium, framed by a test host
        // that speaks MCP Apps through the SDK's own host bridge (test/support/appHost.ts).
        test: { name: 'view', include: ['test/view/**/*.test.ts'], testTimeout: 60_000, hookTimeout: 60_000 },
      },
      {
        // Real MCP SDK clients in Node against `wrangler dev`.
        test: {
          name: 'e2e',
          include: ['test/e2e/**/*.test.ts'],
          globalSetup: ['test/e2e/wranglerDev.ts'],
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      {
        // The workflow tools against a real n8n (`npm run test:n8n`; installs n8n into .n8n/ the first time).
        test: {
          name: 'n8n',
          include: ['test/e2e-n8n/**/*.test.ts'],
          globalSetup: ['test/e2e-n8n/setup.ts'],
          testTimeout: 120_000,
          hookTimeout: 900_000,
        },
      },
    ],
  },
});
