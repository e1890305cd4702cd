/**
 * A node against the n8n the server drives: the catalog is n8n 2.41's, and an older instance lacks
 * newer typeVersions. n8n saves a workflow with one, then fails to activate it with "Cannot read
 * properties of undefined (reading 'execute')", naming no node; so here it is an error naming the
 * newest version the instance has.
 */
import type { NodeSpec } from '../catalog/nodeSpec';
import { compareReleases, type Shipped } from '../n8n/releaseTable';
import type { Findings } from './findings';
import type { NodeCatalog } from './nodeCatalog';
import type { WorkflowNode } from './validateNode';

/** What the instance's release ships (src/n8n/releaseTable.ts's ReleaseNodes). */
export interface InstanceNodes {
  readonly release: string;
  knows(type: string): boolean;
  ships(type: string, version: number): Shipped;
  /** The typeVersions of a type the release surely has, oldest first. */
  versions(type: string): number[];
  firstShipping(type: string, version: number): string | undefined;
}

export function checkInstanceVersion(node: WorkflowNode, spec: NodeSpec, instance: InstanceNodes, out: Findings): void {
  if (!instance.knows(node.type)) return;
  const shipped = instance.ships(node.type, node.typeVersion);
  if (shipped === 'yes') return;
  const { release } = instance;
  const first = instance.firstShipping(node.type, node.typeVersion);
  const later = first !== undefined && compareReleases(first, release) > 0 ? ` (it first shipped in n8n ${first})` : '';
  const newest = instance.versions(node.type).at(-1);
  const use =
    newest === undefined
      ? `n8n ${release} has no version of ${spec.display_name}: use another node, or upgrade n8n.`
      : `The newest it has is ${newest}: set "typeVersion": ${newest} (get_node_details with version ${newest} gives its parameters).`;
  if (shipped === 'no') {
    out.error(
      node.name,
      'type_version_not_on_instance',
      `${spec.display_name} typeVersion ${node.typeVersion} is not in n8n ${release}, the n8n this server drives${later}. ${use} ` +
        `n8n cannot activate a workflow with a node version it lacks (it fails with "Cannot read properties of undefined (reading 'execute')", naming no node).`,
      'typeVersion',
    );
  } else if (later) {
    out.warning(
      node.name,
      'type_version_maybe_not_on_instance',
      `n8n ${release}, the n8n this server drives, may lack ${spec.display_name} typeVersion ${node.typeVersion}${later}; the releases read cannot tell for ${release}. ${use}`,
      'typeVersion',
    );
  }
}

/**
 * The typeVersions a node of `type` can be given (those the instance surely runs, when the table knows
 * the type; else the catalog's), and whether a version is one to replace: the catalog lacks it, or the
 * instance does. Null for a type the catalog does not know.
 */
export function versionChoices(catalog: NodeCatalog, type: string): { versions: number[]; holder: string; lacks: (version: number) => boolean } | null {
  const all = catalog.newest(type)?.node_versions;
  if (!all) return null;
  const { instance } = catalog;
  const sure = instance?.knows(type) ? instance.versions(type).filter((v) => all.includes(v)) : [];
  const lacks = (version: number) => !all.includes(version) || instance?.ships(type, version) === 'no';
  return sure.length && instance ? { versions: sure, holder: `n8n ${instance.release}`, lacks } : { versions: all, holder: 'the node', lacks };
}
