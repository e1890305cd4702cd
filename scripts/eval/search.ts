/**
 * Judges search_nodes on ../shared/eval/search_dev.json through the running server: `npm run dev` with
 * only n8n's catalog (the judgements are n8n type names), the real MCP SDK client, then the shared
 * scorer. Fails below nDCG@10 0.90.
 *
 *   npm run eval:search [-- JUDGEMENTS.json]
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { startWranglerDev } from '../lib/wranglerDev.ts';

const TARGET_NDCG = 0.9;
const judgements = process.argv[2] ?? '../shared/eval/search_dev.json';
const queries = (JSON.parse(readFileSync(judgements, 'utf8')) as { queries: { q: string }[] }).queries;

const server = await startWranglerDev({ env: { CATALOGS: 'n8n' } });
const client = new Client({ name: 'search-eval', version: '1.0.0' });
const results: { q: string; ids: string[]; ms: number }[] = [];
try {
  await client.connect(
    new StreamableHTTPClientTransport(new URL('/mcp', server.url), { requestInit: { headers: { authorization: `Bearer ${server.apiKey}` } } }),
  );
  for (const { q } of queries) {
    const start = performance.now();
    const result = await client.callTool({ name: 'search_nodes', arguments: { query: q, max_results: 10 } });
    const ms = performance.now() - start;
    const hits = JSON.parse((result.content as { text: string }[])[0]!.text) as { subtype: string }[];
    results.push({ q, ids: hits.map((h) => h.subtype), ms: Math.round(ms * 100) / 100 });
  }
} finally {
  await client.close();
  await server.stop();
}

mkdirSync('bench/results', { recursive: true });
writeFileSync('bench/results/search-eval-results.json', JSON.stringify(results, null, 1));
const scored = spawnSync('python3', ['../shared/eval/score.py', judgements, 'bench/results/search-eval-results.json'], { encoding: 'utf8' });
if (scored.status !== 0) throw new Error(`score.py failed: ${scored.stderr}`);
const scores = JSON.parse(scored.stdout) as { ndcg10: number };
writeFileSync('bench/results/search-eval.json', JSON.stringify({ judgements, ...scores }, null, 2));
console.log(`search_nodes on ${judgements} (through the running server, ms = round trip):`);
console.log(scored.stdout.trim());
if (scores.ndcg10 < TARGET_NDCG) {
  console.error(`nDCG@10 ${scores.ndcg10} is below the target ${TARGET_NDCG}`);
  process.exit(1);
}
