/**
 * npm run docs:readme: rewrites README.md's generated tables (the tools, the configuration) from the
 * registry, src/env.ts and wrangler.toml. `-- --check` writes nothing and fails when they are stale.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { register } from 'node:module';

// The registry reaches test_workflow, which imports waitUntil from the Workers runtime; Node has no
// `cloudflare:workers`, and listing tools never calls it, so it resolves to a stand-in here.
const WORKERS_STAND_IN = 'data:text/javascript,export const waitUntil = () => {};';
register(
  `data:text/javascript,${encodeURIComponent(
    `export const resolve = (specifier, context, next) => specifier === 'cloudflare:workers' ? { url: '${WORKERS_STAND_IN}', shortCircuit: true } : next(specifier, context);`,
  )}`,
);
const { readmeTables, replaceTables } = await import('./readmeTables.ts');

const readme = readFileSync('README.md', 'utf8');
const generated = replaceTables(readme, readmeTables());
if (process.argv.includes('--check')) {
  if (generated !== readme) {
    console.error('README.md: the generated tables are stale; run npm run docs:readme');
    process.exit(1);
  }
  console.log('README.md: the generated tables are current');
} else if (generated === readme) {
  console.log('README.md: the generated tables are current');
} else {
  writeFileSync('README.md', generated);
  console.log('README.md: the tools and configuration tables rewritten');
}
