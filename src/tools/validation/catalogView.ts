import { Catalog } from '../../catalog/catalog';
import type { Env } from '../../env';
import type { N8nConnection } from '../../n8n/client';
import { instanceRelease } from '../../n8n/release';
import { newestRelease, ReleaseNodes } from '../../n8n/releaseTable';
import type { NodeCatalog } from '../../workflows/nodeCatalog';
import { catalogForNodes } from '../../workflows/prefetch';
import { ToolError } from '../tool';

/** The catalog view the validation tools judge nodes by, or their answer that there is none. */
export async function catalogViewFor(env: Env, connection: N8nConnection | undefined, nodes: unknown[]): Promise<NodeCatalog> {
  const view = await withInstance(connection, catalogForNodes(new Catalog(env.SPECS), nodes));
  if (!view) throw new ToolError('No node catalog is loaded on this server, so nodes cannot be checked (npm run catalog:load; see the README).');
  return view;
}

/**
 * What a validation answer adds when an n8n is configured but its release could not be read: that the
 * nodes were judged by the catalog's release instead, and why.
 */
export async function unknownReleaseNote(connection: N8nConnection | undefined): Promise<{ n8n?: string }> {
  const release = await instanceRelease(connection);
  return release && !release.known
    ? { n8n: `the configured n8n's release is unknown (${release.reason}): typeVersions were checked against the catalog, n8n ${newestRelease()}` }
    : {};
}

/** The view, judging nodes also by what the configured n8n's release ships, when that release is known. */
export async function withInstance(connection: N8nConnection | undefined, view: Promise<NodeCatalog | null>): Promise<NodeCatalog | null> {
  const [catalog, release] = await Promise.all([view, instanceRelease(connection)]);
  return catalog && release?.known ? { ...catalog, instance: new ReleaseNodes(release.release) } : catalog;
}
