/**
 * Builds the node catalog into KV entries: .catalog/entries.json (every entry but the pointer) and
 * .catalog/manifest.json. Which catalogs go in is configuration: `--catalogs n8n,community` (the default:
 * n8n's nodes and community node packages, scripts/catalog/community/import.ts), `--catalogs n8n`,
 * `--catalogs seed` (the seed taxonomy alone), `--catalogs seed,n8n`, or CATALOGS in the environment.
 * A catalog fetched from npm that cannot be had is left out and the build says so; when none is left,
 * it falls back to the seed catalog. Search ranks with the usage counts in
 * scripts/catalog/usage/node-usage.json; essentials and examples come from the parameter counts in
 * scripts/catalog/usage/parameter-usage.json (scripts/catalog/usage/applyUsage.ts).
 *
 *   npm run catalog:build [-- --catalogs seed]
 */
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { buildCatalog, SpecError } from '../../src/catalog/build.ts';
import { CURRENT_KEY } from '../../src/catalog/keys.ts';
import type { NodeSpec } from '../../src/catalog/nodeSpec.ts';
import { importCommunity, readCommunitySpecs } from './community/import.ts';
import { readNodeWords } from './knowledge/nodeWords.ts';
import { importN8n, N8N_SPECS_FILE, readN8nSpecs } from './n8n/import.ts';
import { applyUsage, readParameterUsage } from './usage/applyUsage.ts';
import { readNodeUsage } from './usage/count.ts';
import { applyObserved } from './observe/apply.ts';
import { readObserved } from './observe/paths.ts';
import { readSeedCatalog } from './readSeed.ts';
import { readWordTable } from './semantic/table.ts';
import { templatesFor } from './templates/read.ts';
import { readNodeLooks } from '../view/icons.ts';

export const OUT_DIR = '.catalog';

const SOURCES: Record<string, () => NodeSpec[]> = {
  seed: () => readSeedCatalog(),
  n8n: () => (existsSync(N8N_SPECS_FILE) ? readN8nSpecs() : importN8n()),
  community: () => readCommunitySpecs() ?? importCommunity(),
};

/** Catalogs that may be missing without failing the build (they come from the network). */
const OPTIONAL = new Set(['n8n', 'community']);
/** What a build with nothing else to serve falls back to. */
const FALLBACK = 'seed';
export const DEFAULT_CATALOGS = 'n8n,community';

export async function build(catalogs: string[]) {
  const specs: NodeSpec[] = [];
  const included: string[] = [];
  for (const name of catalogs) {
    const source = SOURCES[name];
    if (!source) throw new Error(`unknown catalog "${name}" (known: ${Object.keys(SOURCES).join(', ')})`);
    let loaded: NodeSpec[];
    try {
      loaded = source();
    } catch (error) {
      if (!OPTIONAL.has(name)) throw error;
      console.error(`catalog ${name} left out: ${(error as Error).message}`);
      continue;
    }
    console.error(`catalog ${name}: ${loaded.length} specs`);
    specs.push(...loaded);
    included.push(name);
  }
  if (included.length === 0) {
    console.error(`no catalog could be built: serving the ${FALLBACK} catalog instead`);
    specs.push(...SOURCES[FALLBACK]!());
    included.push(FALLBACK);
  }
  const { specs: used, refused } = applyUsage(applyObserved(specs, readObserved()), readParameterUsage());
  if (refused.length > 0) console.error(`${refused.length} real examples validate_node refuses, not served:\n  ${refused.join('\n  ')}`);
  const result = await buildCatalog(used, {
    sources: included,
    usage: readNodeUsage(),
    words: readNodeWords(),
    templates: templatesFor(used),
    semantic: readWordTable(),
    looks: readNodeLooks(),
  });
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
  return (i >= 0 ? (argv[i + 1] ?? '') : (process.env.CATALOGS ?? DEFAULT_CATALOGS)).split(',').filter(Boolean);
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
