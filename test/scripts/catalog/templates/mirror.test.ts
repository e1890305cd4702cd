import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { gitDirOf, hasPath, originLog, originsOf, readMirror } from '../../../../scripts/catalog/templates/mirror';

let mirrors: string;
let work: string;
const commits: Record<string, string> = {};

const git = (...args: string[]) => execFileSync('git', ['-C', work, ...args], { encoding: 'utf8' }).trim();
const commit = (author: string, message: string) => {
  git('add', '-A');
  git('-c', `user.name=${author}`, '-c', 'user.email=x@example.com', 'commit', '-q', '-m', message);
  commits[message] = git('rev-parse', 'HEAD');
};
const workflow = (name: string, extra = '') =>
  JSON.stringify({ name, nodes: [{ name: 'A', type: 'n8n-nodes-base.set', parameters: { note: 'x'.repeat(200) } }], connections: {}, extra });

/** A mirror as this machine keeps them: owner+name/repo, a repository with its work tree. */
beforeAll(() => {
  mirrors = mkdtempSync(join(tmpdir(), 'mirrors-'));
  work = join(mirrors, 'someone+flows', 'repo');
  mkdirSync(join(work, 'flows'), { recursive: true });
  git('init', '-q');
  writeFileSync(join(work, 'flows', 'one.json'), workflow('One'));
  writeFileSync(join(work, 'flows', 'two.json'), workflow('Two'));
  writeFileSync(join(work, 'README.md'), 'not json');
  commit('Ada', 'import');
  // Moved into a folder and edited on the way; another file added by someone else.
  mkdirSync(join(work, 'flows', 'chat'));
  renameSync(join(work, 'flows', 'one.json'), join(work, 'flows', 'chat', 'one-renamed.json'));
  writeFileSync(join(work, 'flows', 'chat', 'one-renamed.json'), workflow('One', 'edited'));
  writeFileSync(join(work, 'flows', 'three.json'), workflow('Three'));
  commit('Grace', 'reorganise');
  writeFileSync(join(work, 'flows', 'two.json'), workflow('Two', 'rewritten by a tool'));
  commit('Bot', 'rewrite');
});

afterAll(() => rmSync(mirrors, { recursive: true, force: true }));

describe('a mirrored repository', () => {
  it('is found under its owner+name, or not', () => {
    expect(gitDirOf(mirrors, 'someone/flows')).toBe(join(work, '.git'));
    expect(gitDirOf(mirrors, 'someone/else')).toBeNull();
  });

  it('gives each .json file the commit, author and path that added it, renames followed, changes in place kept', () => {
    const origins = originsOf(execFileSync('git', ['--git-dir', join(work, '.git'), ...originLog('HEAD')], { encoding: 'utf8' }));
    expect(Object.fromEntries(origins)).toEqual({
      'flows/chat/one-renamed.json': { commit: commits.import, author: 'Ada', date: expect.any(String), path: 'flows/one.json' },
      'flows/two.json': { commit: commits.import, author: 'Ada', date: expect.any(String), path: 'flows/two.json' },
      'flows/three.json': { commit: commits.reorganise, author: 'Grace', date: expect.any(String), path: 'flows/three.json' },
    });
  });

  it('reads its .json files at its newest commit, or each as the commit that added it wrote it', () => {
    const now = readMirror(join(work, '.git'), 'someone/flows');
    expect(now.commit).toBe(commits.rewrite);
    expect(now.files.map((f) => f.path).sort()).toEqual(['flows/chat/one-renamed.json', 'flows/three.json', 'flows/two.json']);
    expect(JSON.parse(now.files.find((f) => f.path === 'flows/two.json')!.text).extra).toBe('rewritten by a tool');
    const asAdded = readMirror(join(work, '.git'), 'someone/flows', true);
    expect(asAdded.files.map((f) => JSON.parse(f.text).extra)).toEqual(['', '', '']);
  });

  it('says whether a commit holds a file', () => {
    const gitDir = join(work, '.git');
    expect(hasPath(gitDir, commits.import!, 'README.md')).toBe(true);
    expect(hasPath(gitDir, commits.import!, 'flows/three.json')).toBe(false);
    expect(hasPath(gitDir, commits.reorganise!, 'flows/three.json')).toBe(true);
    expect(hasPath(gitDir, 'f'.repeat(40), 'README.md')).toBe(false);
  });
});
