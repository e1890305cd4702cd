/**
 * Builds the node catalog into KV entries: .catalog/entries.json (every entry but the pointer) and
 * .catalog/manifest.json. Which catalogs go in is configuration: `--catalogs seed` (default: seed).
 *
 *   npm run catalog:build [-- --catalogs seed]
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { buildCatalog, SpecError } from '../../src/catalog/build.ts';
import { CURRENT_KEY } from '../../src/catalog/keys.ts';
import type { NodeSpec } from '../../src/catalog/nodeSpec.ts';
import { readSeedCatalog } from './readSeed.ts';

export const OUT_DIR = '.catalog';

const SOURCES: Record<string, () => NodeSpec[]> = {
  seed: () => readSeedCatalog(),
};

export async function build(catalogs: string[]) {
  const specs: NodeSpec[] = [];
  for (const name of catalogs) {
    const source = SOURCES[name];
    if (!source) throw new Error(`unknown catalog "${name}" (known: ${Object.keys(SOURCES).join(', ')})`);
    const loaded = source();
    console.error(`catalog ${name}: ${loaded.length} specs`);
    specs.push(...loaded);
  }
  const result = await buildCatalog(specs, { sources: catalogs });
  mkdirSync(OUT_DIR, { recursive: true });
  const entries = result.entries.filter((e) => e.key !== CURRENT_KEY);
  writeFileSync(`${OUT_DIR}/entries.json`, JSON.stringify(entries));
  writeFileSync(`${OUT_DIR}/manifest.json`, JSON.stringify(result.manifest, null, 2) + '\n');
  const bytes = entries.reduce((n, e) => n + e.key.length + e.value.length, 0);
  console.error(`catalog ${result.manifest.version}: ${entries.length} KV entries, ${(bytes / 1024).toFixed(0)} KiB`);
  return result.manifest;
}

export function catalogsFromArgs(argv: string[]): string[] {
  const i = argv.indexOf('--catalogs');
  return (i >= 0 ? argv[i + 1] ?? '' : 'seed').split(',').filter(Boolean);
}

if (import.meta.main) {
  try {
    await build(catalogsFromArgs(process.argv));
  } catch (error) {
    if (error instanceof SpecError) {
      console.error(`invalid spec: ${error.message}`);
      process.exit(1);
    }
    throw error;
  }
}
