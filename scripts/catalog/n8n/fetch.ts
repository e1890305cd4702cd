import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { N8nNode } from './mapNode.ts';
import type { N8nPackage } from './packages.ts';

export const CACHE_DIR = '.catalog/cache';

/**
 * The node descriptions of one pinned package: `npm pack` fetches its tarball (no dependencies are
 * installed) and only dist/types/nodes.json is extracted. Both are cached, so this runs once.
 */
export function fetchNodeDescriptions(pkg: N8nPackage): N8nNode[] {
  const dir = join(CACHE_DIR, `${pkg.name.replace('/', '+')}@${pkg.version}`);
  const nodesFile = join(dir, 'package', 'dist', 'types', 'nodes.json');
  if (!existsSync(nodesFile)) {
    mkdirSync(dir, { recursive: true });
    console.error(`fetching ${pkg.name}@${pkg.version} (npm pack)…`);
    // npm lists every file of the tarball on stdout: give it room, and keep only the last line (the file name).
    const pack = spawnSync('npm', ['pack', `${pkg.name}@${pkg.version}`, '--pack-destination', dir], { encoding: 'utf8', maxBuffer: 64 << 20 });
    if (pack.status !== 0) throw new Error(`npm pack ${pkg.name}@${pkg.version} failed: ${pack.stderr.trim().split('\n').at(-1)}`);
    const tarball = join(dir, pack.stdout.trim().split('\n').at(-1)!);
    const tar = spawnSync('tar', ['xzf', tarball, '-C', dir, 'package/dist/types/nodes.json'], { encoding: 'utf8' });
    if (tar.status !== 0) throw new Error(`extracting nodes.json from ${tarball} failed: ${tar.stderr}`);
  }
  return JSON.parse(readFileSync(nodesFile, 'utf8')) as N8nNode[];
}
