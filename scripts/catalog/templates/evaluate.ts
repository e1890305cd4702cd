/**
 * Template search quality and sizes, on the committed templates served with the last built catalog
 * (.catalog/entries.json: npm run catalog:build), as the build stores them.
 *
 *   npx tsx scripts/catalog/templates/evaluate.ts [QUERIES.json]    default scripts/eval/queries/templates_dev.json
 *
 * The file is a list of queries (or {"about", "queries": [...]}), each {"q", "nodes": [types a matching
 * template must contain]}. A node is contained when the template uses it or its tool variant (`notion`
 * by `notionTool`: the same app's operations, called by an agent), not its trigger (`telegramTrigger`
 * receives what `telegram` sends: another job). Over the
 * first 10 templates search returns: precision@5, the share of the first (at most 5) that match, a
 * query answered with none counting 0; top-1, the share of queries whose first template matches; MRR,
 * the mean of 1 / the rank of the first that matches (0 when none of the 10 does).
 */
import { readFileSync } from 'node:fs';
import { newestDescriptions } from '../../../src/catalog/build.ts';
import { templateIndexKey } from '../../../src/catalog/keys.ts';
import { TemplateSearcher } from '../../../src/templates/rankTemplates.ts';
import { templateEntries, type TemplateIndex } from '../../../src/templates/searchIndex.ts';
import { loadSpecs } from '../../lib/nodeCatalog.ts';
import { readCollected, validatedAgainstBuild } from './read.ts';

interface Query {
  q: string;
  nodes: string[];
}

const K = 5;
const DEPTH = 10;

/** Whether a template using `types` contains `node`, by itself or its tool variant. */
export const contains = (types: readonly string[], node: string): boolean => types.includes(node) || types.includes(`${node}Tool`);

/** precision@K, top-1 and MRR of `queries` against `searcher`, with each query's first templates. */
export function score(searcher: TemplateSearcher, queries: Query[]) {
  const rows = queries.map(({ q, nodes }) => {
    const { results } = searcher.search({ query: q, max: DEPTH });
    const matching = results.map((r) => nodes.every((n) => contains(r.node_types, n)));
    const first = matching.slice(0, K);
    const rank = matching.indexOf(true) + 1;
    return {
      q,
      precision: first.length === 0 ? 0 : first.filter(Boolean).length / first.length,
      top1: matching[0] === true,
      reciprocalRank: rank === 0 ? 0 : 1 / rank,
      first: results.slice(0, K).map((r) => r.name),
    };
  });
  const mean = (values: number[]) => values.reduce((a, b) => a + b, 0) / values.length;
  return {
    precision: mean(rows.map((r) => r.precision)),
    top1: mean(rows.map((r) => (r.top1 ? 1 : 0))),
    mrr: mean(rows.map((r) => r.reciprocalRank)),
    rows,
  };
}

if (import.meta.main) {
  // A list of queries, or {about, queries}.
  const read = JSON.parse(readFileSync(process.argv[2] ?? 'scripts/eval/queries/templates_dev.json', 'utf8')) as Query[] | { queries: Query[] };
  const queries = Array.isArray(read) ? read : read.queries;
  const specs = loadSpecs();
  const templates = validatedAgainstBuild(readCollected());
  const entries = templateEntries('eval', templates, newestDescriptions(specs).current);
  const indexValue = entries.find((e) => e.key === templateIndexKey('eval'))!.value;
  const values = entries.filter((e) => e.key !== templateIndexKey('eval')).map((e) => e.value.length);
  const valid = templates.filter((t) => t.validation.valid).length;
  const validAsWritten = templates.filter((t) => (t.unfixed ?? t.validation).valid).length;
  const { precision, top1, mrr, rows } = score(new TemplateSearcher(JSON.parse(indexValue) as TemplateIndex), queries);
  for (const row of rows) console.log(`${row.precision.toFixed(2)} ${row.reciprocalRank.toFixed(2)} ${row.q} → ${row.first.join(' | ') || '(none)'}`);
  console.log(
    `${templates.length} templates, ${valid} validate without errors (${((100 * valid) / templates.length).toFixed(0)}%; ${validAsWritten} before the sure fixes); ` +
      `index ${(indexValue.length / 1024).toFixed(1)} KiB, templates ${(values.reduce((a, b) => a + b, 0) / 1024).toFixed(1)} KiB (largest ${(Math.max(...values) / 1024).toFixed(1)} KiB); ` +
      `${queries.length} queries: precision@${K} ${precision.toFixed(2)}, top-1 ${top1.toFixed(2)}, MRR ${mrr.toFixed(2)}`,
  );
}
