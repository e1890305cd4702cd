/**
 * Search engines compared on n8n's full catalog, in one run, the same queries and fields for all:
 *   ours       the hand-written BM25F index built into the catalog (src/catalog/search)
 *   minisearch MiniSearch 7, same fields and boosts, fuzzy + prefix
 *   orama      Orama 3, same fields and boosts, typo tolerance 1
 *   naive      seed 002's substring scoring over the specs
 * Quality with ../shared/eval/score.py on the three development sets (nDCG@10 each); warm per-query CPU
 * time over all their queries (p50, p99, over many rounds) and cold load (parse + ready) in a fresh
 * process, in Node's V8 (bench:search-workerd measures ours in workerd); serialized size.
 *
 *   npm run bench:search      (needs the n8n catalog: npm run catalog:import-n8n, done by npm run dev)
 * Writes bench/results/search.json.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { create, insertMultiple, load, save, search as oramaSearch } from '@orama/orama';
import MiniSearch from 'minisearch';
import { newestDescriptions, searchable } from '../src/catalog/build.ts';
import type { NodeSpec } from '../src/catalog/nodeSpec.ts';
import { buildSearchIndex, FIELDS, searchText, type SearchIndex } from '../src/catalog/search/buildIndex.ts';
import { Searcher } from '../src/catalog/search/search.ts';
import { readN8nSpecs } from '../scripts/catalog/n8n/import.ts';
import { readNodeUsage } from '../scripts/catalog/usage/count.ts';
import { DEV_QUERY_SETS, readQueries } from '../scripts/eval/querySets.ts';
import { percentile, round } from './lib/stats.ts';

const ROUNDS = 30;
const FIELD_NAMES = Object.keys(FIELDS) as (keyof typeof FIELDS)[];

interface Engine {
  /** The serialized index, as it would sit in KV. */
  serialized: string;
  /** Parse the serialized index and get ready to answer. */
  load(serialized: string): Promise<(query: string) => string[]> | ((query: string) => string[]);
}

function specsAndDocs() {
  const specs = searchable(newestDescriptions(readN8nSpecs()).current);
  const usage = readNodeUsage();
  const docs = specs.map((s, id) => ({ id, subtype: s.subtype, ...searchText(s, usage) }));
  return { specs, docs, usage };
}

async function engines(): Promise<Record<string, Engine>> {
  const { specs, docs, usage } = specsAndDocs();

  const miniOptions = { fields: FIELD_NAMES, storeFields: ['subtype'], searchOptions: { boost: FIELDS, fuzzy: 0.2, prefix: true } };
  const mini = new MiniSearch(miniOptions);
  mini.addAll(docs);

  const schema = Object.fromEntries([...FIELD_NAMES.map((f) => [f, 'string']), ['subtype', 'string']]) as Record<string, 'string'>;
  const orama = create({ schema });
  await insertMultiple(
    orama,
    docs.map(({ id, ...rest }) => ({ ...rest, id: String(id) })),
  );

  return {
    ours: {
      serialized: JSON.stringify(buildSearchIndex(specs, usage)),
      load: (s) => {
        const searcher = new Searcher(JSON.parse(s) as SearchIndex);
        return (q) => searcher.search(q, 10).map((h) => h.subtype);
      },
    },
    minisearch: {
      serialized: JSON.stringify(mini),
      load: (s) => {
        const index = MiniSearch.loadJSON(s, miniOptions);
        return (q) =>
          index
            .search(q)
            .slice(0, 10)
            .map((r) => r.subtype as string);
      },
    },
    orama: {
      serialized: JSON.stringify(save(orama)),
      load: (s) => {
        const db = create({ schema });
        load(db, JSON.parse(s));
        return (q) =>
          (
            oramaSearch(db, { term: q, boost: FIELDS, tolerance: 1, limit: 10, properties: FIELD_NAMES }) as { hits: { document: { subtype: string } }[] }
          ).hits.map((h) => h.document.subtype);
      },
    },
    naive: {
      // Seed 002's search has no index: it scans the specs themselves.
      serialized: JSON.stringify(specs),
      load: (s) => {
        const all = JSON.parse(s) as NodeSpec[];
        return (q) => naive(all, q);
      },
    },
  };
}

/** Seed 002's scoring: the whole query as a substring of description, parameters and ports. */
function naive(specs: NodeSpec[], query: string): string[] {
  const q = query.toLowerCase();
  const scored: [string, number][] = [];
  for (const spec of specs) {
    let score = spec.description.toLowerCase().includes(q) ? 10 : 0;
    for (const p of spec.parameters) {
      if (p.name.toLowerCase().includes(q)) score += 5;
      if (p.description.toLowerCase().includes(q)) score += 3;
    }
    for (const port of [...spec.input_ports, ...spec.output_ports]) {
      if (port.name.toLowerCase().includes(q)) score += 3;
      if (port.description.toLowerCase().includes(q)) score += 2;
    }
    if (score > 0) scored.push([spec.subtype, score]);
  }
  return scored
    .sort((a, b) => b[1] - a[1])
    .slice(0, 10)
    .map(([id]) => id);
}

/** Child mode: time a cold load of one engine's serialized index in a fresh process. */
if (process.argv[2] === '--cold-load') {
  const all = await engines();
  const engine = all[process.argv[3]!]!;
  const serialized = engine.serialized;
  const start = performance.now();
  const query = await engine.load(serialized);
  const loadMs = performance.now() - start;
  const first = performance.now();
  query('send a message to slack');
  console.log(JSON.stringify({ loadMs, firstQueryMs: performance.now() - first }));
  process.exit(0);
}

const sets = Object.keys(DEV_QUERY_SETS).map((file) => ({ file, queries: readQueries(file) }));
const queries = sets.flatMap((set) => set.queries);
const setName = (file: string) => file.replace(/^.*\//, '').replace('.json', '');
const all = await engines();
const report: Record<string, unknown> = {};
mkdirSync('bench/results', { recursive: true });
for (const [name, engine] of Object.entries(all)) {
  const query = await engine.load(engine.serialized);
  const quality: Record<string, number> = {};
  for (const set of sets) {
    const file = `bench/results/search-${name}-${setName(set.file)}-results.json`;
    writeFileSync(file, JSON.stringify(set.queries.map((q) => ({ q, ids: query(q) }))));
    quality[setName(set.file)] = (
      JSON.parse(execFileSync('python3', ['../shared/eval/score.py', set.file, file], { encoding: 'utf8' })) as { ndcg10: number }
    ).ndcg10;
  }
  const times: number[] = [];
  for (let r = 0; r < ROUNDS; r++) {
    for (const q of queries) {
      const start = performance.now();
      query(q);
      times.push(performance.now() - start);
    }
  }
  times.sort((a, b) => a - b);
  const colds = Array.from({ length: 3 }, () => {
    const run = spawnSync(process.execPath, [...process.execArgv, process.argv[1]!, '--cold-load', name], { encoding: 'utf8' });
    return JSON.parse(run.stdout.trim().split('\n').at(-1)!) as { loadMs: number; firstQueryMs: number };
  });
  const cold = colds.map((c) => c.loadMs).sort((a, b) => a - b)[1]!;
  report[name] = {
    ...quality,
    queryP50Ms: round(percentile(times, 50), 3),
    queryP99Ms: round(percentile(times, 99), 3),
    coldLoadMs: round(cold, 2),
    sizeKiB: round(Buffer.byteLength(engine.serialized) / 1024, 1),
  };
  console.error(`${name}: done`);
}

console.log(`\nsearch over n8n's catalog, ${queries.length} development queries, ${ROUNDS} warm rounds; nDCG@10 per set\n`);
console.log(`engine     ${sets.map((set) => setName(set.file).padStart(13)).join('')}   p50 ms   p99 ms  cold load ms  size KiB`);
for (const [name, r] of Object.entries(report) as [string, Record<string, number>][]) {
  console.log(
    `${name.padEnd(10)} ${sets.map((set) => r[setName(set.file)]!.toFixed(3).padStart(13)).join('')} ${r.queryP50Ms!.toFixed(3).padStart(8)} ${r.queryP99Ms!.toFixed(3).padStart(8)} ${r.coldLoadMs!.toFixed(2).padStart(13)} ${r.sizeKiB!.toFixed(1).padStart(9)}`,
  );
}
writeFileSync(
  'bench/results/search.json',
  JSON.stringify({ date: new Date().toISOString(), queries: queries.length, rounds: ROUNDS, engines: report }, null, 2),
);
console.log('\nwrote bench/results/search.json');
