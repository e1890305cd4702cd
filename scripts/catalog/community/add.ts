/**
 * Adds one n8n node package to this deployment's catalog: an npm package (pinned to the version given,
 * else the latest) or a local folder holding a built package (read in place; its build is not run —
 * build it first). The package is read the way community packages are (as data, never run), recorded
 * in catalog.packages.json (commit it: it is the deployment's configuration, and every later build
 * reads it), then the catalog is rebuilt and loaded into KV as `npm run catalog:load` does.
 *
 *   npm run catalog:add -- n8n-nodes-foo[@1.2.3]    [--remote | --local [--persist-to DIR] | --no-load]
 *   npm run catalog:add -- ./nodes/my-package
 *
 * Default target: the local KV `wrangler dev` uses (--local).
 */
import { spawnSync } from 'node:child_process';
import { existsSync, statSync, writeFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { fetchPackages, key } from './fetch.ts';
import { NPM_NAME, OPERATOR_ABOUT, OPERATOR_PACKAGES_FILE, readOperatorList, type OperatorPackage } from './packages.ts';
import { readNodePackage, type PackageRead } from './readPackage.ts';

/** `name`, `name@1.2.3`, `@scope/name@1.2.3`, or a folder (a path that exists, or starts with . or /). */
export function parseTarget(target: string): { folder: string } | { npm: string; version?: string } {
  if (target.startsWith('.') || target.startsWith('/') || (existsSync(target) && statSync(target).isDirectory())) return { folder: target };
  const at = target.lastIndexOf('@');
  const [name, version] = at > 0 ? [target.slice(0, at), target.slice(at + 1)] : [target, undefined];
  if (!NPM_NAME.test(name)) throw new Error(`"${target}" is neither an npm package name (name or name@version) nor a folder`);
  return { npm: name, ...(version ? { version } : {}) };
}

/**
 * Reads the package (so a package that gives no node is refused before it is recorded) and records it
 * in the operator's list, replacing an entry for the same package or folder. Returns what was read.
 */
export function addPackage(target: string, options: { operatorFile?: string; cache?: string } = {}): { entry: OperatorPackage; read: PackageRead } {
  const file = options.operatorFile ?? OPERATOR_PACKAGES_FILE;
  const parsed = parseTarget(target);
  let entry: OperatorPackage;
  let read: PackageRead;
  if ('folder' in parsed) {
    const folder = resolve(parsed.folder);
    if (!existsSync(join(folder, 'package.json'))) throw new Error(`${parsed.folder} has no package.json: give the folder of a built n8n node package`);
    read = readNodePackage(folder);
    const unbuilt = read.leftOut.filter((l) => l.reason.startsWith('file missing'));
    if (unbuilt.length > 0)
      throw new Error(
        `${parsed.folder} is not built: ${unbuilt.map((l) => l.file).join(', ')} missing. Run its build (e.g. \`npm run build\` in that folder) first; catalog:add reads the built files and does not run the build.`,
      );
    // Relative to the repository root, so the list reads the same on every machine that has the folder.
    entry = { folder: relative(process.cwd(), folder) || '.' };
  } else {
    const version = parsed.version ?? latestVersion(parsed.npm);
    const got = fetchPackages([{ name: parsed.npm, version }], options.cache).get(key({ name: parsed.npm, version }));
    if (!got || 'error' in got) throw new Error(got?.error ?? `${parsed.npm}@${version} could not be fetched`);
    read = readNodePackage(got.folder);
    entry = { npm: parsed.npm, version };
  }
  if (read.nodes.length === 0)
    throw new Error(
      `${read.name}@${read.version} gives no node description that can be read as data: ${read.leftOut.map((l) => `${l.file}: ${l.reason}`).join('; ')}`,
    );
  const list = readOperatorList(file);
  const same = (p: OperatorPackage) =>
    'npm' in p && 'npm' in entry ? p.npm === entry.npm : 'folder' in p && 'folder' in entry && resolve(p.folder) === resolve(entry.folder);
  const packages = [...list.packages.filter((p) => !same(p)), entry];
  writeFileSync(file, JSON.stringify({ about: list.about || OPERATOR_ABOUT, packages }, null, 2) + '\n');
  return { entry, read };
}

function latestVersion(name: string): string {
  const view = spawnSync('npm', ['view', name, 'version'], { encoding: 'utf8' });
  const version = view.stdout?.trim().split('\n').at(-1);
  if (view.status !== 0 || !version) throw new Error(`npm view ${name} version failed: ${view.stderr?.trim().split('\n').at(-1) ?? view.error?.message}`);
  return version;
}

async function main(argv: string[]) {
  const target = argv.find((a, i) => !a.startsWith('--') && argv[i - 1] !== '--persist-to');
  if (!target) {
    console.error('usage: npm run catalog:add -- <npm name[@version] | ./folder> [--remote | --local [--persist-to DIR] | --no-load]');
    process.exit(2);
  }
  const { entry, read } = addPackage(target);
  const names = [...new Set(read.nodes.map((n) => n.displayName))];
  console.error(`${read.name}@${read.version}: ${names.length} nodes (${names.join(', ')}) → ${OPERATOR_PACKAGES_FILE} (${JSON.stringify(entry)})`);
  for (const l of read.leftOut) console.error(`  left out ${l.file}: ${l.reason}`);
  // Imported here, not at the top: building needs n8n's catalog, which reading a package does not.
  const { build, catalogsFromArgs } = await import('../build.ts');
  await build(catalogsFromArgs([]));
  if (argv.includes('--no-load')) return;
  const { load } = await import('../load.ts');
  const rest = argv.filter((a) => a !== target);
  load(rest.includes('--remote') || rest.includes('--local') ? rest : ['--local', ...rest]);
}

if (import.meta.main) await main(process.argv.slice(2));
