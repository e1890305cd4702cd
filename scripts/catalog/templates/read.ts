/**
 * The committed templates (templates.json.gz, written by collect.ts) as they are served: each with
 * autofix_workflow's sure fixes made and validated, against the catalog it is served with. The catalog
 * build calls templatesFor with its specs, so each template's fixes and findings are those of the very
 * catalog it is served in.
 */
import { existsSync, readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import type { NodeSpec } from '../../../src/catalog/nodeSpec.ts';
import type { CollectedTemplate, ValidatedTemplate } from '../../../src/templates/template.ts';
import { servedTemplate } from '../../../src/templates/validation.ts';
import { catalogOf, type NodeCatalog } from '../../../src/workflows/nodeCatalog.ts';
import { loadNodeCatalog } from '../../lib/nodeCatalog.ts';

/** Gzipped (its JSON is megabytes); a file not ending in .gz is read as plain JSON. */
export const TEMPLATES_FILE = 'scripts/catalog/templates/templates.json.gz';

/** The committed templates; none before collect.ts first ran. */
export function readCollected(file = TEMPLATES_FILE): CollectedTemplate[] {
  if (!existsSync(file)) return [];
  const bytes = readFileSync(file);
  return (JSON.parse((file.endsWith('.gz') ? gunzipSync(bytes) : bytes).toString('utf8')) as { templates: CollectedTemplate[] }).templates;
}

const validated = (templates: CollectedTemplate[], catalog: NodeCatalog): ValidatedTemplate[] => templates.map((template) => servedTemplate(template, catalog));

/** The committed templates as served against `specs` (every description, older ones too): sure fixes made, then validated. */
export const templatesFor = (specs: NodeSpec[], file = TEMPLATES_FILE): ValidatedTemplate[] => validated(readCollected(file), catalogOf(specs));

/** Templates as served against the last built catalog (.catalog/entries.json). */
export const validatedAgainstBuild = (templates: CollectedTemplate[]): ValidatedTemplate[] => validated(templates, loadNodeCatalog());
