/**
 * Imports n8n's node catalog: the pinned packages' dist/types/nodes.json, each node's newest version,
 * mapped to NodeSpec, written to .catalog/n8n/specs.json (sorted by type name, so the same input
 * gives byte-identical output). Reports what it skipped and why. n8n's data is not committed.
 *
 *   npm run catalog:import-n8n
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { validateSpec } from '../../../src/catalog/build.ts';
import type { NodeSpec } from '../../../src/catalog/nodeSpec.ts';
import { fetchNodeDescriptions } from './fetch.ts';
import { highestVersion, mapNode, typeName, type MapReport, type N8nNode } from './mapNode.ts';
import { N8N_PACKAGES } from './packages.ts';

export const N8N_SPECS_FILE = '.catalog/n8n/specs.json';

export interface ImportResult {
  specs: NodeSpec[];
  skipped: { subtype: string; reason: string }[];
  report: MapReport;
}

/** Maps descriptions of several packages; pure apart from progress output. */
export function importNodes(packages: { typePrefix: string; nodes: N8nNode[] }[]): ImportResult {
  const newest = new Map<string, { node: N8nNode; prefix: string }>();
  const skipped: ImportResult['skipped'] = [];
  for (const { typePrefix, nodes } of packages) {
    for (const node of nodes) {
      const subtype = typeName(typePrefix, node);
      const current = newest.get(subtype);
      if (!current || highestVersion(node) > highestVersion(current.node)) {
        if (current) skipped.push({ subtype, reason: `older description (v${highestVersion(current.node)}) superseded by v${highestVersion(node)}` });
        newest.set(subtype, { node, prefix: typePrefix });
      } else {
        skipped.push({ subtype, reason: `older description (v${highestVersion(node)}) superseded by v${highestVersion(current.node)}` });
      }
    }
  }
  const report: MapReport = { droppedProperties: {} };
  const specs: NodeSpec[] = [];
  const entries = [...newest.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  for (const [i, [subtype, { node, prefix }]] of entries.entries()) {
    try {
      specs.push(validateSpec(subtype, mapNode(node, prefix, report)));
    } catch (error) {
      skipped.push({ subtype, reason: `does not map to a valid spec: ${(error as Error).message}` });
    }
    if (process.stderr.isTTY && (i % 25 === 0 || i === entries.length - 1)) {
      process.stderr.write(`\rmapping n8n nodes ${i + 1}/${entries.length}`);
    }
  }
  if (process.stderr.isTTY) process.stderr.write('\n');
  return { specs, skipped, report };
}

export function importN8n(): NodeSpec[] {
  const packages = N8N_PACKAGES.map((pkg) => ({ typePrefix: pkg.typePrefix, nodes: fetchNodeDescriptions(pkg) }));
  const { specs, skipped, report } = importNodes(packages);
  mkdirSync('.catalog/n8n', { recursive: true });
  writeFileSync(N8N_SPECS_FILE, JSON.stringify(specs));
  const reasons = new Map<string, number>();
  for (const s of skipped) {
    const key = s.reason.startsWith('older') ? 'older versions of a node' : s.reason;
    reasons.set(key, (reasons.get(key) ?? 0) + 1);
  }
  console.error(`n8n: ${specs.length} nodes imported from ${N8N_PACKAGES.map((p) => `${p.name}@${p.version}`).join(', ')}`);
  for (const [reason, count] of reasons) console.error(`  skipped ${count}: ${reason}`);
  const dropped = Object.entries(report.droppedProperties).map(([t, n]) => `${t} ${n}`).join(', ');
  if (dropped) console.error(`  properties without configuration left out: ${dropped}`);
  return specs;
}

if (import.meta.main) importN8n();
