import { SpecError, validateSpec, type TypesMap } from './build';
import type { NodeSpec } from './nodeSpec';

/**
 * The seed taxonomy: `types.json` (seed 002's get_node_types answer, which fixes the order) and one
 * file per subtype at `<NODE_TYPE>/<SUBTYPE>.json`. Every listed subtype needs a valid file, and every
 * file must be listed, so the catalog and its order cannot drift apart.
 */
export function loadSeedCatalog(types: TypesMap, files: Map<string, unknown>): NodeSpec[] {
  const specs: NodeSpec[] = [];
  const listed = new Set<string>();
  for (const [nodeType, subtypes] of Object.entries(types)) {
    for (const subtype of subtypes ?? []) {
      const path = `${nodeType}/${subtype}.json`;
      listed.add(path);
      if (!files.has(path)) throw new SpecError(path, '(file)', 'listed in types.json but missing');
      const spec = validateSpec(path, files.get(path));
      if (spec.node_type !== nodeType) throw new SpecError(path, 'node_type', `is ${spec.node_type}, but the file is under ${nodeType}`);
      if (spec.subtype !== subtype) throw new SpecError(path, 'subtype', `is ${spec.subtype}, but the file is named ${subtype}`);
      specs.push(spec);
    }
  }
  for (const path of files.keys()) {
    if (!listed.has(path)) throw new SpecError(path, '(file)', 'not listed in types.json');
  }
  return specs;
}
