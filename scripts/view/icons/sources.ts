/**
 * The node types of the default catalog (n8n's pinned packages and the community packages, read as the
 * catalog build reads them: scripts/catalog/n8n/fetch.ts, scripts/catalog/community/) with what the
 * view needs of each: display name, colour and where its icon comes from. Pure apart from reading the
 * packages (fetched once with `npm pack` into .catalog/cache, as the catalog does).
 */
import { resolve } from 'node:path';
import { listedSources } from '../../catalog/community/import.ts';
import { fetchPackages, key } from '../../catalog/community/fetch.ts';
import { readNodePackage } from '../../catalog/community/readPackage.ts';
import { fetchNodeDescriptions } from '../../catalog/n8n/fetch.ts';
import type { N8nNode } from '../../catalog/n8n/mapNode.ts';
import { N8N_PACKAGES } from '../../catalog/n8n/packages.ts';
import { toolVariant } from '../../catalog/n8n/toolVariant.ts';

/** What of a node description the icon table reads, beside N8nNode's fields. */
export interface Described extends N8nNode {
  defaults?: { color?: unknown };
  /** `fa:name` (Font Awesome, drawn by n8n's editor as a Lucide icon), `node:name` (n8n 2's editor's own), or `file:x.svg` (community). */
  icon?: unknown;
  /** nodes.json's form of `icon: 'file:…'`: `icons/<package>/dist/nodes/…/x.svg`, or {light, dark}. */
  iconUrl?: unknown;
}

export interface Pinned {
  name: string;
  version: string;
}

/** Where an icon comes from: a file of a pinned package, or a Lucide icon. */
export type IconSource = { kind: 'file'; pkg: Pinned; path: string } | { kind: 'lucide'; name: string };

export interface DescribedPackage {
  pkg: Pinned;
  typePrefix: string;
  /** n8n 1.x: its descriptions rank after n8n 2's of the same typeVersion. */
  legacy: boolean;
  /** Icons of community packages are not taken (docs/view-icons.md): only names and colours. */
  community: boolean;
  nodes: Described[];
}

export interface NodeTypeInfo {
  type: string;
  name: string;
  color: string | null;
  icon?: IconSource;
  /** Why there is no icon source: "png", "node: icon", "fa:x (no Lucide equivalent)", "none", "community". */
  why?: string;
  /** What the newest description names as its icon (`fa:clock`, `node:if`, `file`, `png`…), for the report. */
  declared: string;
}

/**
 * n8n's editor draws a Font Awesome name (`fa:…`) with a Lucide icon: its design system's table of
 * deprecated names (@n8n/design-system, N8nIcon), here for the names n8n's node packages use. A name
 * missing here has no Lucide equivalent there (grip-lines-vertical is n8n's own drawing).
 */
export const FA_TO_LUCIDE: Record<string, string> = {
  'arrow-right': 'arrow-right',
  'balance-scale-left': 'scale',
  bars: 'menu',
  'box-open': 'package-open',
  brain: 'brain',
  bug: 'bug',
  calculator: 'calculator',
  calendar: 'calendar',
  'check-double': 'check-check',
  clock: 'clock',
  'cloud-download-alt': 'cloud-download',
  code: 'code',
  comments: 'messages-square',
  cut: 'scissors',
  database: 'database',
  edit: 'square-pen',
  envelope: 'mail',
  'exchange-alt': 'arrow-left-right',
  'exclamation-triangle': 'triangle-alert',
  'file-archive': 'file-archive',
  'file-code': 'file-code',
  'file-export': 'file-output',
  'file-import': 'file-input',
  'file-pdf': 'file-text',
  filter: 'funnel',
  fingerprint: 'fingerprint',
  'folder-open': 'folder-open',
  hourglass: 'hourglass',
  image: 'image',
  inbox: 'inbox',
  key: 'key-round',
  link: 'link',
  'map-signs': 'milestone',
  'mouse-pointer': 'mouse-pointer',
  'network-wired': 'network',
  'pause-circle': 'circle-pause',
  pen: 'pen',
  play: 'play',
  'project-diagram': 'waypoints',
  robot: 'bot',
  rss: 'rss',
  server: 'server',
  'sign-in-alt': 'log-in',
  'sign-out-alt': 'log-out',
  'sticky-note': 'sticky-note',
  sync: 'refresh-cw',
  table: 'table',
  tags: 'tags',
  tasks: 'list-checks',
  terminal: 'terminal',
  'th-large': 'grid-2x2',
  tools: 'wrench',
};

/** n8n's packages, current then legacy, with their descriptions (nodes.json). */
export function n8nPackages(): DescribedPackage[] {
  return N8N_PACKAGES.map((pkg) => ({
    pkg: { name: pkg.name, version: pkg.version },
    typePrefix: pkg.typePrefix,
    legacy: pkg.legacy,
    community: false,
    nodes: fetchNodeDescriptions(pkg) as Described[],
  }));
}

/** The community packages the catalog imports (chosen list and the deployment's own), read statically; those that cannot be had are reported. */
export function communityPackages(report: string[]): DescribedPackage[] {
  const sources = listedSources({});
  const npm = sources.flatMap((s) => ('npm' in s.from ? [{ name: s.from.npm, version: s.from.version }] : []));
  const fetched = npm.length > 0 ? fetchPackages(npm) : new Map<string, { folder: string } | { error: string }>();
  const packages: DescribedPackage[] = [];
  for (const source of sources) {
    const label = 'npm' in source.from ? key({ name: source.from.npm, version: source.from.version }) : source.from.folder;
    const got = 'npm' in source.from ? fetched.get(label) : { folder: resolve(source.from.folder) };
    if (!got || 'error' in got) {
      report.push(`community package ${label} left out: ${got?.error ?? 'not fetched'}`);
      continue;
    }
    try {
      const read = readNodePackage(got.folder);
      packages.push({
        pkg: { name: read.name, version: read.version },
        typePrefix: read.name,
        legacy: false,
        community: true,
        nodes: read.nodes as Described[],
      });
    } catch (error) {
      report.push(`community package ${label} left out: ${(error as Error).message}`);
    }
  }
  return packages;
}

interface Candidate {
  node: Described;
  from: DescribedPackage;
  newest: number;
}

/**
 * Every node type of the packages (and the tools n8n derives from nodes), sorted by type, with its
 * display name and colour from its newest description (n8n 2's before n8n 1's of the same version;
 * the colour from the newest that has one) and its icon from the newest description that names one
 * this table can draw: an SVG file (the light variant) or a Font Awesome name with a Lucide equivalent.
 * n8n 2 names its most used nodes' icons `node:…` (its editor's own drawings, not in the packages):
 * those take the icon of their n8n 1.x description, or, new in n8n 2, that of another type with the same `node:` icon.
 */
export function nodeTypes(packages: DescribedPackage[]): NodeTypeInfo[] {
  const byType = new Map<string, Candidate[]>();
  for (const from of packages) {
    for (const node of [...from.nodes, ...from.nodes.flatMap((n) => (toolVariant(n) as Described | null) ?? [])]) {
      if (typeof node.name !== 'string' || typeof node.displayName !== 'string') continue;
      const type = `${from.typePrefix}.${node.name}`;
      const list = byType.get(type) ?? [];
      list.push({ node, from, newest: Math.max(...[node.version].flat()) });
      byType.set(type, list);
    }
  }
  const types = [...byType.keys()].sort().map((type): NodeTypeInfo => {
    const candidates = byType.get(type)!.sort((a, b) => b.newest - a.newest || Number(a.from.legacy) - Number(b.from.legacy));
    const first = candidates[0]!;
    const color = candidates.map((c) => c.node.defaults?.color).find((c): c is string => typeof c === 'string' && /^#[0-9a-fA-F]{3,8}$/.test(c));
    const info: NodeTypeInfo = { type, name: first.node.displayName, color: color ?? null, declared: declared(first.node) };
    if (first.from.community) return { ...info, why: 'community' };
    for (const candidate of candidates) {
      const icon = iconSource(candidate.node, candidate.from.pkg);
      if (typeof icon !== 'string') return { ...info, icon };
    }
    return { ...info, why: iconSource(first.node, first.from.pkg) as string };
  });
  // A type new in n8n 2 has no n8n 1.x icon: it takes the one found for another type n8n 2 draws with the same `node:` icon.
  const byEditorIcon = new Map<string, IconSource>();
  for (const t of types) if (t.icon && t.declared.startsWith('node:') && !byEditorIcon.has(t.declared)) byEditorIcon.set(t.declared, t.icon);
  return types.map((t) => {
    const shared = t.icon ? undefined : byEditorIcon.get(t.declared);
    if (!shared) return t;
    const { why: _, ...rest } = t;
    return { ...rest, icon: shared };
  });
}

/** What a description names as its icon, in a word. */
function declared(node: Described): string {
  if (typeof node.icon === 'string') return node.icon.startsWith('fa:') || node.icon.startsWith('node:') ? node.icon : 'file';
  const url = lightUrl(node.iconUrl);
  return url === undefined ? 'none' : url.endsWith('.svg') ? 'svg' : 'png';
}

const lightUrl = (iconUrl: unknown): string | undefined => {
  if (typeof iconUrl === 'string') return iconUrl;
  if (typeof iconUrl === 'object' && iconUrl !== null && typeof (iconUrl as { light?: unknown }).light === 'string')
    return (iconUrl as { light: string }).light;
  return undefined;
};

/** The icon a description of n8n's packages names, or why it names none this table draws. */
export function iconSource(node: Described, pkg: Pinned): IconSource | string {
  const url = lightUrl(node.iconUrl);
  if (url !== undefined) {
    const prefix = `icons/${pkg.name}/`;
    if (!url.startsWith(prefix) || url.includes('..')) return `icon outside the package (${url})`;
    const path = url.slice(prefix.length);
    return /\.svg$/i.test(path) ? { kind: 'file', pkg, path } : 'png';
  }
  if (typeof node.icon === 'string' && node.icon.startsWith('fa:')) {
    const lucide = FA_TO_LUCIDE[node.icon.slice(3)];
    return lucide ? { kind: 'lucide', name: lucide } : `${node.icon} (no Lucide equivalent)`;
  }
  if (typeof node.icon === 'string' && node.icon.startsWith('node:')) return 'node: icon';
  return 'none';
}
