/**
 * Counts, from real workflows, which parameters builders set on each node version (and operation),
 * which values they run its deciding choices with, and the configuration they most often write (in the
 * mode most of them run in) with user data replaced by placeholders, into
 * scripts/catalog/usage/parameter-usage.json (committed, with where each count came from). The
 * catalog build reads it for the essentials get_node_details answers and for the examples.
 *
 *   npm run catalog:parameter-usage -- GIT_DIR[@REV][=OWNER/NAME]...
 *
 * GIT_DIR: a clone (bare or not) of a repository of n8n workflows; every .json file at REV (default
 * HEAD) is read. Copies of a workflow count once (distinctWorkflows). Which keys are parameters comes
 * from the imported n8n catalog (npm run catalog:import-n8n first). The sources used:
 *
 *   M=/work/.mirror; npm run catalog:parameter-usage -- $M/n8n-io+test-workflows/repo=n8n-io/test-workflows \
 *     $M/n8n-io+n8n-benchmarking/repo=n8n-io/n8n-benchmarking $M/n8n-io+self-hosted-ai-starter-kit/repo=n8n-io/self-hosted-ai-starter-kit \
 *     $M/n8n-io+demo-setup/repo=n8n-io/demo-setup $M/n8n-io+skills/repo=n8n-io/skills \
 *     $M/Zie619+n8n-workflows/repo@ae8cf6dc=Zie619/n8n-workflows
 *
 * Zie619/n8n-workflows is read at ae8cf6dc: its two newest commits (2025-09-29) damaged 1,363 of its
 * workflows (connections keyed by node ids, node types swapped, credentials unset).
 */
import { writeFileSync } from 'node:fs';
import { catalogOf } from '../../../src/workflows/nodeCatalog.ts';
import { readN8nSpecs } from '../n8n/import.ts';
import { readGitDocuments } from './gitSource.ts';
import { countParameters, type ParameterUsage, type UsedNode, usedNodes } from './parameters.ts';
import { distinctWorkflows, type WorkflowNode, workflowNodes, workflowsIn } from './workflowNodes.ts';

export const PARAMETER_USAGE_FILE = 'scripts/catalog/usage/parameter-usage.json';

export interface ParameterUsageFile {
  about: string;
  sources: { repo: string; commit: string; workflows: number }[];
  nodes: ParameterUsage;
}

/** JSON with one line per node type: small to commit, and a change to one node is one line of diff. */
export function formatUsage(file: ParameterUsageFile): string {
  const nodes = Object.entries(file.nodes).map(([type, versions]) => `  ${JSON.stringify(type)}: ${JSON.stringify(versions)}`);
  return `{\n "about": ${JSON.stringify(file.about)},\n "sources": ${JSON.stringify(file.sources)},\n "nodes": {\n${nodes.join(',\n')}\n }\n}\n`;
}

if (import.meta.main) {
  const args = process.argv.slice(2);
  if (args.length === 0) throw new Error('usage: npm run catalog:parameter-usage -- GIT_DIR[@REV][=OWNER/NAME]...');
  const read = args.map((arg) => {
    const { repo, commit, documents } = readGitDocuments(arg);
    // Each workflow with its named nodes (to find copies) and its nodes as written.
    const workflows = documents.flatMap(workflowsIn).flatMap((raw) => {
      const named = workflowNodes({ nodes: raw });
      return named.length > 0 ? [{ named: named[0]!, used: usedNodes(raw) }] : [];
    });
    return { repo, commit, workflows };
  });
  // Copies are dropped across all sources: the first source to hold a workflow counts it.
  const kept = new Set<WorkflowNode[]>(distinctWorkflows(read.flatMap((s) => s.workflows.map((w) => w.named))));
  const sources = read.map((s) => ({ ...s, workflows: s.workflows.filter((w) => kept.has(w.named)) }));
  const workflows: UsedNode[][] = sources.flatMap((s) => s.workflows.map((w) => w.used));
  const file: ParameterUsageFile = {
    about:
      'Per n8n node type and typeVersion (and resource:operation where the node has them): how many real workflows ' +
      'use it, how many of them set each parameter (name, collection.field, fixedCollection.group.field), how many run ' +
      'each value of the choices that decide other parameters (choices), and the configuration most of them write in ' +
      'the mode most of them run in, with user data replaced by placeholders. Rebuild: npm run catalog:parameter-usage.',
    sources: sources.map((s) => ({ repo: s.repo, commit: s.commit, workflows: s.workflows.length })),
    nodes: countParameters(workflows, catalogOf(readN8nSpecs())),
  };
  writeFileSync(PARAMETER_USAGE_FILE, formatUsage(file));
  const versions = Object.values(file.nodes).reduce((n, v) => n + Object.keys(v).length, 0);
  console.error(
    `${file.sources.map((s) => `${s.repo}: ${s.workflows} workflows`).join(', ')}; ${Object.keys(file.nodes).length} node types, ${versions} versions → ${PARAMETER_USAGE_FILE}`,
  );
}
