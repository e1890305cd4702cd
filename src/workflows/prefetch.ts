/**
 * The I/O edge of validation in the Worker: reads from KV the descriptions a workflow's nodes need
 * (each node type's newest, and the one of each typeVersion used) and gives the pure rules a
 * synchronous catalog view over them, or null when no catalog is loaded. KV reads are cached per
 * isolate (src/catalog/catalog.ts).
 */
import type { Catalog } from '../catalog/catalog';
import type { NodeSpec } from '../catalog/nodeSpec';
import { catalogOf, type NodeCatalog } from './nodeCatalog';
import { isPlainObject } from './values';

/** More distinct (type, version) pairs than this are not read: such a "workflow" is not one to help with. */
const MAX_DESCRIPTIONS = 400;

export async function catalogForNodes(catalog: Catalog, nodes: unknown[]): Promise<NodeCatalog | null> {
  // No catalog loaded (a deployment before `npm run catalog:load`): nothing to judge nodes by.
  if ((await catalog.version()) === null) return null;
  const types: Record<string, string[] | undefined> = await catalog.types();
  const nodeTypeOf = new Map<string, string>();
  for (const [nodeType, subtypes] of Object.entries(types)) for (const subtype of subtypes ?? []) nodeTypeOf.set(subtype, nodeType);
  const wanted = new Map<string, Set<number | undefined>>();
  for (const node of nodes) {
    if (!isPlainObject(node) || typeof node.type !== 'string' || !nodeTypeOf.has(node.type)) continue;
    const versions = wanted.get(node.type) ?? new Set([undefined]);
    if (typeof node.typeVersion === 'number') versions.add(node.typeVersion);
    wanted.set(node.type, versions);
  }
  const reads: Promise<NodeSpec | null>[] = [];
  for (const [type, versions] of wanted) {
    for (const version of versions) {
      if (reads.length >= MAX_DESCRIPTIONS) break;
      reads.push(catalog.spec(nodeTypeOf.get(type)!, type, version));
    }
  }
  const specs = (await Promise.all(reads)).filter((s): s is NodeSpec => s !== null);
  return catalogOf(specs, [...nodeTypeOf.keys()]);
}
