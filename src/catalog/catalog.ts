import type { CatalogManifest, CategoriesMap, TypesMap } from './build';
import { own } from '../lib/ownKeys';
import { categoriesKey, CURRENT_KEY, indexKey, looksKey, manifestKey, olderSpecKey, specKey, typesKey } from './keys';
import type { NodeLooks } from './nodeLooks';
import { INDEX_VERSION, type SearchIndex } from './search/buildIndex';
import { Searcher } from './search/search';
import type { NodeSpec } from './nodeSpec';

/** How long an isolate trusts the version pointer it read before asking KV again. */
const POINTER_TTL_MS = 30_000;

/** Per-isolate cache: the pointer briefly, everything under a version for as long as the isolate lives. */
const cache = {
  pointer: undefined as { version: string | null; readAt: number } | undefined,
  byVersion: new Map<string, Map<string, Promise<unknown>>>(),
  searcher: undefined as { version: string; searcher: Searcher } | undefined,
};

/** Read access to the node catalog in KV. */
export class Catalog {
  constructor(private readonly kv: KVNamespace) {}

  /** The version readers use, or null when no catalog was ever loaded. */
  async version(): Promise<string | null> {
    const now = Date.now();
    if (cache.pointer && now - cache.pointer.readAt < POINTER_TTL_MS) return cache.pointer.version;
    const version = await this.kv.get(CURRENT_KEY);
    cache.pointer = { version, readAt: now };
    return version;
  }

  async manifest(): Promise<CatalogManifest | null> {
    return this.read((v) => manifestKey(v));
  }

  async types(): Promise<TypesMap> {
    return (await this.read<TypesMap>((v) => typesKey(v))) ?? {};
  }

  /** Subtypes by category; empty for a catalog built before categories were stored. */
  async categories(): Promise<CategoriesMap> {
    return (await this.read<CategoriesMap>((v) => categoriesKey(v))) ?? {};
  }

  /** How the workflow view draws node types; null for a catalog built without them (the view then names types from their ids). */
  async looks(): Promise<NodeLooks | null> {
    return this.read<NodeLooks>((v) => looksKey(v));
  }

  /** The search index of the current version, parsed once per isolate. */
  async searcher(): Promise<Searcher | null> {
    const version = await this.version();
    if (version === null) return null;
    if (cache.searcher?.version !== version) {
      const index = await this.kv.get<SearchIndex>(indexKey(version), 'json');
      // An index built for other code (deployed before its catalog was rebuilt) is not read as this one.
      if (index?.version !== INDEX_VERSION) return null;
      cache.searcher = { version, searcher: new Searcher(index) };
    }
    return cache.searcher.searcher;
  }

  /**
   * One node's spec: its newest description, or the one that covers `typeVersion`; null for a node or
   * version the catalog does not have. Names not in the types map and versions the node does not list
   * are never looked up: a caller's made-up name could exceed KV's key length, and every lookup is
   * remembered for the version's lifetime.
   */
  async spec(nodeType: string, subtype: string, typeVersion?: number): Promise<NodeSpec | null> {
    if (!own<string[] | undefined>(await this.types(), nodeType)?.includes(subtype)) return null;
    const newest = await this.read<NodeSpec>((v) => specKey(v, nodeType, subtype));
    // A seed spec has no typeVersions: it is its one version.
    if (!newest || typeVersion === undefined || !newest.type_versions || newest.type_versions.includes(typeVersion)) return newest;
    if (!newest.node_versions?.includes(typeVersion)) return null;
    return this.read((v) => olderSpecKey(v, nodeType, subtype, typeVersion));
  }

  /** A JSON value of the current version, read once per isolate. */
  private async read<T>(key: (version: string) => string): Promise<T | null> {
    const version = await this.version();
    if (version === null) return null;
    let values = cache.byVersion.get(version);
    if (!values) {
      // A new version replaces the old ones: their entries are never read again.
      cache.byVersion.clear();
      values = new Map();
      cache.byVersion.set(version, values);
    }
    const k = key(version);
    let value = values.get(k);
    if (!value) {
      value = this.kv.get(k, 'json').catch((error: unknown) => {
        values.delete(k); // a failed read is retried next time, not remembered
        throw error;
      });
      values.set(k, value);
    }
    return (await value) as T | null;
  }
}

/**
 * The node type `types` lists `subtype` under, whatever category a caller named with it: the build
 * lists each subtype under one type (buildCatalog), so a wrong label is forgiven without a guess.
 */
export function listedUnder(types: TypesMap, subtype: string): string | undefined {
  return Object.entries(types).find(([, subtypes]) => subtypes?.includes(subtype))?.[0];
}

/** Forgets what this isolate cached (tests switch catalogs under it). */
export function clearCatalogCache(): void {
  cache.pointer = undefined;
  cache.byVersion.clear();
  cache.searcher = undefined;
}
