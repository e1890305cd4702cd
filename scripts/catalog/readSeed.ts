import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import type { TypesMap } from '../../src/catalog/build.ts';
import { SpecError } from '../../src/catalog/build.ts';
import { loadSeedCatalog } from '../../src/catalog/seed.ts';
import type { NodeSpec } from '../../src/catalog/nodeSpec.ts';

export const SEED_DIR = 'specs/seed';

/** Reads and validates the seed taxonomy from specs/seed; a bad file throws SpecError naming it. */
export function readSeedCatalog(dir = SEED_DIR): NodeSpec[] {
  const types = JSON.parse(readFileSync(join(dir, 'types.json'), 'utf8')) as TypesMap;
  const files = new Map<string, unknown>();
  for (const nodeType of readdirSync(dir, { withFileTypes: true }).filter((d) => d.isDirectory())) {
    for (const file of readdirSync(join(dir, nodeType.name)).filter((f) => f.endsWith('.json'))) {
      const path = join(dir, nodeType.name, file);
      const key = relative(dir, path);
      try {
        files.set(key, JSON.parse(readFileSync(path, 'utf8')));
      } catch (error) {
        throw new SpecError(key, '(file)', `not valid JSON: ${(error as Error).message}`);
      }
    }
  }
  return loadSeedCatalog(types, files);
}
