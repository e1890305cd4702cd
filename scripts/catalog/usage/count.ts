/**
 * Counts, from real workflows, how many use each node type (the usage prior search ranks with) and
 * the names their builders give each node type (words search matches), into
 * scripts/catalog/usage/node-usage.json (committed, with where each count came from).
 *
 *   npm run catalog:usage -- GIT_DIR[@REV][=OWNER/NAME]... [--extracted FILE...]
 *
 * GIT_DIR: a clone (bare or not) of a repository of n8n workflows, e.g. n8n-io/test-workflows; every
 * .json file at REV (default HEAD) is read. The repository is named by its origin remote, or by
 * =OWNER/NAME. Copies of a workflow count once (distinctWorkflows).
 * --extracted: workflows already reduced to their types, as `{repo, workflows: [{path, commit, types}]}`
 * (used for n8n-io/n8n-docs' docs/_workflows and n8n-io/n8n's Playwright workflows, read file by file
 * rather than cloned: both repositories are large). They count for usage and give no names.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import type { WorkflowUsage } from '../../../src/catalog/search/buildIndex.ts';
import { readGitDocuments } from './gitSource.ts';
import { countNames, countUsage, distinctWorkflows, type WorkflowNode, workflowNodes, workflowTypes } from './workflowNodes.ts';

export const NODE_USAGE_FILE = 'scripts/catalog/usage/node-usage.json';

export interface NodeUsage extends WorkflowUsage {
  about: string;
  sources: { repo: string; commit: string | string[]; workflows: number }[];
}

/** The committed counts and names: what the catalog build ranks with. */
export const readNodeUsage = (): WorkflowUsage => {
  const { counts, names } = JSON.parse(readFileSync(NODE_USAGE_FILE, 'utf8')) as NodeUsage;
  return { counts, names };
};

interface Source {
  repo: string;
  commit: string | string[];
  workflows: WorkflowNode[][];
}

function fromGit(arg: string): Source {
  const { repo, commit, documents } = readGitDocuments(arg);
  return { repo, commit, workflows: documents.flatMap(workflowNodes) };
}

function fromExtracted(file: string): Source {
  const data = JSON.parse(readFileSync(file, 'utf8')) as { repo: string; workflows: { commit: string; types: string[] }[] };
  return {
    repo: data.repo,
    commit: [...new Set(data.workflows.map((w) => w.commit))].sort(),
    workflows: data.workflows.map((w) => w.types.map((type) => ({ type, name: '' }))),
  };
}

if (import.meta.main) {
  const args = process.argv.slice(2);
  const read: Source[] = [];
  args.forEach((arg, i) => {
    if (arg !== '--extracted') read.push(args[i - 1] === '--extracted' ? fromExtracted(arg) : fromGit(arg));
  });
  if (read.length === 0) throw new Error('usage: npm run catalog:usage -- GIT_DIR[@REV][=OWNER/NAME]... [--extracted FILE...]');
  // Copies are dropped across all sources: the first source to hold a workflow counts it.
  const kept = new Set(distinctWorkflows(read.flatMap((s) => s.workflows)));
  const sources = read.map((s) => ({ ...s, workflows: s.workflows.filter((w) => kept.has(w)) }));
  const workflows = sources.flatMap((s) => s.workflows);
  const usage: NodeUsage = {
    about:
      'How many real n8n workflows use each node type (each workflow counts a type once), and per type the names ' +
      'builders gave its nodes with how many workflows use each name. Rebuild: npm run catalog:usage.',
    sources: sources.map((s) => ({ repo: s.repo, commit: s.commit, workflows: s.workflows.length })),
    counts: countUsage(workflows.map(workflowTypes)),
    names: countNames(workflows),
  };
  writeFileSync(NODE_USAGE_FILE, JSON.stringify(usage, null, 1) + '\n');
  console.error(
    `${usage.sources.map((s) => `${s.repo}: ${s.workflows} workflows`).join(', ')}; ${Object.keys(usage.counts).length} node types → ${NODE_USAGE_FILE}`,
  );
}
