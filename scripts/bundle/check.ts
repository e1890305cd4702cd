/**
 * `npm run bundle:check`: bundles the production Worker as `npm run deploy` would (`wrangler deploy
 * --dry-run` of wrangler.toml, which uploads nothing), prints its size (and gzipped, as wrangler counts
 * it) and the bytes per package and per folder of src/, and writes bench/results/bundle.json. Exits 1
 * when the bundle holds a module from test code or tooling, from where test-only code once lived in
 * src/, from a devDependency or from another forbidden package (./attribute.ts).
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { forbiddenFor, groupsOf, modulesOf, violations } from './attribute.ts';

const RESULT = 'bench/results/bundle.json';

/** The production Worker as `wrangler deploy` would upload it: its file name and bytes. */
function buildProduction(): { file: string; bundle: Buffer } {
  const outdir = mkdtempSync(join(tmpdir(), 'bundle-check-'));
  try {
    const build = spawnSync('npx', ['wrangler', 'deploy', '--dry-run', '--outdir', outdir], {
      stdio: ['ignore', 'pipe', 'pipe'],
      encoding: 'utf8',
      env: { ...process.env, WRANGLER_SEND_METRICS: 'false' },
    });
    if (build.status !== 0) throw new Error(`wrangler deploy --dry-run failed:\n${build.stdout}${build.stderr}`);
    const scripts = readdirSync(outdir).filter((name) => name.endsWith('.js'));
    if (scripts.length !== 1) throw new Error(`expected one bundle in ${outdir}, found: ${scripts.join(', ') || 'none'}`);
    return { file: scripts[0]!, bundle: readFileSync(join(outdir, scripts[0]!)) };
  } finally {
    rmSync(outdir, { recursive: true, force: true });
  }
}

const { file, bundle } = buildProduction();
const modules = modulesOf(bundle.toString('utf8'));
const groups = groupsOf(modules);
const { devDependencies = {} } = JSON.parse(readFileSync('package.json', 'utf8')) as { devDependencies?: Record<string, string> };
const found = violations(modules, forbiddenFor(Object.keys(devDependencies)));
const gzipBytes = gzipSync(bundle).length;

const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KiB`;
console.log(
  `Production bundle (wrangler deploy --dry-run): ${file} ${bundle.length.toLocaleString('en')} bytes (${kb(bundle.length)}), gzip ${gzipBytes.toLocaleString('en')} (${kb(gzipBytes)}); ${modules.length} modules\n`,
);
for (const group of groups) {
  console.log(`  ${group.path.padEnd(40)} ${kb(group.bytes).padStart(11)}  ${((100 * group.bytes) / bundle.length).toFixed(1).padStart(5)}%`);
}

const commit = execFileSync('git', ['rev-parse', '--short', 'HEAD'], { encoding: 'utf8' }).trim();
mkdirSync('bench/results', { recursive: true });
writeFileSync(
  RESULT,
  JSON.stringify({ date: new Date().toISOString(), commit, file, bytes: bundle.length, gzipBytes, groups, modules, forbidden: found }, null, 2) + '\n',
);
console.log(`\nwrote ${RESULT}`);

if (found.length > 0) {
  console.error(`\nThe production bundle holds ${found.length} module(s) it must not:`);
  for (const { path, rule } of found) console.error(`  ${path}  (${rule})`);
  process.exit(1);
}
console.log('No test-only module and no forbidden package in the production bundle.');
