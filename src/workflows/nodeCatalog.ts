/**
 * What the validator knows of nodes: a synchronous view of the catalog, so the rules stay pure. The
 * Worker fills one with the few specs a workflow needs (src/workflows/prefetch.ts); scripts build one
 * over the whole built catalog (scripts/lib/nodeCatalog.ts).
 */
import { highest } from '../catalog/build';
import type { NodeSpec } from '../catalog/nodeSpec';
import type { InstanceNodes } from './instanceVersions';

export interface NodeCatalog {
  /** The newest description of a node type, or null when the catalog does not know the type. */
  newest(type: string): NodeSpec | null;
  /** The description of `type` that covers `typeVersion`, or null. */
  describe(type: string, typeVersion: number): NodeSpec | null;
  /** Every type name the catalog knows, for close matches. */
  typeNames(): readonly string[];
  /** What the n8n this server drives ships, when its release is known: nodes are checked against it too. */
  instance?: InstanceNodes;
}

/** A catalog view over specs in memory: every description of every node given. */
export function catalogOf(specs: Iterable<NodeSpec>, typeNames?: readonly string[]): NodeCatalog {
  const byType = new Map<string, NodeSpec[]>();
  for (const spec of specs) {
    const list = byType.get(spec.subtype) ?? [];
    list.push(spec);
    byType.set(spec.subtype, list);
  }
  const names = typeNames ?? [...byType.keys()];
  return {
    newest: (type) => {
      const list = byType.get(type);
      return list ? list.reduce((a, b) => (highest(b) > highest(a) ? b : a)) : null;
    },
    describe: (type, typeVersion) => {
      const list = byType.get(type) ?? [];
      // A seed spec (no typeVersions) is its one version.
      return list.find((s) => !s.type_versions || s.type_versions.includes(typeVersion)) ?? null;
    },
    typeNames: () => names,
  };
}
