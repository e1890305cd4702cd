/**
 * A repository mirrored on this machine as a git directory, read at its newest commit: every .json
 * file, with the commit that added it (renames followed), for attribution and provenance.
 */
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';

/** The commit that added a file, its author, and the path it was added under. */
export interface Origin {
  commit: string;
  author: string;
  /** ISO 8601. */
  date: string;
  path: string;
}

export interface MirroredFile {
  path: string;
  text: string;
  origin: Origin;
}

export interface Mirror {
  repo: string;
  commit: string;
  files: MirroredFile[];
}

const git = (dir: string, args: string[], input?: string): Buffer =>
  execFileSync('git', ['--git-dir', dir, ...args], { maxBuffer: 1 << 30, ...(input === undefined ? {} : { input }) });

/** Where `owner/name` is mirrored under `mirrors` (`owner+name/repo`, bare or with a work tree), or null. */
export function gitDirOf(mirrors: string, repo: string): string | null {
  const base = join(mirrors, repo.replace('/', '+'), 'repo');
  return [join(base, '.git'), base].find((dir) => existsSync(join(dir, 'HEAD'))) ?? null;
}

/**
 * The log originsOf reads: each commit's changes to .json files, renames found as git finds them (at
 * 30% similarity: collections move workflows into folders and edit them on the way). Limited to .json
 * files, git compares only those: a mirror may lack its largest blobs, which are other files.
 */
export const originLog = (commit: string) => ['log', '--reverse', '-M30%', '--name-status', '-z', '--format=@@%H%x09%an%x09%aI', commit, '--', '*.json'];

/** Each path's origin, from an originLog: an added path takes its commit, a renamed (or copied) one the origin of the path it came from. */
export function originsOf(log: string): Map<string, Origin> {
  const origins = new Map<string, Origin>();
  const tokens = log.split('\0');
  let commit: Omit<Origin, 'path'> | undefined;
  for (let i = 0; i < tokens.length; i++) {
    const token = tokens[i]!.replace(/^\n/, '');
    if (token.startsWith('@@')) {
      const [hash, author, date] = token.slice(2).split('\t');
      commit = { commit: hash!, author: author!, date: date! };
    } else if (/^[RC]\d*$/.test(token)) {
      const [from, to] = [tokens[++i]!, tokens[++i]!];
      origins.set(to, origins.get(from) ?? { ...commit!, path: from });
      if (token.startsWith('R')) origins.delete(from);
    } else if (token === 'A') {
      const path = tokens[++i]!;
      origins.set(path, { ...commit!, path });
    } else if (token === 'D') {
      origins.delete(tokens[++i]!);
    } else if (/^[MT]$/.test(token)) {
      i++; // changed in place: the file keeps its origin
    }
  }
  return origins;
}

/** The texts of a `git cat-file --batch` answer, in the order asked. */
function batchContents(out: Buffer): string[] {
  const texts: string[] = [];
  let at = 0;
  while (at < out.length) {
    const end = out.indexOf(0x0a, at);
    const header = out.subarray(at, end).toString('utf8');
    // A blob the mirror lacks (its largest may be absent) reads as no text: not JSON, so no workflow.
    if (header.endsWith(' missing')) {
      texts.push('');
      at = end + 1;
      continue;
    }
    const size = Number(header.split(' ')[2]);
    const start = end + 1;
    texts.push(out.subarray(start, start + size).toString('utf8'));
    at = start + size + 1;
  }
  return texts;
}

/** The texts of files given as `commit:path`, in order ('' for one the mirror lacks). */
export const readFiles = (gitDir: string, refs: string[]): string[] =>
  refs.length === 0 ? [] : batchContents(git(gitDir, ['cat-file', '--batch'], refs.map((ref) => `${ref}\n`).join('')));

/** Whether a commit's tree holds a file at `path`. */
export function hasPath(gitDir: string, commit: string, path: string): boolean {
  try {
    execFileSync('git', ['--git-dir', gitDir, 'cat-file', '-e', `${commit}:${path}`], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

/** The .json files of a commit, as text. */
export function readJsonFiles(gitDir: string, commit: string): { path: string; text: string }[] {
  const paths = git(gitDir, ['ls-tree', '-r', '-z', '--name-only', commit])
    .toString('utf8')
    .split('\0')
    .filter((path) => path.endsWith('.json') && !path.includes('\n'));
  const texts = readFiles(
    gitDir,
    paths.map((path) => `${commit}:${path}`),
  );
  return paths.map((path, i) => ({ path, text: texts[i]! }));
}

/**
 * The .json files of the mirror at its HEAD, each with its origin; with `asAdded`, each file's text
 * as the commit that added it wrote it (a collection whose tools rewrote its files since).
 */
export function readMirror(gitDir: string, repo: string, asAdded = false): Mirror {
  const commit = git(gitDir, ['rev-parse', 'HEAD^{commit}']).toString('utf8').trim();
  const origins = originsOf(git(gitDir, originLog(commit)).toString('utf8'));
  const files = readJsonFiles(gitDir, commit).map((file) => ({
    ...file,
    // A path whose history git cannot trace (a shallow mirror) is the commit read's own.
    origin: origins.get(file.path) ?? { commit, author: '', date: '', path: file.path },
  }));
  if (!asAdded) return { repo, commit, files };
  const added = readFiles(
    gitDir,
    files.map((f) => `${f.origin.commit}:${f.origin.path}`),
  );
  return { repo, commit, files: files.map((file, i) => ({ ...file, text: added[i] || file.text })) };
}
