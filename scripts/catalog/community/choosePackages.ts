/**
 * Chooses the community node packages the catalog imports and writes scripts/catalog/community/
 * packages.json (committed): first the packages that real workflows of the corpus use (their node
 * type names, `<package>.<node>`, in scripts/catalog/usage/node-usage.json), then the most downloaded
 * others by the facts of n8n-mcp's nodes.db (npm_downloads, is_verified; nothing else is taken from
 * it), then — with --available — other node packages the registry is known to hold. Each is pinned to
 * the version `npm view` gives now and kept only if `npm pack` fetches it and its package.json lists
 * n8n nodes.
 *
 *   npx tsx scripts/catalog/community/choosePackages.ts [--target 300] [--nodes-db PATH] [--available FILE]
 *
 * --available FILE: names of packages the registry in use holds, one a line (a first tab-separated
 * column is the name, a third the monthly downloads): candidates outside it are not asked for, and
 * n8n node packages in it (`n8n-nodes-*`, `@scope/n8n-nodes-*`) that the other sources lack are added
 * after them. For a registry mirror that holds only part of npm.
 */
import { spawn } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { basename } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { readNodeUsage } from '../usage/count.ts';
import { fetchPackages, key } from './fetch.ts';
import { COMMUNITY_PACKAGES_FILE, N8N_OWN, NPM_NAME, packageOfType, type CommunityPackage } from './packages.ts';

const NODES_DB = '.eval/n8n-mcp/node_modules/n8n-mcp/data/nodes.db';
/** What n8n names community node packages. */
const NODE_PACKAGE = /^(@[^/]+\/)?n8n-nodes-/;

interface Candidate {
  name: string;
  verified: boolean;
  downloads?: number;
  used?: Record<string, number>;
  why: 'corpus' | 'nodes.db' | 'registry';
}

/** Corpus packages (most used first), then nodes.db's by downloads, then the registry's others: each name once. */
export function candidates(
  counts: Record<string, number>,
  facts: Map<string, { downloads: number; verified: boolean }>,
  available?: Map<string, number>,
): Candidate[] {
  const used = new Map<string, Record<string, number>>();
  for (const [type, n] of Object.entries(counts)) {
    const name = packageOfType(type);
    if (name) used.set(name, { ...used.get(name), [type]: n });
  }
  const total = (u: Record<string, number>) => Object.values(u).reduce((a, b) => a + b, 0);
  const fact = (name: string) => facts.get(name) ?? { verified: false };
  const list: Candidate[] = [...used.entries()]
    .sort(([a, x], [b, y]) => total(y) - total(x) || (a < b ? -1 : 1))
    .map(([name, u]) => ({ name, ...fact(name), used: u, why: 'corpus' }));
  const byDownloads = [...facts.entries()].sort(([a, x], [b, y]) => y.downloads - x.downloads || Number(y.verified) - Number(x.verified) || (a < b ? -1 : 1));
  for (const [name, f] of byDownloads) list.push({ name, ...f, why: 'nodes.db' });
  for (const [name] of [...(available ?? [])].sort(([a, x], [b, y]) => y - x || (a < b ? -1 : 1))) {
    if (NODE_PACKAGE.test(name) && !N8N_OWN.has(name)) list.push({ name, verified: false, why: 'registry' });
  }
  const seen = new Set<string>();
  return list.filter((c) => !seen.has(c.name) && seen.add(c.name) && (!available || available.has(c.name)));
}

/** nodes.db's facts per community package: the most downloads and whether any of its nodes is verified. */
export function readNodesDbFacts(path: string): Map<string, { downloads: number; verified: boolean }> {
  const db = new DatabaseSync(path, { readOnly: true });
  try {
    const rows = db
      .prepare(
        'SELECT npm_package_name AS name, MAX(npm_downloads) AS downloads, MAX(is_verified) AS verified FROM nodes WHERE is_community = 1 AND npm_package_name IS NOT NULL GROUP BY npm_package_name',
      )
      .all() as { name: string; downloads: number | null; verified: number }[];
    return new Map(rows.map((r) => [r.name, { downloads: r.downloads ?? 0, verified: r.verified === 1 }]));
  } finally {
    db.close();
  }
}

/** `npm view NAME version`, a few at a time. */
async function latestVersions(names: string[]): Promise<Map<string, string | undefined>> {
  const result = new Map<string, string | undefined>();
  const queue = [...names];
  const worker = async () => {
    for (let name = queue.shift(); name !== undefined; name = queue.shift()) result.set(name, await npmViewVersion(name));
  };
  await Promise.all(Array.from({ length: 6 }, worker));
  return result;
}

function npmViewVersion(name: string): Promise<string | undefined> {
  return new Promise((done) => {
    const child = spawn('npm', ['view', name, 'version'], { stdio: ['ignore', 'pipe', 'ignore'] });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.on('close', (code) => done(code === 0 && out.trim() !== '' ? out.trim().split('\n').at(-1) : undefined));
  });
}

function readAvailable(file: string): Map<string, number> {
  const names = new Map<string, number>();
  for (const line of readFileSync(file, 'utf8').split('\n')) {
    const [name, , downloads] = line.split('\t');
    if (name && NPM_NAME.test(name)) names.set(name, Number(downloads) || 0);
  }
  return names;
}

async function main(argv: string[]) {
  const arg = (flag: string) => (argv.includes(flag) ? argv[argv.indexOf(flag) + 1] : undefined);
  const target = Number(arg('--target') ?? 300);
  const dbPath = arg('--nodes-db') ?? NODES_DB;
  if (!existsSync(dbPath)) throw new Error(`${dbPath} not found: install n8n-mcp 2.87.0 under .eval/n8n-mcp, or give --nodes-db`);
  const availableFile = arg('--available');
  const available = availableFile ? readAvailable(availableFile) : undefined;
  const facts = readNodesDbFacts(dbPath);
  const counts = readNodeUsage().counts;
  const all = candidates(counts, facts, available);
  const corpus = candidates(counts, new Map()).filter((c) => c.why === 'corpus');
  const notHeld = corpus.filter((c) => !all.some((a) => a.name === c.name)).map((c) => c.name);
  const chosen: CommunityPackage[] = [];
  const refused: string[] = [];
  // Asked in rounds of the number still wanted, so no more names are looked up than needed.
  for (let at = 0; at < all.length && chosen.length < target;) {
    const round = all.slice(at, at + Math.max(target - chosen.length, 10));
    at += round.length;
    const versions = await latestVersions(round.map((c) => c.name));
    const pinned = round.flatMap((c) => {
      const version = versions.get(c.name);
      if (!version) refused.push(`${c.name}: npm view gives no version`);
      return version ? [{ ...c, version }] : [];
    });
    const fetched = fetchPackages(pinned);
    for (const c of pinned) {
      const got = fetched.get(key(c));
      if (!got || 'error' in got) {
        refused.push(`${c.name}: ${got?.error ?? 'not fetched'}`);
        continue;
      }
      const manifest = JSON.parse(readFileSync(`${got.folder}/package.json`, 'utf8')) as { n8n?: { nodes?: unknown[] } };
      if (!manifest.n8n?.nodes?.length) {
        refused.push(`${c.name}: its package.json lists no n8n nodes`);
        continue;
      }
      if (chosen.length < target)
        chosen.push({
          name: c.name,
          version: c.version,
          verified: c.verified,
          ...(c.downloads !== undefined ? { downloads: c.downloads } : {}),
          ...(c.used ? { used_in_workflows: c.used } : {}),
        });
    }
  }
  const count = (why: Candidate['why']) => chosen.filter((p) => all.find((c) => c.name === p.name)?.why === why).length;
  const about =
    `Community node packages the catalog imports (npm run catalog:build), chosen by scripts/catalog/community/choosePackages.ts: ` +
    `first those whose node types real workflows of the corpus use (scripts/catalog/usage/node-usage.json; ${count('corpus')} here` +
    (notHeld.length > 0 ? `; ${notHeld.length} more the registry does not hold: ${notHeld.join(', ')}` : '') +
    `), ` +
    `then the most downloaded others by n8n-mcp 2.87.0's nodes.db facts (npm_downloads, is_verified; ${count('nodes.db')} here)` +
    (available ? `, then other n8n node packages the registry holds (${count('registry')} here, verified false: nodes.db does not list them)` : '') +
    `; target ${target}. Each is pinned to the version npm view gave, and kept only if npm pack fetched it and its package.json lists n8n nodes` +
    (available
      ? `; names were looked up only where the --available list (${basename(availableFile!)}) names them: the registry in use holds part of npm`
      : '') +
    `. "verified": n8n lists the package as verified (nodes.db). Looked up but not taken: ${refused.length ? refused.join('; ') : 'none'}.`;
  writeFileSync(COMMUNITY_PACKAGES_FILE, JSON.stringify({ about, packages: chosen }, null, 1) + '\n');
  console.error(`${chosen.length} packages written to ${COMMUNITY_PACKAGES_FILE} (${all.length} candidates)`);
  for (const r of refused) console.error(`  not taken: ${r}`);
}

if (import.meta.main) await main(process.argv.slice(2));
