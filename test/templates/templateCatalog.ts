import { env } from 'cloudflare:workers';
import { buildCatalog } from '../../src/catalog/build';
import { clearCatalogCache } from '../../src/catalog/catalog';
import type { CollectedTemplate } from '../../src/templates/template';
import { servedTemplate } from '../../src/templates/validation';
import { n8nCatalog, n8nSpecs } from '../support/n8nCatalog';
import { FIXTURE_TEMPLATES } from './templateFixtures';

/**
 * Builds the fixture catalog of real n8n descriptions with `templates`, each fixed for sure and
 * validated against it as the build does (scripts/catalog/templates/read.ts), and writes it into the
 * SPECS KV binding, pointer last.
 */
export async function loadTemplates(templates: CollectedTemplate[] = FIXTURE_TEMPLATES) {
  const validated = templates.map((t) => servedTemplate(t, n8nCatalog));
  const build = await buildCatalog(n8nSpecs, { sources: ['n8n'], templates: validated });
  for (const { key, value } of build.entries) await env.SPECS.put(key, value);
  // The pointer is re-read; the template index the isolate holds is by version, so a new one replaces it by itself.
  clearCatalogCache();
  return build;
}
