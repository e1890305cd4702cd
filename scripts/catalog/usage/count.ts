/**
 * Counts how many real workflows use each node type, the usage prior search ranks with, into
 * scripts/catalog/usage/node-usage.json (committed, with where each count came from).
 *
 *   npm run catalog:usage -- GIT_DIR[=OWNER/NAME]... [--extracted FILE...]
 *
 * GIT_DIR: a clone (bare or not) of a repository of n8n workflows, e.g. n8n-io/test-workflows; every
 * .json file at its HEAD is read. The repository is named by its origin remote, or by =OWNER/NAME.
 * --extracted: workflows already reduced to their types, as `{repo, workflows: [{path, commit, types}]}`
 * (used for n8n-io/n8n-docs' docs/_workflows and n8n-io/n8n's Playwright workflows, read file by file
 * rather than cloned: both repositories are large).
 */
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { countUsage, workflowTypes } from './workflowTypes.ts';

export const NODE_USAGE_FILE = 'scripts/catalog/usage/node-usage.json';

export interface NodeUsage {
  about: string;
  sources: { repo: string; commit: string | string[]; workflows: number }[];
  /** Node type → how many of the workflows use it. */
  counts: Record<string, number>;
}

/** The committed counts, node type → workflows that use it: what the catalog build ranks with. */
export const readNodeUsage = (): Record<string, number> => (JSON.parse(readFileSync(NODE_USAGE_FILE, 'utf8')) as NodeUsage).counts;

const git = (dir: string, ...args: string[]) => execFileSync('git', ['-C', dir, ...args], { encoding: 'utf8', maxBuffer: 256 << 20 }).trim();

function fromGit(arg: string) {
  const [dir, named] = arg.split('=') as [string, string | undefined];
  const repo = named ?? git(dir, 'config', '--get', 'remote.origin.url').replace(/^.*github\.com[/:]/, '').replace(/\.git$/, '');
  const commit = git(dir, 'rev-parse', 'HEAD');
  const files = git(dir, 'ls-tree', '-r', '--name-only', 'HEAD').split('\n').filter((f) => f.endsWith('.json'));
  const workflows = files.flatMap((file) => {
    try {
      return workflowTypes(JSON.parse(git(dir, 'show', `HEAD:${file}`)));
    } catch {
      return []; // not JSON after all: no workflow in it
    }
  });
  return { repo, commit, workflows };
}

function fromExtracted(file: string) {
  const data = JSON.parse(readFileSync(file, 'utf8')) as { repo: string; workflows: { commit: string; types: string[] }[] };
  return { repo: data.repo, commit: [...new Set(data.workflows.map((w) => w.commit))].sort(), workflows: data.workflows.map((w) => [...new Set(w.types)].sort()) };
}

if (import.meta.main) {
  const args = process.argv.slice(2);
  const sources: { repo: string; commit: string | string[]; workflows: string[][] }[] = [];
  args.forEach((arg, i) => {
    if (arg !== '--extracted') sources.push(args[i - 1] === '--extracted' ? fromExtracted(arg) : fromGit(arg));
  });
  if (sources.length === 0) throw new Error('usage: npm run catalog:usage -- GIT_DIR[=OWNER/NAME]... [--extracted FILE...]');
  const usage: NodeUsage = {
    about: 'How many real n8n workflows use each node type (each workflow counts a type once). Rebuild: npm run catalog:usage.',
    sources: sources.map((s) => ({ repo: s.repo, commit: s.commit, workflows: s.workflows.length })),
    counts: countUsage(sources.flatMap((s) => s.workflows)),
  };
  writeFileSync(NODE_USAGE_FILE, JSON.stringify(usage, null, 1) + '\n');
  console.error(`${usage.sources.map((s) => `${s.repo}: ${s.workflows} workflows`).join(', ')}; ${Object.keys(usage.counts).length} node types → ${NODE_USAGE_FILE}`);
}
