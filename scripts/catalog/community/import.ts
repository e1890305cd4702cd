/**
 * Imports community node packages into .catalog/community/specs.json (not committed): the chosen list
 * (packages.json) and the deployment's own (catalog.packages.json), each fetched with `npm pack` or
 * read in its folder, its node descriptions read as data (readPackage.ts), mapped like n8n's own
 * (importNodes: every version, the tool variants n8n derives) and marked `community` with the
 * package, its version, whether n8n lists it as verified and how to install it. Reports to stderr
 * what was fetched, imported and left out, and why. `npm run catalog:build` calls it.
 *
 *   npx tsx scripts/catalog/community/import.ts
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import type { NodeSpec } from '../../../src/catalog/nodeSpec.ts';
import type { N8nNode, N8nProperty } from '../n8n/mapNode.ts';
import { importNodes } from '../n8n/importNodes.ts';
import { fetchPackages, key } from './fetch.ts';
import { COMMUNITY_PACKAGES_FILE, OPERATOR_PACKAGES_FILE, readOperatorList, readPackageList } from './packages.ts';
import { readNodePackage, type PackageRead } from './readPackage.ts';

export const COMMUNITY_SPECS_FILE = '.catalog/community/specs.json';
/** Changes with what the importer makes of a package, so a build re-imports after the importer changes. */
const IMPORT_FORMAT = 1;

export interface Source {
  /** Where the package comes from: npm (pinned) or a folder. */
  from: { npm: string; version: string } | { folder: string };
  verified: boolean;
}

export interface CommunityImport {
  specs: NodeSpec[];
  report: string[];
}

export interface ImportOptions {
  packagesFile?: string;
  operatorFile?: string;
  cache?: string;
}

/** The specs of the last import, when it was made from the lists as they are now. */
export function readCommunitySpecs(options: ImportOptions = {}): NodeSpec[] | undefined {
  if (!existsSync(COMMUNITY_SPECS_FILE)) return undefined;
  const saved = JSON.parse(readFileSync(COMMUNITY_SPECS_FILE, 'utf8')) as { from: string; specs: NodeSpec[] };
  const sources = listedSources(options);
  // A local folder may have been rebuilt since: read it again.
  if (sources.some((s) => 'folder' in s.from)) return undefined;
  return saved.from === fingerprint(sources) ? saved.specs : undefined;
}

/** Imports every listed package and writes COMMUNITY_SPECS_FILE; throws when none could be had. */
export function importCommunity(options: ImportOptions = {}): NodeSpec[] {
  const sources = listedSources(options);
  const { specs, report } = importSources(sources, options.cache);
  for (const line of report) console.error(line);
  if (sources.length > 0 && specs.length === 0) throw new Error('no community package could be read (is the npm registry reachable?)');
  mkdirSync('.catalog/community', { recursive: true });
  writeFileSync(COMMUNITY_SPECS_FILE, JSON.stringify({ from: fingerprint(sources), specs }));
  return specs;
}

/** The chosen list, then the operator's (whose entry wins for a package on both). */
export function listedSources(options: ImportOptions): Source[] {
  const chosen = readPackageList(options.packagesFile ?? COMMUNITY_PACKAGES_FILE).packages.map((p): Source => ({
    from: { npm: p.name, version: p.version },
    verified: p.verified,
  }));
  const own = readOperatorList(options.operatorFile ?? OPERATOR_PACKAGES_FILE).packages.map((p): Source => ({ from: p, verified: false }));
  const ownNames = new Set(own.flatMap((s) => ('npm' in s.from ? [s.from.npm] : [])));
  return [...chosen.filter((s) => 'npm' in s.from && !ownNames.has(s.from.npm)), ...own];
}

const fingerprint = (sources: Source[]) =>
  createHash('sha256')
    .update(JSON.stringify([IMPORT_FORMAT, sources]))
    .digest('hex')
    .slice(0, 16);

/** Fetches, reads and maps the packages; pure apart from the fetch and the files read. */
export function importSources(sources: Source[], cache?: string): CommunityImport {
  const npm = sources.flatMap((s) => ('npm' in s.from ? [{ name: s.from.npm, version: s.from.version }] : []));
  const fetched = npm.length > 0 ? fetchPackages(npm, cache) : new Map();
  const report: string[] = [];
  const failed: string[] = [];
  const leftOut = new Map<string, string[]>();
  const dropped: Record<string, number> = {};
  const specs: NodeSpec[] = [];
  let read = 0;
  for (const source of sources) {
    const label = 'npm' in source.from ? key({ name: source.from.npm, version: source.from.version }) : source.from.folder;
    const got = 'npm' in source.from ? fetched.get(label) : { folder: resolve(source.from.folder) };
    if (!got || 'error' in got) {
      failed.push(`${label}: ${got?.error ?? 'not fetched'}`);
      continue;
    }
    let pkg: PackageRead;
    try {
      pkg = readNodePackage(got.folder);
    } catch (error) {
      failed.push(`${label}: ${(error as Error).message}`);
      continue;
    }
    read++;
    for (const l of pkg.leftOut) leftOut.set(l.reason, [...(leftOut.get(l.reason) ?? []), `${pkg.name}/${l.file}`]);
    for (const [reason, n] of Object.entries(pkg.dropped)) dropped[reason] = (dropped[reason] ?? 0) + n;
    const nodes = pkg.nodes.map((node) => importable(node, dropped));
    const mapped = importNodes([{ typePrefix: pkg.name, nodes }]);
    for (const s of mapped.skipped) leftOut.set(s.reason, [...(leftOut.get(s.reason) ?? []), s.subtype]);
    const community = {
      package: pkg.name,
      version: pkg.version,
      verified: source.verified,
      install: 'folder' in source.from ? folderInstall : npmInstall(pkg.name, pkg.version),
    };
    specs.push(...mapped.specs.map((spec) => ({ ...spec, community })));
  }
  const nodes = new Set(specs.map((s) => s.subtype)).size;
  const tools = new Set(specs.filter((s) => s.tool_of).map((s) => s.subtype)).size;
  const giving = new Set(specs.map((s) => s.community!.package)).size;
  report.push(
    `community: ${read} of ${sources.length} packages read, ${giving} of them with nodes: ${nodes} nodes (${tools} of them tools n8n derives), ${specs.length} descriptions`,
  );
  if (failed.length > 0) report.push(`  not read (${failed.length}):`, ...failed.map((f) => `    ${f}`));
  for (const [reason, which] of leftOut) report.push(`  left out ${which.length}: ${reason} (${which.join(', ')})`);
  const values = Object.entries(dropped).sort(([, a], [, b]) => b - a);
  if (values.length > 0) report.push(`  values not statically known, left out of descriptions: ${values.map(([r, n]) => `${r} ${n}`).join(', ')}`);
  return { specs, report };
}

/** How n8n installs a package from npm: its Community Nodes settings take the name with the version. */
export const npmInstall = (name: string, version: string) =>
  `n8n Settings → Community Nodes → Install: ${name}@${version} (or \`npm install ${name}@${version}\` in ~/.n8n/nodes, then restart n8n)`;

const folderInstall =
  "not on npm (the deployment's own package): put its built folder in n8n's custom extensions (~/.n8n/custom or N8N_CUSTOM_EXTENSIONS), then restart n8n";

/**
 * A filter's version is an n8n expression of `$nodeVersion` that the importer evaluates (mapNode): from
 * a community package only the plain comparison n8n writes is kept, so no package text is ever run.
 */
const PLAIN_FILTER_VERSION = /^=\{\{\s*\$nodeVersion\s*(>=|>|<=|<)\s*\d+(\.\d+)?\s*\?\s*\d+\s*:\s*\d+\s*\}\}$/;

/**
 * What of a statically read description the importer can take, the rest counted in `dropped`: properties
 * whose name or type was computed (n8n could not show them either), filter versions that are not the
 * plain comparison, documentation links that are not http(s) URLs.
 */
export function importable(node: N8nNode, dropped: Record<string, number>): N8nNode {
  const drop = (reason: string) => (dropped[reason] = (dropped[reason] ?? 0) + 1);
  const clean = (p: N8nProperty): N8nProperty[] => {
    if (typeof p.name !== 'string' || typeof p.type !== 'string') {
      drop('property without a static name or type');
      return [];
    }
    let property = p;
    const version = p.typeOptions?.filter?.version;
    if (version !== undefined && typeof version !== 'number' && !(typeof version === 'string' && PLAIN_FILTER_VERSION.test(version))) {
      const { version: _, ...filter } = p.typeOptions!.filter!;
      property = { ...p, typeOptions: { ...p.typeOptions, filter } };
      drop('filter version expression');
    }
    if (!Array.isArray(property.options)) return [property];
    const options = property.options.flatMap((o): (typeof o)[] => {
      if (typeof o !== 'object' || o === null || typeof o.name !== 'string') {
        drop('choice without a static name');
        return [];
      }
      if ('type' in o) return clean(o);
      const values = (o as { values?: unknown }).values;
      return [Array.isArray(values) ? { ...o, values: (values as N8nProperty[]).flatMap(clean) } : o];
    });
    return [{ ...property, options }];
  };
  const docs = node.codex?.resources?.primaryDocumentation;
  const url = docs?.[0]?.url;
  let codex = node.codex;
  if (docs && !(typeof url === 'string' && /^https?:\/\/[^\s]+$/.test(url) && URL.canParse(url))) {
    drop('documentation link that is not a URL');
    codex = { ...node.codex, resources: { ...node.codex!.resources, primaryDocumentation: [] } };
  }
  return { ...node, ...(codex ? { codex } : {}), ...literalPorts(node), properties: (node.properties ?? []).flatMap(clean) };
}

/**
 * Ports written as an expression that only lists them (`={{["main"]}}`) are that list. Other
 * expressions stay as they are: the Worker bundles functions for n8n's own expressions only, so the
 * validator leaves the ports of such a node unchecked rather than guess them.
 */
function literalPorts(node: N8nNode): Pick<N8nNode, 'inputs' | 'outputs'> {
  const ports: Pick<N8nNode, 'inputs' | 'outputs'> = {};
  for (const side of ['inputs', 'outputs'] as const) {
    const body = typeof node[side] === 'string' ? /^=\{\{\s*(\[[^\]]*\])\s*\}\}$/.exec(node[side])?.[1] : undefined;
    if (body === undefined) continue;
    try {
      const list = JSON.parse(body.replace(/'/g, '"')) as unknown;
      if (Array.isArray(list) && list.every((p) => typeof p === 'string')) ports[side] = list;
    } catch {
      // Not a plain list: left as the expression it is.
    }
  }
  return ports;
}

if (import.meta.main) {
  importCommunity();
  console.error(`written: ${COMMUNITY_SPECS_FILE} (${(readFileSync(COMMUNITY_SPECS_FILE).length / 1024).toFixed(0)} KiB)`);
}
