/**
 * Community packages as folders to read: `npm pack` fetches each pinned tarball (no dependencies
 * installed, no install scripts run) into .catalog/cache beside n8n's, many names to one npm call,
 * and the tarball is unpacked there. Both are cached: a package is fetched once.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, renameSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { CACHE_DIR } from '../n8n/fetch.ts';

export interface Pinned {
  name: string;
  version: string;
}

/** Names per `npm pack` call: one call per package costs a second of npm's start-up each. */
const BATCH = 25;

/** The folder a package is unpacked in (its package.json at the top). */
export const packageFolder = (pkg: Pinned, cache = CACHE_DIR) => join(cache, `${pkg.name.replace('/', '+')}@${pkg.version}`, 'package');

/**
 * Fetches and unpacks the packages not in the cache yet. Returns the folder of each package, or why
 * it could not be had (the registry refused it, or is out of reach).
 */
export function fetchPackages(pkgs: Pinned[], cache = CACHE_DIR): Map<string, { folder: string } | { error: string }> {
  const result = new Map<string, { folder: string } | { error: string }>();
  const missing: Pinned[] = [];
  for (const pkg of pkgs) {
    const folder = packageFolder(pkg, cache);
    if (existsSync(join(folder, 'package.json'))) result.set(key(pkg), { folder });
    else if (tarballIn(join(folder, '..'))) result.set(key(pkg), unpack(pkg, cache));
    else missing.push(pkg);
  }
  let unreachable: string | undefined;
  for (let i = 0; i < missing.length; i += BATCH) {
    const batch = missing.slice(i, i + BATCH);
    if (process.stderr.isTTY) process.stderr.write(`\rfetching community packages ${i + batch.length}/${missing.length} (npm pack)`);
    const skipped = unreachable && `not tried: the registry is out of reach (${unreachable})`;
    const packed = skipped || pack(batch, cache);
    for (const pkg of batch) {
      // One refused name fails the whole call: then each is packed alone, to tell which — unless the registry is out of reach.
      const outcome = packed !== undefined ? packed : unreachable ? `not tried: the registry is out of reach (${unreachable})` : pack([pkg], cache);
      if (typeof outcome === 'string' && !unreachable && NETWORK_ERROR.test(outcome)) unreachable = outcome;
      result.set(key(pkg), typeof outcome === 'string' ? { error: outcome } : unpack(pkg, cache));
    }
  }
  if (process.stderr.isTTY && missing.length > 0) process.stderr.write('\n');
  return result;
}

/** npm's codes for a registry out of reach: once met, the other packages are not tried (each would wait as long). */
const NETWORK_ERROR = /\b(ECONNREFUSED|ENOTFOUND|EAI_AGAIN|ETIMEDOUT|ECONNRESET|ENETUNREACH)\b/;

export const key = (pkg: Pinned) => `${pkg.name}@${pkg.version}`;

/** Packs a batch into a scratch folder and moves each tarball to its package's folder; on failure, npm's last error line. */
function pack(batch: Pinned[], cache: string): true | string | undefined {
  mkdirSync(cache, { recursive: true });
  const scratch = mkdtempSync(join(cache, '.pack-'));
  try {
    const run = spawnSync('npm', ['pack', ...batch.map(key), '--json', '--pack-destination', scratch], { encoding: 'utf8', maxBuffer: 256 << 20 });
    if (run.error) return `npm pack could not run: ${run.error.message}`;
    if (run.status !== 0) {
      if (batch.length > 1) return undefined;
      const said = run.stderr.split('\n').find((line) => /npm error (code|404)/.test(line)) ?? run.stderr.trim().split('\n').at(-1) ?? '';
      return `npm pack ${key(batch[0]!)} failed: ${said.replace(/^npm error /, '')}`;
    }
    const packed = JSON.parse(run.stdout) as { name: string; version: string; filename: string }[];
    for (const entry of packed) {
      // npm names a scoped package's tarball scope-name-version.tgz.
      const dir = join(packageFolder(entry, cache), '..');
      mkdirSync(dir, { recursive: true });
      renameSync(join(scratch, entry.filename.replace(/^@/, '').replace('/', '-')), join(dir, 'package.tgz'));
    }
    return true;
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

function unpack(pkg: Pinned, cache: string): { folder: string } | { error: string } {
  const dir = join(packageFolder(pkg, cache), '..');
  const tarball = tarballIn(dir);
  if (!tarball) return { error: `npm pack ${key(pkg)} gave no tarball` };
  // --no-same-owner/permissions: files are data to read; tar already refuses paths leaving the folder.
  const tar = spawnSync('tar', ['xzf', tarball, '-C', dir, '--no-same-owner', '--no-same-permissions'], { encoding: 'utf8' });
  if (tar.status !== 0) return { error: `unpacking ${key(pkg)} failed: ${tar.stderr.trim()}` };
  const folder = packageFolder(pkg, cache);
  return existsSync(join(folder, 'package.json')) ? { folder } : { error: `${key(pkg)}'s tarball has no package/package.json` };
}

function tarballIn(dir: string): string | undefined {
  if (!existsSync(dir)) return undefined;
  const name = readdirSync(dir).find((file) => file.endsWith('.tgz'));
  return name ? join(dir, name) : undefined;
}
