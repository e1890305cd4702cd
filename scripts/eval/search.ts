/**
 * Judges search_nodes through the running server, as a user gets it: the default `npm run dev`, the real
 * MCP SDK client, max_results 10, then the shared scorer (../shared/eval/score.py). Each query set has
 * a floor for nDCG@10; the run fails below any of them.
 *
 *   npm run eval:search                      the development sets (scripts/eval/querySets.ts)
 *   npm run eval:search -- FILE.json [...]   other judgements (reported, floor 0)
 *
 * Writes bench/results/search-eval.json (scores per set) and search-eval-results.json (the rankings).
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { startWranglerDev } from '../lib/wranglerDev.ts';
import { DEV_QUERY_SETS, readQueries } from './querySets.ts';

const files = process.argv.length > 2 ? Object.fromEntries(process.argv.slice(2).map((f) => [f, 0])) : DEV_QUERY_SETS;

// One key asks every query in a row: the per-key search limit would answer most of them with 429.
const server = await startWranglerDev({ vars: { RATE_LIMITS: 'off' } });
const client = new Client({ name: 'search-eval', version: '1.0.0' });
const rankings: Record<string, { q: string; ids: string[]; ms: number }[]> = {};
try {
  await client.connect(
    new StreamableHTTPClientTransport(new URL('/mcp', server.url), { requestInit: { headers: { authorization: `Bearer ${server.apiKey}` } } }),
  );
  for (const file of Object.keys(files)) {
    rankings[file] = [];
    for (const q of readQueries(file)) {
      const start = performance.now();
      const result = await client.callTool({ name: 'search_nodes', arguments: { query: q, max_results: 10 } });
      const ms = performance.now() - start;
      const text = (result.content as { text: string }[])[0]!.text;
      if (result.isError) throw new Error(`search_nodes "${q}" failed: ${text}`);
      const hits = JSON.parse(text) as { subtype: string }[];
      rankings[file]!.push({ q, ids: hits.map((h) => h.subtype), ms: Math.round(ms * 100) / 100 });
    }
  }
} finally {
  await client.close();
  await server.stop();
}

mkdirSync('bench/results', { recursive: true });
writeFileSync('bench/results/search-eval-results.json', JSON.stringify(rankings, null, 1));
const scores: Record<string, { ndcg10: number; mrr: number; top1_ideal: number }> = {};
const below: string[] = [];
console.log('search_nodes through the running server (npm run dev, default catalog; ms = round trip):');
for (const [file, floor] of Object.entries(files)) {
  const resultsFile = 'bench/results/search-eval-set.json';
  writeFileSync(resultsFile, JSON.stringify(rankings[file]));
  const scored = spawnSync('python3', ['../shared/eval/score.py', file, resultsFile], { encoding: 'utf8' });
  if (scored.status !== 0) throw new Error(`score.py failed on ${file}: ${scored.stderr}`);
  const score = (scores[file] = JSON.parse(scored.stdout) as (typeof scores)[string]);
  console.log(`  ${file}${floor ? ` (floor ${floor})` : ''}: ${scored.stdout.trim()}`);
  if (score.ndcg10 < floor) below.push(`${file}: nDCG@10 ${score.ndcg10} < ${floor}`);
}
writeFileSync('bench/results/search-eval.json', JSON.stringify(scores, null, 2) + '\n');
if (below.length > 0) {
  console.error(`below the floor:\n  ${below.join('\n  ')}`);
  process.exit(1);
}
