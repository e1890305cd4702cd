import { NODE_TYPES, NodeSpecSchema, type NodeSpec, type NodeType } from './nodeSpec';
import { CURRENT_KEY, indexKey, manifestKey, specKey, typesKey } from './keys';
import { buildSearchIndex } from './search/buildIndex';

/** `{TYPE: [subtypes]}` in the order get_node_types returns them. */
export type TypesMap = Partial<Record<NodeType, string[]>>;

export interface CatalogManifest {
  version: string;
  sources: string[];
  specs: number;
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
 * the same specs always give the same version and the same entries.
 */
export async function buildCatalog(
  specs: NodeSpec[],
  options: { sources: string[] },
): Promise<CatalogBuild> {
  const seen = new Set<string>();
  for (const spec of specs) {
    if (seen.has(spec.subtype)) throw new SpecError(spec.subtype, 'subtype', 'appears twice in the catalog');
    seen.add(spec.subtype);
  }
  const version = await contentVersion(specs);
  const types: TypesMap = {};
  for (const nodeType of NODE_TYPES) {
    const subtypes = specs.filter((s) => s.node_type === nodeType).map((s) => s.subtype);
    if (subtypes.length > 0) types[nodeType] = subtypes;
  }
  const manifest: CatalogManifest = { version, sources: options.sources, specs: specs.length };
  const entries: KvEntry[] = [
    ...specs.map((spec) => ({ key: specKey(version, spec.node_type, spec.subtype), value: JSON.stringify(spec) })),
    { key: typesKey(version), value: JSON.stringify(types) },
    { key: indexKey(version), value: JSON.stringify(buildSearchIndex(specs)) },
    { key: manifestKey(version), value: JSON.stringify(manifest) },
    { key: CURRENT_KEY, value: version },
  ];
  return { manifest, types, entries };
}

async function contentVersion(specs: NodeSpec[]): Promise<string> {
  const bytes = new TextEncoder().encode(JSON.stringify(specs));
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', bytes));
  return [...digest.slice(0, 6)].map((b) => b.toString(16).padStart(2, '0')).join('');
}
