/**
 * Search measured where it runs: the index `npm run dev` builds (n8n's catalog, the usage prior), loaded
 * and queried inside workerd (wrangler dev, bench/references/search). Prints and writes
 * bench/results/search-workerd.json:
 *   size        the index as it sits in KV, raw and gzip
 *   cold load   JSON.parse + ready, the first time in a fresh isolate (median of fresh isolates)
 *   per query   warm CPU per query, p50 and p99 over the development queries, each run REPEAT times;
 *               beside a plain scan of the same documents in the same isolate (the reference), as a ratio
 *
 *   npm run bench:search-workerd [-- --quick]
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { newestDescriptions, searchable } from '../src/catalog/build.ts';
import { buildSearchIndex } from '../src/catalog/search/buildIndex.ts';
import { readN8nSpecs } from '../scripts/catalog/n8n/import.ts';
import { readNodeUsage } from '../scripts/catalog/usage/count.ts';
import { DEV_QUERY_SETS, readQueries } from '../scripts/eval/querySets.ts';
import { startWranglerDev } from '../scripts/lib/wranglerDev.ts';
import { percentile, round } from './lib/stats.ts';

const quick = process.argv.includes('--quick');
const REPEAT = quick ? 20 : 100;
const ISOLATES = quick ? 5 : 7;
const TARGETS = { p50Ms: 0.5, coldMs: 15, bytes: 2 * 1024 * 1024 };

const specs = searchable(newestDescriptions(readN8nSpecs()).current);
const serialized = JSON.stringify(buildSearchIndex(specs, readNodeUsage()));
const queries = Object.keys(DEV_QUERY_SETS).flatMap(readQueries);

const post = async (url: string, body: string) => {
  const response = await fetch(url, { method: 'POST', body });
  if (!response.ok) throw new Error(`${url}: ${response.status} ${await response.text()}`);
  return response.json();
};

// Each fresh wrangler dev is a fresh isolate: its first load is a cold one.
const cold: number[] = [];
let timings: { ranker: number[]; reference: number[] } | undefined;
for (let i = 0; i < ISOLATES; i++) {
  const server = await startWranglerDev({ config: 'bench/references/search/wrangler.jsonc' });
  try {
    cold.push(((await post(`${server.url}/load`, serialized)) as { loadMs: number }).loadMs);
    if (i === 0) timings = (await post(`${server.url}/query`, JSON.stringify({ queries, repeat: REPEAT }))) as typeof timings;
  } finally {
    await server.stop();
  }
}

const sorted = (xs: number[]) => [...xs].sort((a, b) => a - b);
const ranker = sorted(timings!.ranker);
const reference = sorted(timings!.reference);
const result = {
  queries: queries.length,
  repeat: REPEAT,
  bytes: serialized.length,
  gzipBytes: gzipSync(serialized).length,
  coldLoadMs: { median: round(percentile(sorted(cold), 50)), runs: cold.map((x) => round(x)) },
  perQueryMs: { p50: round(percentile(ranker, 50), 3), p99: round(percentile(ranker, 99), 3) },
  referenceScanMs: { p50: round(percentile(reference, 50), 3), p99: round(percentile(reference, 99), 3) },
  ratioToScan: round(percentile(ranker, 50) / percentile(reference, 50)),
  targets: TARGETS,
};
mkdirSync('bench/results', { recursive: true });
writeFileSync('bench/results/search-workerd.json', JSON.stringify(result, null, 2) + '\n');
console.log(`search in workerd (${queries.length} development queries, each ×${REPEAT}; ${ISOLATES} fresh isolates):`);
console.log(
  `  index      ${(result.bytes / 1024).toFixed(0)} KiB raw, ${(result.gzipBytes / 1024).toFixed(0)} KiB gzip   (target ≤ ${TARGETS.bytes / 1024 / 1024} MB)`,
);
console.log(`  cold load  ${result.coldLoadMs.median} ms median (${result.coldLoadMs.runs.join(', ')})   (target ≤ ${TARGETS.coldMs} ms)`);
console.log(`  per query  p50 ${result.perQueryMs.p50} ms, p99 ${result.perQueryMs.p99} ms   (target p50 ≤ ${TARGETS.p50Ms} ms)`);
console.log(`  reference  plain scan p50 ${result.referenceScanMs.p50} ms: the ranker takes ${result.ratioToScan}× a scan`);
const missed = [
  result.bytes > TARGETS.bytes && 'size',
  result.coldLoadMs.median > TARGETS.coldMs && 'cold load',
  result.perQueryMs.p50 > TARGETS.p50Ms && 'per-query p50',
].filter(Boolean);
if (missed.length > 0) {
  console.error(`over target: ${missed.join(', ')}`);
  process.exit(1);
}
