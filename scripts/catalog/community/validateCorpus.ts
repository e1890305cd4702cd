/**
 * What the validator makes of real workflows that use community nodes, with the built catalog (after)
 * and with the same catalog less its community nodes (before): how many community nodes it checks,
 * what it finds on them, and whether anything changed on the other nodes. Each error on a community
 * node is printed for review: one on a value that is in fact fine is a false error (fix the importer).
 *
 *   npm run catalog:build && npx tsx scripts/catalog/community/validateCorpus.ts GIT_DIR[@REV]... [--json FILE]
 *
 * GIT_DIR: a clone of a repository of workflows (scripts/catalog/usage/gitSource.ts reads it).
 */
import { createHash } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import type { NodeSpec } from '../../../src/catalog/nodeSpec.ts';
import { catalogOf, type NodeCatalog } from '../../../src/workflows/nodeCatalog.ts';
import { validateWorkflow } from '../../../src/workflows/validateWorkflow.ts';
import { loadSpecs } from '../../lib/nodeCatalog.ts';
import { readGitDocuments } from '../usage/gitSource.ts';
import { packageOfType } from './packages.ts';

interface Workflow {
  source: string;
  nodes: { name?: unknown; type?: unknown }[];
  document: Record<string, unknown>;
}

/** The workflows of one JSON document: an export, a list of them, or a wrapper (`{workflow}`, `{workflows}`, `{data}`). */
export function workflowDocuments(document: unknown): Record<string, unknown>[] {
  if (Array.isArray(document)) return document.flatMap(workflowDocuments);
  if (typeof document !== 'object' || document === null) return [];
  const record = document as Record<string, unknown>;
  if (Array.isArray(record.nodes)) return [record];
  return ['workflow', 'workflows', 'data'].flatMap((key) => (key in record ? workflowDocuments(record[key]) : []));
}

const isCommunity = (type: unknown) => typeof type === 'string' && packageOfType(type) !== undefined;

export interface CorpusResult {
  workflows: number;
  communityNodes: number;
  /** Community nodes whose type the catalog knows (after): their parameters are checked. */
  checked: number;
  /** Community node types in the workflows the catalog does not know, with how many nodes. */
  unknownTypes: Record<string, number>;
  /** Findings on community nodes before and after, by code. */
  errorsBefore: Record<string, number>;
  errorsAfter: Record<string, number>;
  warningsBefore: Record<string, number>;
  warningsAfter: Record<string, number>;
  /** Each error on a community node, for review. */
  errors: { source: string; node: string; type: string; code: string; message: string }[];
  /** Errors on the other nodes, before and after: the community specs must not change them. */
  otherErrors: { before: number; after: number };
}

export function validateCorpus(workflows: Workflow[], before: NodeCatalog, after: NodeCatalog): CorpusResult {
  const result: CorpusResult = {
    workflows: 0,
    communityNodes: 0,
    checked: 0,
    unknownTypes: {},
    errorsBefore: {},
    errorsAfter: {},
    warningsBefore: {},
    warningsAfter: {},
    errors: [],
    otherErrors: { before: 0, after: 0 },
  };
  for (const workflow of workflows) {
    const community = new Map(workflow.nodes.filter((n) => isCommunity(n.type)).map((n) => [String(n.name), String(n.type)]));
    if (community.size === 0) continue;
    result.workflows++;
    result.communityNodes += community.size;
    for (const type of community.values()) {
      if (after.newest(type)) result.checked++;
      else result.unknownTypes[type] = (result.unknownTypes[type] ?? 0) + 1;
    }
    const was = validateWorkflow(workflow.document, before);
    const is = validateWorkflow(workflow.document, after);
    const onOthers = (findings: { node?: string | null }[]) => findings.filter((f) => !(f.node && community.has(f.node))).length;
    result.otherErrors.before += onOthers(was.errors);
    result.otherErrors.after += onOthers(is.errors);
    const tally = (findings: { node?: string | null; code: string }[], into: Record<string, number>) => {
      for (const f of findings) if (f.node && community.has(f.node)) into[f.code] = (into[f.code] ?? 0) + 1;
    };
    tally(was.errors, result.errorsBefore);
    tally(is.errors, result.errorsAfter);
    tally(was.warnings, result.warningsBefore);
    tally(is.warnings, result.warningsAfter);
    for (const f of is.errors) {
      if (f.node && community.has(f.node))
        result.errors.push({ source: workflow.source, node: f.node, type: community.get(f.node)!, code: f.code, message: f.message });
    }
  }
  return result;
}

/** Every workflow of the repositories, copies once. */
function readWorkflows(dirs: string[]): Workflow[] {
  const seen = new Set<string>();
  const workflows: Workflow[] = [];
  for (const dir of dirs) {
    const { repo, commit, documents } = readGitDocuments(dir);
    for (const document of documents.flatMap(workflowDocuments)) {
      const nodes = document.nodes as Workflow['nodes'];
      const id = createHash('sha256').update(JSON.stringify(nodes)).digest('hex');
      if (seen.has(id)) continue;
      seen.add(id);
      workflows.push({ source: `${repo}@${commit.slice(0, 8)}`, nodes, document });
    }
  }
  return workflows;
}

if (import.meta.main) {
  const args = process.argv.slice(2);
  const jsonAt = args.indexOf('--json');
  const out = jsonAt >= 0 ? args.splice(jsonAt, 2)[1] : undefined;
  const specs = loadSpecs();
  const communitySpecs = (s: NodeSpec) => s.community !== undefined;
  if (!specs.some(communitySpecs)) throw new Error('the built catalog has no community nodes: npm run catalog:build first');
  const result = validateCorpus(readWorkflows(args), catalogOf(specs.filter((s) => !communitySpecs(s))), catalogOf(specs));
  const { errors, ...summary } = result;
  console.log(JSON.stringify(summary, null, 1));
  for (const e of errors) console.log(`${e.type} "${e.node}" (${e.source}) ${e.code}: ${e.message}`);
  if (out) writeFileSync(out, JSON.stringify(result, null, 1) + '\n');
}
