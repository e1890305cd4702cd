import { execFileSync } from 'node:child_process';

const git = (dir: string, ...args: string[]) => execFileSync('git', ['-C', dir, ...args], { encoding: 'utf8', maxBuffer: 256 << 20 }).trim();

/** The JSON documents of a repository at one commit, and which repository and commit they came from. */
export interface GitDocuments {
  repo: string;
  commit: string;
  documents: unknown[];
}

/** `text` split at the last `separator`: [before, after], or [text, undefined] without one. */
function splitLast(text: string, separator: string): [string, string | undefined] {
  const at = text.lastIndexOf(separator);
  return at < 0 ? [text, undefined] : [text.slice(0, at), text.slice(at + 1)];
}

/**
 * Every .json file of `GIT_DIR[@REV][=OWNER/NAME]` at REV (default HEAD), parsed; files that are not
 * JSON after all are skipped. The repository is named by its origin remote, or by =OWNER/NAME.
 */
export function readGitDocuments(arg: string): GitDocuments {
  const [location, named] = splitLast(arg, '=');
  // DIR@REV; an @ inside the directory's path is not a revision.
  const [before, after] = splitLast(location, '@');
  const [dir, rev] = after === undefined || after.includes('/') ? [location, 'HEAD'] : [before, after];
  const repo =
    named ??
    git(dir, 'config', '--get', 'remote.origin.url')
      .replace(/^.*github\.com[/:]/, '')
      .replace(/\.git$/, '');
  const commit = git(dir, 'rev-parse', `${rev}^{commit}`);
  // -z: paths as they are (git quotes names with other than ASCII in them otherwise).
  const files = git(dir, 'ls-tree', '-r', '-z', '--name-only', commit)
    .split('\0')
    .filter((f) => f.endsWith('.json'));
  const documents = files.flatMap((file) => {
    try {
      return [JSON.parse(git(dir, 'show', `${commit}:${file}`)) as unknown];
    } catch {
      return []; // not JSON after all: no workflow in it
    }
  });
  return { repo, commit, documents };
}
