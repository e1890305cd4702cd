/**
 * Maps the node descriptions of several n8n packages to NodeSpecs: every description of every node
 * (a versioned node has one per group of typeVersions), the tools n8n derives from nodes, and from
 * legacy packages only the typeVersions the current ones lack. Pure apart from progress output; the
 * same input gives byte-identical output (sorted by type name, newest description first).
 */
import { validateSpec } from '../../../src/catalog/build.ts';
import type { NodeSpec } from '../../../src/catalog/nodeSpec.ts';
import { mapNode, typeName, versionsOf, type MapReport, type N8nNode } from './mapNode.ts';
import { addLegacyChoices } from './legacyChoices.ts';
import { toolVariant } from './toolVariant.ts';

export interface ImportPackage {
  typePrefix: string;
  nodes: N8nNode[];
  /** Adds only the typeVersions the current packages do not have. */
  legacy?: boolean;
}

export interface ImportResult {
  specs: NodeSpec[];
  skipped: { subtype: string; reason: string }[];
  report: MapReport;
  /** Port function id → n8n's expression. */
  portSources: Map<string, string>;
}

interface Description {
  node: N8nNode;
  prefix: string;
  versions: number[];
  legacy: boolean;
}

export function importNodes(packages: ImportPackage[]): ImportResult {
  const byType = new Map<string, Description[]>();
  const skipped: ImportResult['skipped'] = [];
  /** Legacy descriptions of versions the current packages also describe: their removed choices are kept. */
  const overlapped = new Map<string, { node: N8nNode; versions: number[] }[]>();
  const ordered = [...packages.filter((p) => !p.legacy), ...packages.filter((p) => p.legacy)];
  for (const { typePrefix, nodes, legacy = false } of ordered) {
    const variants = nodes.flatMap((node) => toolVariant(node) ?? []);
    for (const node of [...nodes, ...variants]) {
      const subtype = typeName(typePrefix, node);
      const known = new Set((byType.get(subtype) ?? []).flatMap((d) => d.versions));
      const versions = versionsOf(node).filter((v) => !known.has(v));
      if (legacy && versions.length < versionsOf(node).length) {
        const list = overlapped.get(subtype) ?? [];
        list.push({ node, versions: versionsOf(node).filter((v) => known.has(v)) });
        overlapped.set(subtype, list);
      }
      if (versions.length === 0) {
        skipped.push({ subtype, reason: legacy ? 'n8n 1.x descriptions of versions n8n 2 still has' : 'duplicate description' });
        continue;
      }
      const list = byType.get(subtype) ?? [];
      list.push({ node: legacy ? { ...node, version: versions } : node, prefix: typePrefix, versions, legacy });
      byType.set(subtype, list);
    }
  }
  const report: MapReport = { droppedProperties: {} };
  const portSources = new Map<string, string>();
  const specs: NodeSpec[] = [];
  const types = [...byType.keys()].sort();
  for (const [i, subtype] of types.entries()) {
    const descriptions = byType.get(subtype)!.sort((a, b) => Math.max(...b.versions) - Math.max(...a.versions));
    const nodeVersions = [...new Set(descriptions.flatMap((d) => d.versions))].sort((a, b) => a - b);
    const current = descriptions.filter((d) => !d.legacy);
    const defaultVersion = current.find((d) => d.node.defaultVersion !== undefined)?.node.defaultVersion ?? nodeVersions.at(-1)!;
    for (const d of descriptions) {
      const ctx = { report, nodeVersions, defaultVersion, legacy: current.length === 0 || d.legacy, portSources };
      try {
        const spec = mapNode(d.node, d.prefix, ctx);
        const older = (overlapped.get(subtype) ?? []).filter((o) => o.versions.some((v) => d.versions.includes(v)));
        if (!d.legacy && older.length > 0)
          addLegacyChoices(
            spec.parameters,
            older.flatMap((o) => o.node.properties ?? []),
          );
        specs.push(validateSpec(subtype, spec));
      } catch (error) {
        skipped.push({ subtype, reason: `v${d.versions.join(',')} does not map to a valid spec: ${(error as Error).message}` });
      }
    }
    if (process.stderr.isTTY && (i % 25 === 0 || i === types.length - 1)) {
      process.stderr.write(`\rmapping n8n nodes ${i + 1}/${types.length}`);
    }
  }
  if (process.stderr.isTTY) process.stderr.write('\n');
  return { specs, skipped, report, portSources };
}
