/**
 * The reference for search quality: n8n-mcp 2.87.0's `search_nodes` (its stdio MCP server, mode OR,
 * max 10 results, offline) on the same judgements `npm run eval:search` scores, through the same scorer
 * (../shared/eval/score.py), so the two are read side by side.
 *
 *   npm i --prefix .eval/n8n-mcp n8n-mcp@2.87.0
 *   npx tsx bench/searchReference.ts [--source core|all] FILE.json [...]
 *
 * `--source core` (the default) searches n8n's own nodes, as our core sets are judged; `all` adds
 * n8n-mcp's community nodes (for the community set). Writes bench/results/search-n8n-mcp.json.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { readQueries } from '../scripts/eval/querySets.ts';
import { connectN8nMcp, N8N_MCP_VERSION, n8nMcpMissing } from './lib/n8nMcp.ts';

const { values, positionals } = parseArgs({ options: { source: { type: 'string', default: 'core' } }, allowPositionals: true });
const missing = n8nMcpMissing();
if (missing) throw new Error(missing);
if (positionals.length === 0) throw new Error('name the judgements files to score');

const client = await connectN8nMcp('search-reference');
const scores: Record<string, unknown> = {};
mkdirSync('bench/results', { recursive: true });
try {
  for (const file of positionals) {
    const ranked: { q: string; ids: string[] }[] = [];
    for (const q of readQueries(file)) {
      const result = await client.callTool({ name: 'search_nodes', arguments: { query: q, limit: 10, mode: 'OR', source: values.source } });
      const text = (result.content as { text: string }[])[0]!.text;
      const hits = result.isError ? [] : ((JSON.parse(text) as { results?: { workflowNodeType: string }[] }).results ?? []);
      ranked.push({ q, ids: hits.map((h) => h.workflowNodeType) });
    }
    const rankingFile = 'bench/results/search-n8n-mcp-set.json';
    writeFileSync(rankingFile, JSON.stringify(ranked));
    const scored = spawnSync('python3', ['../shared/eval/score.py', file, rankingFile], { encoding: 'utf8' });
    if (scored.status !== 0) throw new Error(`score.py failed on ${file}: ${scored.stderr}`);
    scores[file] = JSON.parse(scored.stdout);
    console.log(`n8n-mcp ${N8N_MCP_VERSION} (source ${values.source}) ${file}: ${scored.stdout.trim()}`);
  }
} finally {
  await client.close();
}
writeFileSync('bench/results/search-n8n-mcp.json', JSON.stringify({ source: values.source, scores }, null, 2) + '\n');
