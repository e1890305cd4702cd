/// <reference types="vite/client" />
import { env } from 'cloudflare:workers';
import { buildCatalog, type TypesMap } from '../../src/catalog/build';
import { clearCatalogCache } from '../../src/catalog/catalog';
import type { NodeSpec } from '../../src/catalog/nodeSpec';
import { loadSeedCatalog } from '../../src/catalog/seed';
import seedTypes from '../../specs/seed/types.json';

const seedFiles = import.meta.glob<unknown>('../../specs/seed/*/*.json', { eager: true, import: 'default' });

/** The seed taxonomy as the build reads it, from the committed files. */
export function seedSpecs(): NodeSpec[] {
  const files = new Map(Object.entries(seedFiles).map(([path, content]) => [path.replace('../../specs/seed/', ''), content]));
  return loadSeedCatalog(seedTypes as TypesMap, files);
}

/** A minimal valid spec: an action node named after its subtype, with `overrides`. */
export const spec = (subtype: string, overrides: Partial<NodeSpec> = {}): NodeSpec => ({
  node_type: 'ACTION_NODE',
  subtype,
  version: '1.0.0',
  display_name: subtype,
  description: `Does ${subtype}`,
  aliases: [],
  categories: [],
  source: 'seed',
  documentation_url: null,
  parameters: [],
  input_ports: [],
  output_ports: [],
  examples: [],
  ...overrides,
});

/** Builds `specs` and writes them into the SPECS KV binding the way the loader does, pointer last. */
export async function loadCatalog(specs: NodeSpec[] = seedSpecs(), sources = ['seed'], more: Omit<Parameters<typeof buildCatalog>[1], 'sources'> = {}) {
  const build = await buildCatalog(specs, { sources, ...more });
  for (const { key, value } of build.entries) await env.SPECS.put(key, value);
  clearCatalogCache();
  return build;
}
