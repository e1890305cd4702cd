/**
 * Imports n8n's node catalog from the pinned packages' dist/types/nodes.json (scripts/catalog/n8n/
 * importNodes.ts maps them) into .catalog/n8n/specs.v5.json, and writes the port functions those
 * descriptions compute their ports with to src/catalog/ports/n8nPortFunctions.ts, and what structured
 * values may hold to src/catalog/n8nStructuredTypes.ts. Reports what it
 * skipped and why. n8n's data is not committed.
 *
 *   npm run catalog:import-n8n
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import type { NodeSpec } from '../../../src/catalog/nodeSpec.ts';
import { fetchNodeDescriptions } from './fetch.ts';
import { importNodes } from './importNodes.ts';
import { N8N_PACKAGES } from './packages.ts';
import { portFunctionsModule, PORT_FUNCTIONS_FILE } from './portFunctions.ts';
import { readStructuredTypes, STRUCTURED_TYPES_FILE, structuredTypesModule } from './structuredTypes.ts';

/** Named by the importer's output format, so a build never reads specs an older importer wrote. */
export const N8N_SPECS_FILE = '.catalog/n8n/specs.v5.json';

/** The imported catalog, every description (run catalog:import-n8n first). */
export const readN8nSpecs = (): NodeSpec[] => JSON.parse(readFileSync(N8N_SPECS_FILE, 'utf8')) as NodeSpec[];

/** The pinned packages' descriptions, fetched once and cached (see fetch.ts). */
export const pinnedPackages = () => N8N_PACKAGES.map((pkg) => ({ typePrefix: pkg.typePrefix, legacy: pkg.legacy, nodes: fetchNodeDescriptions(pkg) }));

export function importN8n(): NodeSpec[] {
  const { specs, skipped, report, portSources } = importNodes(pinnedPackages());
  mkdirSync('.catalog/n8n', { recursive: true });
  writeFileSync(N8N_SPECS_FILE, JSON.stringify(specs));
  // Written only when it changes: a running wrangler dev rebuilds on every write of a bundled file.
  writeIfChanged(PORT_FUNCTIONS_FILE, portFunctionsModule(portSources, N8N_PACKAGES));
  writeIfChanged(STRUCTURED_TYPES_FILE, structuredTypesModule(readStructuredTypes()));
  const reasons = new Map<string, number>();
  for (const s of skipped) {
    const reason = s.reason.replace(/^v[\d.,]+ /, '');
    reasons.set(reason, (reasons.get(reason) ?? 0) + 1);
  }
  const nodes = new Set(specs.map((s) => s.subtype)).size;
  const legacy = specs.filter((s) => s.legacy).length;
  console.error(
    `n8n: ${nodes} nodes, ${specs.length} descriptions (${legacy} from n8n 1.x only), ${portSources.size} port functions, from ${N8N_PACKAGES.map((p) => `${p.name}@${p.version}`).join(', ')}`,
  );
  for (const [reason, count] of reasons) console.error(`  skipped ${count}: ${reason}`);
  const dropped = Object.entries(report.droppedProperties)
    .map(([t, n]) => `${t} ${n}`)
    .join(', ');
  if (dropped) console.error(`  properties without configuration left out: ${dropped}`);
  return specs;
}

function writeIfChanged(file: string, text: string): void {
  if (!existsSync(file) || readFileSync(file, 'utf8') !== text) writeFileSync(file, text);
}

if (import.meta.main) importN8n();
