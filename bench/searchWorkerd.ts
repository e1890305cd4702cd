/**
 * Search measured where it runs: the index `npm run dev` builds (n8n's and the community catalog, the
 * usage prior, the semantic layer's word table), loaded and queried inside workerd (wrangler dev,
 * bench/references/search). Prints and writes bench/results/search-workerd.json:
 *   size        the index as it sits in KV, raw and gzip, and without its semantic layer
 *   cold load   JSON.parse + ready, the first time in a fresh isolate (median of fresh isolates), and
 *               that plus the first query (which decodes the node vectors)
 *   per query   warm CPU per query, p50 and p99 over the development queries (and the semantic
 *               development set), each run REPEAT times; beside the same index less its semantic layer
 *               (lexical only) and a plain scan of the same documents in the same isolate, as ratios
 *
 *   npm run bench:search-workerd [-- --quick]
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { newestDescriptions, searchable } from '../src/catalog/build.ts';
import { buildSearchIndex } from '../src/catalog/search/buildIndex.ts';
import { readCommunitySpecs } from '../scripts/catalog/community/import.ts';
import { readN8nSpecs } from '../scripts/catalog/n8n/import.ts';
import { readNodeWords } from '../scripts/catalog/knowledge/nodeWords.ts';
import { readWordTable } from '../scripts/catalog/semantic/table.ts';
import { readNodeUsage } from '../scripts/catalog/usage/count.ts';
import { DEV_QUERY_SETS, readQueries } from '../scripts/eval/querySets.ts';
import { startWranglerDev } from '../scripts/lib/wranglerDev.ts';
import { percentile, round } from './lib/stats.ts';

const quick = process.argv.includes('--quick');
const REPEAT = quick ? 20 : 100;
const ISOLATES = quick ? 5 : 7;
const TARGETS = { p50Ms: 0.5, coldMs: 20, bytes: 4 * 1024 * 1024 };

const specs = searchable(newestDescriptions([...readN8nSpecs(), ...(readCommunitySpecs() ?? [])]).current);
const index = buildSearchIndex(specs, readNodeUsage(), readWordTable(), readNodeWords());
const serialized = JSON.stringify(index);
const lexicalSerialized = JSON.stringify({ ...index, semantic: undefined });
const lexicalBytes = lexicalSerialized.length;
const queries = [...Object.keys(DEV_QUERY_SETS), 'scripts/eval/queries/semantic_dev.json'].flatMap(readQueries);

const post = async (url: string, body: string) => {
  const response = await fetch(url, { method: 'POST', body });
  if (!response.ok) throw new Error(`${url}: ${response.status} ${await response.text()}`);
  return response.json();
};

// Each fresh wrangler dev is a fresh isolate: its first load is a cold one.
const cold: number[] = [];
const coldFirst: number[] = [];
let timings: { ranker: number[]; lexical: number[]; reference: number[] } | undefined;
for (let i = 0; i < ISOLATES; i++) {
  const server = await startWranglerDev({ config: 'bench/references/search/wrangler.jsonc' });
  try {
    const { loadMs, firstQueryMs } = (await post(`${server.url}/load`, serialized)) as { loadMs: number; firstQueryMs: number };
    cold.push(loadMs);
    coldFirst.push(loadMs + firstQueryMs);
    if (i === 0) timings = (await post(`${server.url}/query`, JSON.stringify({ queries, repeat: REPEAT }))) as typeof timings;
  } finally {
    await server.stop();
  }
}

// The same in fresh isolates without the semantic layer: what it adds to a cold start.
const lexicalCold: number[] = [];
for (let i = 0; i < ISOLATES; i++) {
  const server = await startWranglerDev({ config: 'bench/references/search/wrangler.jsonc' });
  try {
    const { loadMs, firstQueryMs } = (await post(`${server.url}/load`, lexicalSerialized)) as { loadMs: number; firstQueryMs: number };
    lexicalCold.push(loadMs + firstQueryMs);
  } finally {
    await server.stop();
  }
}

const sorted = (xs: number[]) => [...xs].sort((a, b) => a - b);
const ranker = sorted(timings!.ranker);
const lexical = sorted(timings!.lexical);
const reference = sorted(timings!.reference);
const result = {
  nodes: specs.length,
  queries: queries.length,
  repeat: REPEAT,
  bytes: serialized.length,
  gzipBytes: gzipSync(serialized).length,
  lexicalBytes,
  coldLoadMs: { median: round(percentile(sorted(cold), 50)), runs: cold.map((x) => round(x)) },
  coldLoadAndFirstQueryMs: { median: round(percentile(sorted(coldFirst), 50)), runs: coldFirst.map((x) => round(x)) },
  lexicalColdLoadAndFirstQueryMs: { median: round(percentile(sorted(lexicalCold), 50)), runs: lexicalCold.map((x) => round(x)) },
  perQueryMs: { p50: round(percentile(ranker, 50), 3), p99: round(percentile(ranker, 99), 3) },
  lexicalOnlyMs: { p50: round(percentile(lexical, 50), 3), p99: round(percentile(lexical, 99), 3) },
  referenceScanMs: { p50: round(percentile(reference, 50), 3), p99: round(percentile(reference, 99), 3) },
  ratioToLexical: round(percentile(ranker, 50) / percentile(lexical, 50)),
  ratioToScan: round(percentile(ranker, 50) / percentile(reference, 50)),
  targets: TARGETS,
};
mkdirSync('bench/results', { recursive: true });
writeFileSync('bench/results/search-workerd.json', JSON.stringify(result, null, 2) + '\n');
console.log(`search in workerd (${specs.length} nodes; ${queries.length} development queries, each ×${REPEAT}; ${ISOLATES} fresh isolates):`);
console.log(
  `  index      ${(result.bytes / 1024).toFixed(0)} KiB raw, ${(result.gzipBytes / 1024).toFixed(0)} KiB gzip; ${(lexicalBytes / 1024).toFixed(0)} KiB without the semantic layer   (target ≤ ${TARGETS.bytes / 1024 / 1024} MB)`,
);
console.log(
  `  cold load  ${result.coldLoadMs.median} ms median (${result.coldLoadMs.runs.join(', ')}); with the first query ${result.coldLoadAndFirstQueryMs.median} ms, lexical only ${result.lexicalColdLoadAndFirstQueryMs.median} ms   (target ≤ ${TARGETS.coldMs} ms)`,
);
console.log(`  per query  p50 ${result.perQueryMs.p50} ms, p99 ${result.perQueryMs.p99} ms   (target p50 ≤ ${TARGETS.p50Ms} ms)`);
console.log(`  lexical    p50 ${result.lexicalOnlyMs.p50} ms, p99 ${result.lexicalOnlyMs.p99} ms: with the semantic layer ${result.ratioToLexical}× that`);
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
