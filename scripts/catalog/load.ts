/**
 * Loads the built catalog (.catalog/) into the SPECS KV namespace, then switches `catalog:current`
 * to it — last, in a write of its own, so readers never see half a catalog.
 *
 *   npm run catalog:load -- --local [--persist-to DIR]     local KV used by `wrangler dev`
 *   npm run catalog:load -- --remote                       the deployed namespace
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { CatalogManifest, KvEntry } from '../../src/catalog/build.ts';
import { CURRENT_KEY } from '../../src/catalog/keys.ts';
import { wrangler } from '../lib/wrangler.ts';
import { OUT_DIR } from './build.ts';

/** Remote bulk writes take at most 10,000 pairs; smaller chunks also make a useful progress bar. */
const CHUNK = 1000;

function progress(done: number, total: number): void {
  const width = 30;
  const filled = Math.round((done / total) * width);
  process.stderr.write(`\r[${'#'.repeat(filled)}${'.'.repeat(width - filled)}] ${done}/${total} entries`);
  if (done === total) process.stderr.write('\n');
}

export function load(target: string[]): CatalogManifest {
  const entries = JSON.parse(readFileSync(`${OUT_DIR}/entries.json`, 'utf8')) as KvEntry[];
  const manifest = JSON.parse(readFileSync(`${OUT_DIR}/manifest.json`, 'utf8')) as CatalogManifest;
  const dir = mkdtempSync(join(tmpdir(), 'catalog-load-'));
  try {
    for (let i = 0; i < entries.length; i += CHUNK) {
      const file = join(dir, `chunk-${i}.json`);
      writeFileSync(file, JSON.stringify(entries.slice(i, i + CHUNK)));
      wrangler(['kv', 'bulk', 'put', file, '--binding', 'SPECS', ...target]);
      progress(Math.min(i + CHUNK, entries.length), entries.length);
    }
    wrangler(['kv', 'key', 'put', CURRENT_KEY, manifest.version, '--binding', 'SPECS', ...target]);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  console.error(`catalog:current → ${manifest.version} (${manifest.specs} specs from ${manifest.sources.join(', ')})`);
  return manifest;
}

if (import.meta.main) {
  const args = process.argv.slice(2);
  if (!args.includes('--local') && !args.includes('--remote')) {
    console.error('say where: --local [--persist-to DIR] or --remote');
    process.exit(2);
  }
  load(args);
}
