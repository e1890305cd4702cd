import { NODE_TYPES, NodeSpecSchema, type NodeSpec, type NodeType } from './nodeSpec';
import { categoriesKey, CURRENT_KEY, indexKey, looksKey, manifestKey, olderSpecKey, specKey, typesKey } from './keys';
import type { NodeLooks } from './nodeLooks';
import { buildSearchIndex, INDEX_VERSION, type NodeWords, type WorkflowUsage } from './search/buildIndex';
import { toBase64, type WordTable } from './search/semantic';
import { TEMPLATE_INDEX_VERSION, templateEntries } from '../templates/searchIndex';
import type { ValidatedTemplate } from '../templates/template';

/** `{TYPE: [subtypes]}` in the order get_node_types returns them. */
export type TypesMap = Partial<Record<NodeType, string[]>>;

/** `{category: [subtypes]}` (n8n's node-panel categories), categories in code-point order. */
export type CategoriesMap = Record<string, string[]>;

/** Each category the current descriptions name, with its subtypes in catalog order. */
export function categoriesOf(current: NodeSpec[]): CategoriesMap {
  const names = [...new Set(current.flatMap((s) => s.categories))].sort();
  return Object.fromEntries(names.map((name) => [name, current.filter((s) => s.categories.includes(name)).map((s) => s.subtype)]));
}

export interface CatalogManifest {
  version: string;
  sources: string[];
  /** Nodes, each under its newest description. */
  specs: number;
  /** Every description, older versions' included. */
  descriptions?: number;
}

export interface KvEntry {
  key: string;
  value: string;
}

export interface CatalogBuild {
  manifest: CatalogManifest;
  types: TypesMap;
  /** Every KV entry, the `catalog:current` pointer last. */
  entries: KvEntry[];
}

export class SpecError extends Error {
  constructor(
    readonly path: string,
    readonly field: string,
    problem: string,
  ) {
    super(`${path}: ${field}: ${problem}`);
    this.name = 'SpecError';
  }
}

/** Validates one spec file's content; a failure names the file and the field at fault. */
export function validateSpec(path: string, content: unknown): NodeSpec {
  const result = NodeSpecSchema.safeParse(content);
  if (result.success) return result.data;
  const issue = result.error.issues[0]!;
  throw new SpecError(path, issue.path.join('.') || '(root)', issue.message);
}

/**
 * Turns validated specs (in catalog order) into KV entries under a content-derived version:
 * the same specs, usage, templates and index formats always give the same version and the same entries.
 * `usage` is what real workflows say of each node type (scripts/catalog/usage), which search ranks with;
 * `words` what people call each node and the jobs they do with it (scripts/catalog/knowledge);
 * `templates` the workflow templates served with the catalog (scripts/catalog/templates); `semantic` the
 * word table search's semantic layer pools node and query vectors from (scripts/catalog/semantic); `looks`
 * how the workflow view draws each node type (scripts/view/icons.ts).
 */
export async function buildCatalog(
  specs: NodeSpec[],
  options: { sources: string[]; usage?: WorkflowUsage; words?: NodeWords; templates?: ValidatedTemplate[]; semantic?: WordTable; looks?: NodeLooks },
): Promise<CatalogBuild> {
  const { current, older } = newestDescriptions(specs);
  const templates = options.templates ?? [];
  const table = options.semantic;
  const version = await contentVersion([
    specs,
    options.usage ?? null,
    ...(options.words ? [options.words] : []),
    INDEX_VERSION,
    ...(templates.length > 0 ? [templates, TEMPLATE_INDEX_VERSION] : []),
    ...(table ? [table.dims, table.words, toBase64(table.vectors)] : []),
    ...(options.looks ? [options.looks] : []),
  ]);
  const types: TypesMap = {};
  for (const nodeType of NODE_TYPES) {
    const subtypes = current.filter((s) => s.node_type === nodeType).map((s) => s.subtype);
    if (subtypes.length > 0) types[nodeType] = subtypes;
  }
  const manifest: CatalogManifest = { version, sources: options.sources, specs: current.length, descriptions: specs.length };
  const nodeTypeOf = new Map(current.map((s) => [s.subtype, s.node_type]));
  const entries: KvEntry[] = [
    ...current.map((spec) => ({ key: specKey(version, spec.node_type, spec.subtype), value: JSON.stringify(spec) })),
    // Older descriptions live beside the newest, under its node type and each typeVersion they cover.
    ...older.flatMap((spec) =>
      spec.type_versions!.map((typeVersion) => ({
        key: olderSpecKey(version, nodeTypeOf.get(spec.subtype)!, spec.subtype, typeVersion),
        value: JSON.stringify(spec),
      })),
    ),
    { key: typesKey(version), value: JSON.stringify(types) },
    { key: categoriesKey(version), value: JSON.stringify(categoriesOf(current)) },
    { key: indexKey(version), value: JSON.stringify(buildSearchIndex(searchable(current), options.usage, table, options.words)) },
    ...templateEntries(version, templates, current),
    ...(options.looks ? [{ key: looksKey(version), value: JSON.stringify(options.looks) }] : []),
    { key: manifestKey(version), value: JSON.stringify(manifest) },
    { key: CURRENT_KEY, value: version },
  ];
  return { manifest, types, entries };
}

/** What search ranks: each node once. Derived tools are found through the node they come from. */
export const searchable = (current: NodeSpec[]): NodeSpec[] => current.filter((s) => !s.tool_of);

/** The highest typeVersion a spec describes (its `version` for specs without type_versions). */
export const highest = (spec: NodeSpec): number => Math.max(...(spec.type_versions ?? [Number(spec.version)]));

/**
 * Each node's newest description, in catalog order, and its older ones. A node may have several
 * descriptions only if they describe different typeVersions.
 */
export function newestDescriptions(specs: NodeSpec[]): { current: NodeSpec[]; older: NodeSpec[] } {
  const groups = new Map<string, NodeSpec[]>();
  for (const spec of specs) {
    const group = groups.get(spec.subtype) ?? [];
    const versions = spec.type_versions;
    if (group.length > 0) {
      const taken = new Set(group.flatMap((s) => s.type_versions ?? []));
      if (!versions || group.some((s) => !s.type_versions) || versions.some((v) => taken.has(v))) {
        throw new SpecError(spec.subtype, 'subtype', 'appears twice in the catalog for the same version');
      }
    }
    group.push(spec);
    groups.set(spec.subtype, group);
  }
  const current: NodeSpec[] = [];
  const older: NodeSpec[] = [];
  for (const group of groups.values()) {
    const [newest, ...rest] = [...group].sort((a, b) => highest(b) - highest(a));
    current.push(newest!);
    older.push(...rest);
  }
  return { current, older };
}

async function contentVersion(content: unknown): Promise<string> {
  const bytes = new TextEncoder().encode(JSON.stringify(content));
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', bytes));
  return [...digest.slice(0, 6)].map((b) => b.toString(16).padStart(2, '0')).join('');
}
