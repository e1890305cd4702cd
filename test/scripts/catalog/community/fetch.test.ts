import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fetchPackages, packageFolder } from '../../../../scripts/catalog/community/fetch';
import { writeFixturePackage } from './fixturePackage';

let cache: string;
beforeEach(() => {
  cache = mkdtempSync(join(tmpdir(), 'community-cache-'));
});
afterEach(() => {
  vi.unstubAllEnvs();
  rmSync(cache, { recursive: true, force: true });
});

const pinned = { name: '@acme/n8n-nodes-fixture', version: '1.2.3' };

describe('fetching community packages', () => {
  it('unpacks a tarball already in the cache without asking the registry, and reuses the unpacked folder', () => {
    const dir = join(packageFolder(pinned, cache), '..');
    writeFixturePackage(join(dir, 'package'));
    spawnSync('tar', ['czf', join(dir, 'package.tgz'), '-C', dir, 'package']);
    rmSync(join(dir, 'package'), { recursive: true });
    // No registry can answer: only the cache can serve.
    vi.stubEnv('npm_config_registry', 'http://127.0.0.1:9/');
    const first = fetchPackages([pinned], cache).get('@acme/n8n-nodes-fixture@1.2.3');
    expect(first).toEqual({ folder: join(cache, '@acme+n8n-nodes-fixture@1.2.3', 'package') });
    expect(JSON.parse(readFileSync(join(packageFolder(pinned, cache), 'package.json'), 'utf8'))).toMatchObject({ name: 'n8n-nodes-fixture' });
    expect(fetchPackages([pinned], cache).get('@acme/n8n-nodes-fixture@1.2.3')).toEqual(first);
  });

  it('says, per package, why one could not be fetched, and stops asking a registry out of reach', () => {
    vi.stubEnv('npm_config_registry', 'http://127.0.0.1:9/');
    vi.stubEnv('npm_config_fetch_retries', '0');
    mkdirSync(cache, { recursive: true });
    const result = fetchPackages([pinned, { name: 'n8n-nodes-other', version: '0.0.1' }], cache);
    expect(result.get('@acme/n8n-nodes-fixture@1.2.3')).toEqual({ error: expect.stringMatching(/^npm pack @acme\/n8n-nodes-fixture@1\.2\.3 failed: /) });
    // Once the registry is known to be out of reach, the rest are not tried (each would wait as long).
    expect(result.get('n8n-nodes-other@0.0.1')).toEqual({
      error: expect.stringMatching(/^not tried: the registry is out of reach \(npm pack @acme.*ECONNREFUSED/),
    });
    expect(existsSync(packageFolder(pinned, cache))).toBe(false);
  });
});
