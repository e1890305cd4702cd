/**
 * Collects workflow templates from the public collections mirrored on this machine into
 * scripts/catalog/templates/templates.json.gz (committed; the catalog build serves it), and what was left
 * out and why into left-out.json. Each workflow of each collection (sources.ts) is, in order:
 * - left out with its collection when the collection is not taken (sources.ts says why);
 * - left out for its licence (the collection's, or its own provenance);
 * - left out past the size bounds (MAX_NODES nodes, MAX_BYTES of JSON, the workflow tools' limits);
 * - left out if it holds a secret (secrets.ts): never redacted;
 * - left out as a copy of one kept before it (fingerprint: same nodes, parameters and connections),
 *   or of one left out for where it came from;
 * - kept: its workflow cleaned (clean.ts), its attribution from the collection's git history.
 * Collections are read in SOURCES' order, each's workflows oldest first, so the first copy kept is the
 * earliest and best attributed. With a built catalog (.catalog/entries.json), it says how many validate.
 *
 *   npm run catalog:templates [-- --mirrors DIR]      DIR: where mirrors are (default /work/.mirror)
 */
import { existsSync, writeFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { basename } from 'node:path';
import type { CollectedTemplate } from '../../../src/templates/template.ts';
import { workflowOverLimit } from '../../../src/workflows/limits.ts';
import { credentialNeeds, describedAs, fingerprint, isWorkflow, templateId, templateWorkflow } from './clean.ts';
import { gitDirOf, hasPath, readJsonFiles, readMirror } from './mirror.ts';
import { TEMPLATES_FILE, validatedAgainstBuild } from './read.ts';
import { findSecret } from './secrets.ts';
import { licensingOf, SOURCES, type History, type SourceWorkflow, type TemplateSource } from './sources.ts';

export const LEFT_OUT_FILE = 'scripts/catalog/templates/left-out.json';
/** Bounds on one template: a workflow an agent can read whole in one answer, and a KV value well under its 25 MiB. */
export const MAX_NODES = 200;
export const MAX_BYTES = 256 * 1024;

export type Reason = 'collection' | 'licence' | 'invalid JSON' | 'size' | 'secret' | 'duplicate';

/** A workflow of a collection on its way through the steps above. */
export interface Candidate extends SourceWorkflow {
  source: TemplateSource;
  commit: string;
}

export interface LeftOut {
  repo: string;
  path: string;
  reason: Reason;
  /** Why, in words (for a secret: its kind and where, never the secret). */
  detail: string;
}

export interface Collection {
  templates: CollectedTemplate[];
  leftOut: LeftOut[];
}

const githubLink = (repo: string, commit: string, path: string) =>
  `https://github.com/${repo}/blob/${commit}/${path.split('/').map(encodeURIComponent).join('/')}`;

/** The steps above, over candidates in the order given; `history` answers for each collection's git history. Pure but for hashing. */
export function collect(candidates: Candidate[], history: (repo: string) => History): Collection {
  const templates: CollectedTemplate[] = [];
  const leftOut: LeftOut[] = [];
  const kept = new Map<string, string>();
  /** Fingerprints of workflows left out for where they came from, per repository: their copies there came from the same place. */
  const tainted = new Map<string, Map<string, string>>();
  const out = (candidate: Candidate, reason: Reason, detail: string) => leftOut.push({ repo: candidate.source.repo, path: candidate.path, reason, detail });
  for (const candidate of candidates) {
    const { source, path, doc, origin, commit } = candidate;
    if (source.notTaken !== undefined) {
      out(candidate, 'collection', source.notTaken);
      continue;
    }
    const name = typeof doc.name === 'string' && doc.name.trim() !== '' ? doc.name.trim() : basename(path, '.json');
    const workflow = templateWorkflow(doc as Parameters<typeof templateWorkflow>[0], name);
    const print = fingerprint(workflow);
    const repoTaint = tainted.get(source.repo) ?? new Map<string, string>();
    tainted.set(source.repo, repoTaint);
    const licensing = licensingOf(source, candidate, history(source.repo));
    if (!licensing.shared) {
      if (source.licence !== null) repoTaint.set(print, path);
      out(candidate, 'licence', licensing.reason);
      continue;
    }
    if (repoTaint.has(print)) {
      out(candidate, 'licence', `a copy of ${repoTaint.get(print)}, left out for where it came from`);
      continue;
    }
    const bytes = JSON.stringify(workflow).length;
    const overLimit = workflowOverLimit(workflow);
    if (workflow.nodes.length > MAX_NODES || bytes > MAX_BYTES || overLimit !== null) {
      out(candidate, 'size', overLimit ?? `${workflow.nodes.length} nodes, ${bytes} bytes (bounds: ${MAX_NODES} nodes, ${MAX_BYTES} bytes)`);
      continue;
    }
    const description = describedAs(doc as Parameters<typeof describedAs>[0]);
    const secret = findSecret({ workflow, description });
    if (secret) {
      out(candidate, 'secret', `${secret.kind} at ${secret.path}`);
      continue;
    }
    if (kept.has(print)) {
      out(candidate, 'duplicate', `the same workflow as template ${kept.get(print)}`);
      continue;
    }
    // A file read as it was added is cited there: its commit and path then.
    const [at, file] = source.asAdded ? [origin.commit, origin.path] : [commit, path];
    const id = templateId(source.repo, file);
    kept.set(print, id);
    templates.push({
      id,
      name,
      description,
      source: {
        repo: source.repo,
        commit: at,
        path: file,
        link: githubLink(source.repo, at, file),
        licence: source.licence!,
        author: origin.author || source.repo.split('/')[0]!,
      },
      workflow,
      credentials: credentialNeeds(doc as Parameters<typeof credentialNeeds>[0]),
    });
  }
  return { templates, leftOut };
}

/** A collection's files as candidates (workflows only), oldest first; and what was not JSON. */
export function candidatesOf(
  source: TemplateSource,
  mirror: ReturnType<typeof readMirror>,
): { candidates: Candidate[]; invalid: LeftOut[]; otherJson: number } {
  const candidates: Candidate[] = [];
  const invalid: LeftOut[] = [];
  let otherJson = 0;
  for (const file of mirror.files) {
    let doc: unknown;
    try {
      doc = JSON.parse(file.text);
    } catch (error) {
      invalid.push({ repo: source.repo, path: file.path, reason: 'invalid JSON', detail: (error as Error).message.slice(0, 200) });
      continue;
    }
    if (isWorkflow(doc)) candidates.push({ source, path: file.path, doc, origin: file.origin, commit: mirror.commit });
    else otherJson++;
  }
  candidates.sort((a, b) => a.origin.date.localeCompare(b.origin.date) || a.path.localeCompare(b.path));
  return { candidates, invalid, otherJson };
}

function mirrorsFromArgs(argv: string[]): string {
  const i = argv.indexOf('--mirrors');
  return i >= 0 ? argv[i + 1]! : '/work/.mirror';
}

if (import.meta.main) {
  const mirrors = mirrorsFromArgs(process.argv);
  const candidates: Candidate[] = [];
  const invalid: LeftOut[] = [];
  const read: { repo: string; commit: string; licence: string | null; terms: string; not_taken?: string; workflows: number }[] = [];
  const gitDirs = new Map<string, string>();
  for (const source of SOURCES) {
    const gitDir = gitDirOf(mirrors, source.repo);
    if (!gitDir) {
      console.error(`${source.repo}: not mirrored in ${mirrors}, skipped`);
      continue;
    }
    gitDirs.set(source.repo, gitDir);
    const mirror = readMirror(gitDir, source.repo, source.asAdded);
    const found = candidatesOf(source, mirror);
    candidates.push(...found.candidates);
    invalid.push(...found.invalid);
    read.push({
      repo: source.repo,
      commit: mirror.commit,
      licence: source.licence,
      terms: source.terms,
      ...(source.notTaken === undefined ? {} : { not_taken: source.notTaken }),
      workflows: found.candidates.length,
    });
    console.error(
      `${source.repo}@${mirror.commit.slice(0, 7)}: ${found.candidates.length} workflows, ${found.invalid.length} files not JSON, ${found.otherJson} other JSON`,
    );
  }
  const namesAt = new Map<string, Set<string>>();
  const history = (repo: string): History => ({
    names(commit) {
      const key = `${repo}@${commit}`;
      if (!namesAt.has(key)) {
        const docs = readJsonFiles(gitDirs.get(repo)!, commit).flatMap((f) => {
          try {
            return [JSON.parse(f.text) as { name?: unknown }];
          } catch {
            return [];
          }
        });
        namesAt.set(key, new Set(docs.flatMap((d) => (typeof d?.name === 'string' ? [d.name] : []))));
      }
      return namesAt.get(key)!;
    },
    has: (commit, path) => hasPath(gitDirs.get(repo)!, commit, path),
  });
  const { templates, leftOut } = collect(candidates, history);
  const all = [...invalid, ...leftOut];
  const shared = (repo: string) => templates.filter((t) => t.source.repo === repo).length;
  writeFileSync(
    TEMPLATES_FILE,
    gzipSync(
      JSON.stringify({
        about:
          'Workflow templates from public collections whose licence lets them be shared, cleaned and checked. Rebuild: npm run catalog:templates (docs/templates.md).',
        sources: read.map((r) => ({ ...r, shared: shared(r.repo) })),
        templates,
      }) + '\n',
      { level: 9 },
    ),
  );
  // Grouped by collection and reason, each path once: the decision for every workflow left out.
  const groups = new Map<string, { repo: string; reason: Reason; detail: string; paths: string[] }>();
  for (const l of all) {
    const key = JSON.stringify([l.repo, l.reason, l.detail]);
    const group = groups.get(key) ?? { repo: l.repo, reason: l.reason, detail: l.detail, paths: [] };
    group.paths.push(l.path);
    groups.set(key, group);
  }
  writeFileSync(
    LEFT_OUT_FILE,
    JSON.stringify({ about: 'Every workflow collect.ts read and left out, and why.', left_out: [...groups.values()] }, null, 1) + '\n',
  );
  const count = (reason: Reason) => all.filter((l) => l.reason === reason).length;
  console.error(
    `${candidates.length} workflows (+${invalid.length} files not JSON): ${templates.length} templates; left out: ` +
      (['collection', 'licence', 'secret', 'duplicate', 'size', 'invalid JSON'] as Reason[]).map((r) => `${count(r)} ${r}`).join(', '),
  );
  for (const l of leftOut.filter((l) => l.reason === 'secret')) console.error(`  secret: ${l.repo}/${l.path}: ${l.detail}`);
  // The scan runs after the licence check; how much it would catch among everything read, for the record.
  const flagged = candidates.filter((c) => findSecret(templateWorkflow(c.doc as Parameters<typeof templateWorkflow>[0], '')) !== null).length;
  console.error(`the secret scan flags ${flagged} of all ${candidates.length} workflows read, whatever their licence`);
  if (existsSync('.catalog/entries.json')) {
    const served = validatedAgainstBuild(templates);
    const share = (count: number) => `${count} of ${served.length} (${((100 * count) / Math.max(1, served.length)).toFixed(0)}%)`;
    const kinds = new Map<string, number>();
    for (const fix of served.flatMap((t) => t.fixes)) kinds.set(fix.kind, (kinds.get(fix.kind) ?? 0) + 1);
    console.error(
      `against the built catalog: ${share(served.filter((t) => (t.unfixed ?? t.validation).valid).length)} validate without errors as written; ` +
        `${served.filter((t) => t.fixes.length > 0).length} get sure fixes (${[...kinds].map(([k, n]) => `${k} ${n}`).join(', ')}); ` +
        `${share(served.filter((t) => t.validation.valid).length)} validate once fixed`,
    );
  }
}
