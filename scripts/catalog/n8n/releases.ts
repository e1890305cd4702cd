/**
 * Builds src/n8n/typeVersionsByRelease.json: which node typeVersions each n8n release from 1.0 to the
 * catalog's ships. Each n8n release pins an n8n-nodes-base and (from 1.2x) an @n8n/n8n-nodes-langchain
 * version (`npm view n8n@X dependencies`); a package's dist/types/nodes.json lists its nodes and their
 * typeVersions, and n8n adds a "…Tool" type for each node usable as an AI tool. Releases are sampled
 * and bisected where their node sets differ (releaseTable.ts), so a few dozen tarballs are read, not
 * hundreds; what each holds is cached in .catalog/cache/typeVersions/ and the tarball dropped.
 * Releases whose pinned packages the registry does not offer are left off the table (listed), but for
 * the newest, which is the catalog's: it has the packages the catalog imports (packages.ts).
 *
 *   npm run catalog:releases
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { compareReleases } from '../../../src/n8n/releaseTable.ts';
import { CACHE_DIR } from './fetch.ts';
import { typeName, versionsOf, type N8nNode } from './mapNode.ts';
import { N8N_PACKAGES } from './packages.ts';
import { encodeTable, sampleAndBisect, setKey, type NodeSet } from './releaseTable.ts';

export const RELEASE_TABLE_FILE = 'src/n8n/typeVersionsByRelease.json';
const SUMMARY_DIR = join(CACHE_DIR, 'typeVersions');
/** The oldest release covered; the newest is the one whose packages the catalog imports. */
const OLDEST = '1.0.0';
const NEWEST = '2.41.3';
const BASE = 'n8n-nodes-base';
const LANGCHAIN = '@n8n/n8n-nodes-langchain';
/** Every this-many distinct package pins is read before bisecting. */
const SAMPLE_STEP = 8;

function npmJson<T>(args: string[]): T {
  const run = spawnSync('npm', ['view', ...args, '--json'], { encoding: 'utf8', maxBuffer: 256 << 20 });
  if (run.status !== 0) throw new Error(`npm view ${args.join(' ')} failed: ${run.stderr.trim().split('\n').at(-1)}`);
  return JSON.parse(run.stdout) as T;
}

interface Release {
  release: string;
  base: string;
  langchain?: string;
}

/** n8n releases from OLDEST to NEWEST with the packages each pins (one registry request). */
function releases(): Release[] {
  const rows = npmJson<Record<string, string>[]>([`n8n@>=${OLDEST} <=${NEWEST}`, 'version', `dependencies.${BASE}`, `dependencies.${LANGCHAIN}`]);
  return rows
    .filter((r) => !r.version!.includes('-'))
    .map((r) => ({
      release: r.version!,
      base: r[`dependencies.${BASE}`]!,
      ...(r[`dependencies.${LANGCHAIN}`] ? { langchain: r[`dependencies.${LANGCHAIN}`] } : {}),
    }))
    .sort((a, b) => compareReleases(a.release, b.release));
}

/** The types and typeVersions one package version has (cached; the tarball is not kept). */
function packageSet(name: string, version: string): NodeSet {
  const file = join(SUMMARY_DIR, `${name.replace('/', '+')}@${version}.json`);
  if (!existsSync(file)) {
    const dir = mkdtempSync(join(tmpdir(), 'n8n-pack-'));
    try {
      console.error(`reading ${name}@${version} (npm pack)…`);
      const pack = spawnSync('npm', ['pack', `${name}@${version}`, '--pack-destination', dir], { encoding: 'utf8', maxBuffer: 64 << 20 });
      if (pack.status !== 0) throw new Error(`npm pack ${name}@${version} failed: ${pack.stderr.trim().split('\n').at(-1)}`);
      const tarball = join(dir, pack.stdout.trim().split('\n').at(-1)!);
      const tar = spawnSync('tar', ['xzOf', tarball, 'package/dist/types/nodes.json'], { encoding: 'utf8', maxBuffer: 512 << 20 });
      if (tar.status !== 0) throw new Error(`reading nodes.json of ${tarball} failed: ${tar.stderr}`);
      const summary: Record<string, number[]> = {};
      for (const node of JSON.parse(tar.stdout) as N8nNode[]) {
        // Older packages name their nodes with the package in front already ("n8n-nodes-base.set").
        const short = node.name.startsWith(`${name}.`) ? node.name.slice(name.length + 1) : node.name;
        const names = [typeName(name, { ...node, name: short }), ...(node.usableAsTool ? [typeName(name, { ...node, name: `${short}Tool` })] : [])];
        for (const type of names) summary[type] = [...new Set([...(summary[type] ?? []), ...versionsOf(node)])].sort((a, b) => a - b);
      }
      mkdirSync(SUMMARY_DIR, { recursive: true });
      writeFileSync(file, JSON.stringify(summary));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }
  return new Map(Object.entries(JSON.parse(readFileSync(file, 'utf8')) as Record<string, number[]>));
}

export async function buildReleaseTable(): Promise<void> {
  const offered = {
    [BASE]: new Set(npmJson<string[]>([BASE, 'versions'])),
    [LANGCHAIN]: new Set(npmJson<string[]>([LANGCHAIN, 'versions'])),
  };
  const catalogPin = (name: string) => N8N_PACKAGES.find((p) => p.name === name && !p.legacy)!.version;
  const all = releases().map((r) => (r.release === NEWEST ? { ...r, base: catalogPin(BASE), langchain: catalogPin(LANGCHAIN) } : r));
  const readable = all.filter((r) => offered[BASE].has(r.base) && (!r.langchain || offered[LANGCHAIN].has(r.langchain)));
  const left = all.filter((r) => !readable.includes(r));
  // Releases pinning the same packages have the same nodes: one read stands for all of them.
  const pins = [...new Set(readable.map((r) => `${r.base} ${r.langchain ?? ''}`))];
  const sets = new Map<string, NodeSet>();
  const setOf = (pin: string): NodeSet => {
    if (!sets.has(pin)) {
      const [base, langchain] = pin.split(' ');
      sets.set(pin, new Map([...packageSet(BASE, base!), ...(langchain ? packageSet(LANGCHAIN, langchain) : [])]));
    }
    return sets.get(pin)!;
  };
  const read = await sampleAndBisect(pins.length, SAMPLE_STEP, async (i) => setKey(setOf(pins[i]!)));
  const readPins = new Set(read.map((i) => pins[i]!));
  const axis = readable.filter((r) => readPins.has(`${r.base} ${r.langchain ?? ''}`));
  const table = encodeTable(axis.map((r) => ({ release: r.release, set: setOf(`${r.base} ${r.langchain ?? ''}`) })));
  writeFileSync(RELEASE_TABLE_FILE, JSON.stringify(table) + '\n');
  console.error(
    `${RELEASE_TABLE_FILE}: ${axis.length} of ${all.length} releases (${OLDEST}…${NEWEST}) from ${read.length} of ${pins.length} package pins read, ` +
      `${Object.keys(table.types).length} node types; ${NEWEST} as the catalog has it (${BASE}@${catalogPin(BASE)}, ${LANGCHAIN}@${catalogPin(LANGCHAIN)}).`,
  );
  if (left.length) console.error(`  left off (a pinned package the registry does not offer): ${left.map((r) => r.release).join(', ')}`);
}

if (import.meta.main) await buildReleaseTable();
