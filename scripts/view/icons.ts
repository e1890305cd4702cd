/**
 * Builds the node looks (src/catalog/nodeLooks.ts), what the workflow view (src/view/nodeLook.ts) draws node types with:
 * every node type of the default catalog (n8n's pinned packages, scripts/catalog/n8n/packages.ts, and
 * the community packages, scripts/catalog/community/) with its display name and colour, and for as many
 * as fit a size budget an icon from n8n's node packages, sanitized (scripts/view/icons/sanitize.ts) and
 * minified (svgo). Deterministic: the same packages and usage counts give the same bytes.
 * docs/view-icons.md says where the icons come from, their licences and the budget.
 *
 *   npx tsx scripts/view/icons.ts
 *
 * writes .catalog/view-looks.json (not committed: n8n's files are not part of this repository), which the
 * catalog build (scripts/catalog/build.ts) puts into KV with the catalog, building it first when it is
 * missing. The file:
 *
 *   {
 *     "about": "how it was made: sources and versions, licences, budget, the rebuild command",
 *     "types": {                       // every node type of the catalog, sorted
 *       "n8n-nodes-base.httpRequest": { "name": "HTTP Request", "color": "#0004F5", "icon": 3 },
 *       "n8n-nodes-klicktipp.klicktipp": { "name": "KlickTipp", "color": null }   // no icon: a lettered badge
 *     },
 *     "icons": ["<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 24 24\">…</svg>", …],
 *     "notices": { "lucide-static@x.y.z": "its LICENSE, which its icons must carry" }
 *   }
 *
 * `name` is the display name of the type's newest description; `color` its `defaults.color` (from the
 * newest description that has one: n8n 2 dropped most), or null; `icon` an index into `icons`, absent
 * when the type has none or its icon is over the budget. Each icon's root holds only `xmlns` and
 * `viewBox` (what it drew with moves to a group around its children), its ids are prefixed `i<index>-`
 * so all icons can share one document, and it has no <style>, script, event handler or reference outside
 * itself. Monochrome icons (the Lucide ones) draw with `currentColor`.
 *
 * Icons are taken in order of how many real workflows use each node type
 * (scripts/catalog/usage/node-usage.json), then the others by name, while the gzip size of the `icons`
 * array stays within ICONS_BUDGET_GZIP; those of the ALWAYS most used types are taken regardless.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import type { NodeLooks } from '../../src/catalog/nodeLooks.ts';
import { gzipSync } from 'node:zlib';
import { packedFiles } from '../catalog/n8n/fetch.ts';
import { readNodeUsage } from '../catalog/usage/count.ts';
import { drawsRaster, iconFromSvg, SVGO_VERSION } from './icons/minify.ts';
import { prefixIds, type Sanitized } from './icons/sanitize.ts';
import { communityPackages, n8nPackages, nodeTypes, type DescribedPackage, type IconSource, type NodeTypeInfo, type Pinned } from './icons/sources.ts';
import { serializeXml } from './icons/xml.ts';

export const LOOKS_FILE = '.catalog/view-looks.json';
/** The most the `icons` array may weigh, gzipped (level 9), over the icons of the ALWAYS most used types. */
export const ICONS_BUDGET_GZIP = 80 * 1024;
/** The most used node types whose icons are always included. */
export const ALWAYS = 60;
/** Where Font Awesome names' Lucide icons come from (n8n's editor draws `fa:` names with Lucide). */
export const LUCIDE: Pinned = { name: 'lucide-static', version: '1.62.0' };

export type IconTable = NodeLooks;

/** What an icon source gave: the sanitized icon, or why there is none. */
export type Loaded = { markup: string; sanitized: Sanitized } | { error: string };

export interface Choice {
  icons: string[];
  /** Type → index into icons. */
  index: Map<string, number>;
  /** Types whose icon was left out for the budget. */
  overBudget: string[];
}

export const gzipSize = (icons: string[]) => gzipSync(JSON.stringify(icons), { level: 9 }).length;

/** Most used first (counts from real workflows), then by type name. */
export function rankTypes(types: string[], counts: Record<string, number>): string[] {
  return [...types].sort((a, b) => (counts[b] ?? 0) - (counts[a] ?? 0) || (a < b ? -1 : a > b ? 1 : 0));
}

/**
 * Takes the icons of the ranked types in order: an icon already taken (the same markup) is shared; a
 * new one is taken when the first `always` types need it or when the array's gzip size stays within
 * `budget`, and skipped otherwise (a smaller one further down may still fit). `render(markup, prefix)`
 * gives an icon with its ids prefixed.
 */
export function chooseIcons(
  ranked: { type: string; markup?: string }[],
  options: { budget: number; always: number; render: (markup: string, prefix: string) => string },
): Choice {
  const icons: string[] = [];
  const taken = new Map<string, number>();
  const index = new Map<string, number>();
  const overBudget: string[] = [];
  for (const [rank, { type, markup }] of ranked.entries()) {
    if (markup === undefined) continue;
    const known = taken.get(markup);
    if (known !== undefined) {
      index.set(type, known);
      continue;
    }
    const icon = options.render(markup, `i${icons.length}-`);
    if (rank >= options.always && options.budget !== Infinity && gzipSize([...icons, icon]) > options.budget) {
      overBudget.push(type);
      continue;
    }
    taken.set(markup, icons.length);
    index.set(type, icons.length);
    icons.push(icon);
  }
  return { icons, index, overBudget };
}

/** The icon of a source's file text: sanitized and minified, or why not. */
export function loadIcon(raw: string): Loaded {
  if (drawsRaster(raw)) return { error: 'draws with a raster image' };
  try {
    const { markup, sanitized } = iconFromSvg(raw);
    return { markup, sanitized };
  } catch (error) {
    return { error: `unreadable: ${(error as Error).message}` };
  }
}

const sourceKey = (source: IconSource) => (source.kind === 'file' ? `${source.pkg.name}@${source.pkg.version}/${source.path}` : `lucide:${source.name}`);

/** The text of every icon source, from the pinned packages (fetched once into .catalog/cache). */
function readSources(sources: IconSource[]): { texts: Map<string, string>; lucideLicense?: string } {
  const texts = new Map<string, string>();
  const byPackage = new Map<string, { pkg: Pinned; files: Map<string, string> }>();
  for (const source of sources) {
    const pkg = source.kind === 'file' ? source.pkg : LUCIDE;
    const path = source.kind === 'file' ? source.path : `icons/${source.name}.svg`;
    const id = `${pkg.name}@${pkg.version}`;
    const entry = byPackage.get(id) ?? { pkg, files: new Map() };
    entry.files.set(path, sourceKey(source));
    byPackage.set(id, entry);
  }
  let lucideLicense: string | undefined;
  for (const { pkg, files } of byPackage.values()) {
    const paths = [...files.keys()].sort();
    const isLucide = pkg.name === LUCIDE.name;
    const read = packedFiles(pkg, isLucide ? [...paths, 'LICENSE'] : paths);
    for (const [i, path] of paths.entries()) texts.set(files.get(path)!, read[i]!);
    if (isLucide) lucideLicense = read.at(-1);
  }
  return { texts, lucideLicense };
}

export interface Build {
  table: IconTable;
  report: string[];
}

/** Reads the packages and builds the table (nothing written). */
export function buildIconTable(options: { budget?: number; always?: number } = {}): Build {
  const budget = options.budget ?? ICONS_BUDGET_GZIP;
  const always = options.always ?? ALWAYS;
  const report: string[] = [];
  const n8n = n8nPackages();
  const community = communityPackages(report);
  const types = nodeTypes([...n8n, ...community]);
  const { counts } = readNodeUsage();

  const used = new Map<string, IconSource>();
  for (const t of types) if (t.icon) used.set(sourceKey(t.icon), t.icon);
  const { texts, lucideLicense } = readSources([...used.values()].sort((a, b) => (sourceKey(a) < sourceKey(b) ? -1 : 1)));
  const loaded = new Map<string, Loaded>();
  for (const [key, text] of texts) loaded.set(key, loadIcon(text));

  const info = new Map(types.map((t) => [t.type, t]));
  const ranked = rankTypes(
    types.map((t) => t.type),
    counts,
  ).map((type) => {
    const icon = info.get(type)!.icon;
    const got = icon ? loaded.get(sourceKey(icon)) : undefined;
    return { type, markup: got && 'markup' in got ? got.markup : undefined };
  });
  const trees = new Map([...loaded.values()].flatMap((got) => ('markup' in got ? [[got.markup, got.sanitized.root] as const] : [])));
  const render = (markup: string, prefix: string) => serializeXml(prefixIds(trees.get(markup)!, prefix));
  const choice = chooseIcons(ranked, { budget, always, render });
  const full = chooseIcons(ranked, { budget: Infinity, always, render });

  const usesLucide = [...choice.index.keys()].some((type) => info.get(type)!.icon?.kind === 'lucide');
  const table: IconTable = {
    about: about(n8n, community, { budget, always, lucide: usesLucide, icons: choice.icons.length, types: types.length }),
    types: Object.fromEntries(
      types.map((t) => [t.type, { name: t.name, color: t.color, ...(choice.index.has(t.type) ? { icon: choice.index.get(t.type)! } : {}) }]),
    ),
    icons: choice.icons,
    ...(usesLucide && lucideLicense ? { notices: { [`${LUCIDE.name}@${LUCIDE.version}`]: lucideLicense.trim() } } : {}),
  };
  report.push(...summary({ types, info, ranked, loaded, choice, full, counts, budget, always }));
  return { table, report };
}

function about(
  n8n: DescribedPackage[],
  community: DescribedPackage[],
  facts: { budget: number; always: number; lucide: boolean; icons: number; types: number },
): string {
  const current = n8n.filter((p) => !p.legacy).map((p) => `${p.pkg.name}@${p.pkg.version}`);
  const legacy = n8n.filter((p) => p.legacy).map((p) => `${p.pkg.name}@${p.pkg.version}`);
  return [
    `How the workflow view draws node types: ${facts.types} node types of the default catalog — ${current.join(', ')}, with ${legacy.join(', ')} for the types and icons n8n 2 lacks, and ${community.length} community packages (scripts/catalog/community/packages.json; names and colours only) — each with its display name, its colour (defaults.color of its newest description that has one, or null) and the index of its icon.`,
    `Icons (${facts.icons}): the SVG files n8n's node packages name (the light variant; n8n 2's own "node:" icons are not in the packages, so those types take their n8n 1.x icon)${facts.lucide ? `, and for Font Awesome names ("fa:") the Lucide icon n8n's editor draws for them (${LUCIDE.name}@${LUCIDE.version})` : ''}; sanitized by scripts/view/icons/sanitize.ts (an allowlist: no script, style element, event handler, foreignObject, image or reference outside the icon), minified with svgo@${SVGO_VERSION}, ids prefixed i<index>-; taken in order of how many real workflows use each type (scripts/catalog/usage/node-usage.json), the ${facts.always} most used always, the others while the icons array stays within ${facts.budget / 1024} KB gzipped.`,
    `Licences: n8n's icons come from n8n's packages under the Sustainable Use License (https://docs.n8n.io/sustainable-use-license/; LICENSE.md of each package), modified here (sanitized, minified); the logos of other services are their owners' trademarks.${facts.lucide ? ` Lucide icons: ISC, their notice below (notices).` : ''}`,
    'Rebuild: npx tsx scripts/view/icons.ts (docs/view-icons.md).',
  ].join(' ');
}

/** The file's text: one type and one icon a line, so a rebuild's diff reads. */
export function formatTable(table: IconTable): string {
  const types = Object.entries(table.types).map(([type, look]) => `  ${JSON.stringify(type)}: ${JSON.stringify(look)}`);
  const icons = table.icons.map((icon) => `  ${JSON.stringify(icon)}`);
  const parts = [
    ` "about": ${JSON.stringify(table.about)}`,
    ` "types": {\n${types.join(',\n')}\n }`,
    ` "icons": [\n${icons.join(',\n')}\n ]`,
    ...(table.notices ? [` "notices": ${JSON.stringify(table.notices)}`] : []),
  ];
  return `{\n${parts.join(',\n')}\n}\n`;
}

function summary(facts: {
  types: NodeTypeInfo[];
  info: Map<string, NodeTypeInfo>;
  ranked: { type: string; markup?: string }[];
  loaded: Map<string, Loaded>;
  choice: Choice;
  full: Choice;
  counts: Record<string, number>;
  budget: number;
  always: number;
}): string[] {
  const { types, info, ranked, loaded, choice, full, counts, budget, always } = facts;
  const tally = (values: string[]) => {
    const counted = new Map<string, number>();
    for (const v of values) counted.set(v, (counted.get(v) ?? 0) + 1);
    return [...counted].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)).map(([v, n]) => `${v} ${n}`);
  };
  const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;
  const raw = (icons: string[]) => JSON.stringify(icons).length;
  const without = types.filter((t) => !t.icon);
  const failed = [...loaded].filter(([, got]) => 'error' in got) as [string, { error: string }][];
  const top = (n: number) => ranked.slice(0, n).map((r) => info.get(r.type)!);
  const lines = [
    `${types.length} node types (${types.filter((t) => t.why === 'community').length} community), ${choice.index.size} with an icon, ${choice.icons.length} distinct icons`,
    `icons: ${kb(raw(choice.icons))} raw, ${kb(gzipSize(choice.icons))} gzip (budget ${kb(budget)}); all ${full.icons.length} icons: ${kb(raw(full.icons))} raw, ${kb(gzipSize(full.icons))} gzip`,
    `left out for the budget: ${choice.overBudget.length} types (${full.icons.length - choice.icons.length} icons), most used first: ${choice.overBudget.slice(0, 12).join(', ')}`,
    `no icon source: ${without.length} types — ${tally(without.map((t) => (t.why ?? '').replace(/^fa:.*/, 'fa: without Lucide equivalent'))).join(', ')}`,
    `icon files not usable: ${failed.length}${failed.map(([key, got]) => `\n  ${key}: ${got.error}`).join('')}`,
  ];
  for (const n of [always, 100]) {
    const group = top(n);
    const declared = (prefix: string) => group.filter((t) => t.declared.startsWith(prefix)).length;
    const lucide = group.filter((t) => t.icon?.kind === 'lucide').length;
    const drawn = group.filter((t) => choice.index.has(t.type)).length;
    lines.push(
      `the ${n} most used types: ${drawn} with an icon; their newest description names fa: ${declared('fa:')}, node: ${declared('node:')}, png ${declared('png')}; ${lucide} drawn with a Lucide icon (fa: here or in n8n 1.x)`,
    );
  }
  const missing = top(always).filter((t) => !choice.index.has(t.type));
  if (missing.length)
    lines.push(`  of the ${always} most used, without icon: ${missing.map((t) => `${t.type} (${counts[t.type] ?? 0}; ${t.why})`).join(', ')}`);
  return lines;
}

/** Builds the looks from the packages and writes LOOKS_FILE. */
function writeLooks(): NodeLooks {
  const started = performance.now();
  const { table, report } = buildIconTable();
  mkdirSync(dirname(LOOKS_FILE), { recursive: true });
  writeFileSync(LOOKS_FILE, formatTable(table));
  for (const line of report) console.error(line);
  console.error(`wrote ${LOOKS_FILE} in ${((performance.now() - started) / 1000).toFixed(1)} s`);
  return table;
}

/**
 * The looks the catalog build stores: LOOKS_FILE, built first when missing; undefined when the packages
 * cannot be had (no registry), and the view then names types from their ids.
 */
export function readNodeLooks(): NodeLooks | undefined {
  if (existsSync(LOOKS_FILE)) return JSON.parse(readFileSync(LOOKS_FILE, 'utf8')) as NodeLooks;
  try {
    return writeLooks();
  } catch (error) {
    console.error(`node looks left out (the workflow view names node types from their ids): ${(error as Error).message}`);
    return undefined;
  }
}

if (import.meta.main) writeLooks();
