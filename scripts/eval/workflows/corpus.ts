/**
 * A corpus of real n8n workflows, read from snapshots of n8n's public repositories (bare git
 * directories as the `fetch` tool brings them, e.g. /work/.mirror/n8n-io+test-workflows/repo).
 * Every JSON file in the tree at HEAD (or at REV, given as DIR@REV) is parsed; whatever in it has the shape of an n8n workflow
 * (an object with a `nodes` array of objects with `type` and `parameters`/`typeVersion`, and a
 * `connections` object) is kept: the file itself, the items of an array, or a workflow wrapped in
 * another object (`{workflow: {...}}`, `{data: {...}}`, ...), up to a few levels down.
 *
 *   npx tsx scripts/eval/workflows/corpus.ts <bare git dir> [<bare git dir> ...] [--out .eval/workflows]
 *
 * Writes <out>/real/<slug>.json (the workflow as found) and <out>/manifest.json: id, repo, source
 * path, commit, node count, node types, and a split (dev 70% / heldout 30%) decided by a hash of
 * repo + path, so it stays put as the corpus grows. Workflows with the same nodes and connections
 * (ids, positions and metadata aside) are kept once, under the first source path in sort order.
 * Nothing it writes may be committed: it is public repository content, kept under .eval/ (git-ignored).
 */
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { parseArgs } from 'node:util';

export interface CorpusEntry {
  id: string;
  repo: string;
  source: string;
  /** Where in the file the workflow sat, when not at its root: `[3]`, `.workflow`, ... */
  pointer?: string;
  commit: string;
  nodeCount: number;
  nodeTypes: string[];
  hasV1Node: boolean;
  hasLangChain: boolean;
  split: 'dev' | 'heldout';
  /** Other source paths that held the same workflow. */
  duplicates?: string[];
}

export interface CorpusManifest {
  date: string;
  sources: { repo: string; commit: string; gitDir: string; jsonFiles: number; workflows: number }[];
  counts: { workflows: number; dev: number; heldout: number; withV1Node: number; withLangChain: number; duplicatesDropped: number };
  workflows: CorpusEntry[];
}

type Json = null | boolean | number | string | Json[] | { [k: string]: Json };
type Obj = { [k: string]: Json };

const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The shape test: nodes are objects with a string `type` and `parameters` or `typeVersion`. */
export function isWorkflow(v: unknown): v is Obj & { nodes: Obj[]; connections: Obj } {
  if (!isObj(v) || !Array.isArray(v.nodes) || !isObj(v.connections) || v.nodes.length === 0) return false;
  return v.nodes.every((n) => isObj(n) && typeof n.type === 'string' && (isObj(n.parameters) || typeof n.typeVersion === 'number'));
}

/** Workflows in a parsed JSON value: the value itself, array items, or wrapped a few levels down. */
export function findWorkflows(value: unknown, pointer = '', depth = 0): { pointer: string; workflow: Obj }[] {
  if (isWorkflow(value)) return [{ pointer, workflow: value }];
  if (depth >= 4) return [];
  const found: { pointer: string; workflow: Obj }[] = [];
  if (Array.isArray(value)) value.forEach((item, i) => found.push(...findWorkflows(item, `${pointer}[${i}]`, depth + 1)));
  else if (isObj(value)) for (const [k, v] of Object.entries(value)) found.push(...findWorkflows(v, `${pointer}.${k}`, depth + 1));
  return found;
}

/** JSON with sorted keys, so equal content gives equal text. */
export function canonical(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(canonical).join(',')}]`;
  if (isObj(v))
    return `{${Object.keys(v)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonical(v[k])}`)
      .join(',')}}`;
  return JSON.stringify(v) ?? 'null';
}

/** A value as text: a string as it is, anything else as canonical JSON (never "[object Object]"). */
const text = (v: unknown): string => (typeof v === 'string' ? v : canonical(v));

/** What makes two workflows the same: node names, types, versions, parameters, and the connections. */
export function contentKey(wf: Obj & { nodes: Obj[]; connections: Obj }): string {
  const nodes = wf.nodes.map((n) => ({
    name: n.name ?? null,
    type: n.type,
    typeVersion: n.typeVersion ?? null,
    parameters: n.parameters ?? {},
    disabled: n.disabled ?? null,
    onError: n.onError ?? null,
  }));
  nodes.sort((a, b) => text(a.name).localeCompare(text(b.name)));
  return createHash('sha256')
    .update(canonical({ nodes, connections: wf.connections }))
    .digest('hex');
}

/** dev for 70% of sources, heldout for 30%, by a hash of repo + path (+ pointer). */
export function splitOf(key: string): 'dev' | 'heldout' {
  const h = createHash('sha256').update(key).digest().readUInt32BE(0);
  return h / 2 ** 32 < 0.7 ? 'dev' : 'heldout';
}

export function slugOf(repo: string, source: string, pointer: string): string {
  const raw = `${repo.split('/').at(-1)}--${source.replace(/\.json$/i, '')}${pointer}`;
  let slug = raw
    .replace(/[^A-Za-z0-9._-]+/g, '_')
    .replace(/_+/g, '_')
    .replace(/^_|_$/g, '');
  if (slug.length > 120) slug = `${slug.slice(0, 100)}-${createHash('sha256').update(raw).digest('hex').slice(0, 12)}`;
  return slug;
}

const git = (gitDir: string, args: string[], input?: string): Buffer => execFileSync('git', ['--git-dir', gitDir, ...args], { input, maxBuffer: 1 << 30 });

/** owner/name from the fetch tool's layout (/work/.mirror/owner+name/repo), else the directory name. */
function repoName(gitDir: string): string {
  const parent = basename(dirname(gitDir.replace(/\/+$/, '')));
  const own = basename(gitDir.replace(/\/+$/, ''));
  const pick = own === 'repo' || own === '.git' ? parent : own.replace(/\.git$/, '');
  return pick.includes('+') ? pick.replace('+', '/') : pick;
}

/** Every .json blob at `commit` with its content, read in one `git cat-file --batch`. */
function jsonBlobs(gitDir: string, commit: string): { path: string; text: string }[] {
  const listing = git(gitDir, ['ls-tree', '-r', '-z', '--full-tree', commit]).toString('utf8').split('\0').filter(Boolean);
  const files: { path: string; oid: string }[] = [];
  for (const line of listing) {
    const tab = line.indexOf('\t');
    const [, kind, oid] = line.slice(0, tab).split(' ');
    const path = line.slice(tab + 1);
    if (kind === 'blob' && /\.json$/i.test(path) && !/(^|\/)(package(-lock)?|tsconfig[^/]*|composer|\.eslintrc)\.json$/i.test(path))
      files.push({ path, oid: oid! });
  }
  if (files.length === 0) return [];
  const out = git(gitDir, ['cat-file', '--batch'], files.map((f) => f.oid).join('\n') + '\n');
  const blobs: { path: string; text: string }[] = [];
  let at = 0;
  for (const f of files) {
    const nl = out.indexOf(0x0a, at);
    const header = out.subarray(at, nl).toString('utf8').split(' ');
    const size = Number(header[2]);
    if (header[1] !== 'blob' || !Number.isFinite(size)) throw new Error(`git cat-file: unexpected header ${header.join(' ')} for ${f.path}`);
    blobs.push({ path: f.path, text: out.subarray(nl + 1, nl + 1 + size).toString('utf8') });
    at = nl + 1 + size + 1;
  }
  return blobs;
}

export function buildCorpus(gitDirs: string[], outDir: string): CorpusManifest {
  interface Found extends Omit<CorpusEntry, 'id' | 'split' | 'duplicates'> {
    workflow: Obj & { nodes: Obj[]; connections: Obj };
    key: string;
  }
  const found: Found[] = [];
  const sources: CorpusManifest['sources'] = [];
  for (const source of gitDirs) {
    // DIR@REV: a revision other than HEAD (a repository whose newest commits damaged its workflows).
    const at = source.lastIndexOf('@');
    const [gitDir, rev] = at > 0 && !source.slice(at).includes('/') ? [source.slice(0, at), source.slice(at + 1)] : [source, 'HEAD'];
    const repo = repoName(gitDir);
    const commit = git(gitDir, ['rev-parse', `${rev}^{commit}`])
      .toString('utf8')
      .trim();
    const blobs = jsonBlobs(gitDir, commit);
    let count = 0;
    for (const blob of blobs) {
      let parsed: unknown;
      try {
        parsed = JSON.parse(blob.text);
      } catch {
        continue;
      }
      for (const { pointer, workflow } of findWorkflows(parsed)) {
        const wf = workflow as Found['workflow'];
        const types = wf.nodes.map((n) => text(n.type));
        found.push({
          repo,
          source: blob.path,
          ...(pointer ? { pointer } : {}),
          commit,
          nodeCount: wf.nodes.length,
          nodeTypes: [...new Set(types)].sort(),
          hasV1Node: wf.nodes.some((n) => n.typeVersion === 1 || n.typeVersion === undefined),
          hasLangChain: types.some((t) => t.startsWith('@n8n/n8n-nodes-langchain.')),
          workflow: wf,
          key: contentKey(wf),
        });
        count++;
      }
    }
    sources.push({ repo, commit, gitDir, jsonFiles: blobs.length, workflows: count });
  }

  found.sort((a, b) => `${a.repo}:${a.source}${a.pointer ?? ''}`.localeCompare(`${b.repo}:${b.source}${b.pointer ?? ''}`));
  const byKey = new Map<string, CorpusEntry>();
  const entries: CorpusEntry[] = [];
  rmSync(join(outDir, 'real'), { recursive: true, force: true });
  mkdirSync(join(outDir, 'real'), { recursive: true });
  const slugs = new Set<string>();
  for (const f of found) {
    const first = byKey.get(f.key);
    if (first) {
      (first.duplicates ??= []).push(`${f.repo}:${f.source}${f.pointer ?? ''}`);
      continue;
    }
    let id = slugOf(f.repo, f.source, f.pointer ?? '');
    for (let i = 2; slugs.has(id); i++) id = `${slugOf(f.repo, f.source, f.pointer ?? '')}-${i}`;
    slugs.add(id);
    const { workflow, key: _key, ...meta } = f;
    const entry: CorpusEntry = { id, ...meta, split: splitOf(`${f.repo}:${f.source}${f.pointer ?? ''}`) };
    byKey.set(f.key, entry);
    entries.push(entry);
    writeFileSync(join(outDir, 'real', `${id}.json`), JSON.stringify(workflow, null, 2));
  }
  const manifest: CorpusManifest = {
    date: new Date().toISOString(),
    sources,
    counts: {
      workflows: entries.length,
      dev: entries.filter((e) => e.split === 'dev').length,
      heldout: entries.filter((e) => e.split === 'heldout').length,
      withV1Node: entries.filter((e) => e.hasV1Node).length,
      withLangChain: entries.filter((e) => e.hasLangChain).length,
      duplicatesDropped: found.length - entries.length,
    },
    workflows: entries,
  };
  writeFileSync(join(outDir, 'manifest.json'), JSON.stringify(manifest, null, 2));
  return manifest;
}

if (import.meta.main) {
  const { values, positionals } = parseArgs({ allowPositionals: true, options: { out: { type: 'string', default: '.eval/workflows' } } });
  if (positionals.length === 0) {
    console.error('usage: npx tsx scripts/eval/workflows/corpus.ts <bare git dir>[@REV] [...] [--out .eval/workflows]');
    process.exit(2);
  }
  const m = buildCorpus(positionals, values.out!);
  for (const s of m.sources) console.log(`${s.repo}@${s.commit.slice(0, 10)}: ${s.jsonFiles} JSON files, ${s.workflows} workflows`);
  const c = m.counts;
  console.log(
    `${c.workflows} distinct workflows (${c.duplicatesDropped} duplicates dropped): ${c.dev} dev, ${c.heldout} heldout; ${c.withV1Node} with a version-1 node, ${c.withLangChain} with LangChain nodes`,
  );
  console.log(`wrote ${join(values.out!, 'manifest.json')}`);
}
