import { Catalog } from '../../catalog/catalog';
import type { Env } from '../../env';
import type { NodeCatalog } from '../../workflows/nodeCatalog';
import { catalogForNodes } from '../../workflows/prefetch';
import { ToolError } from '../tool';

/** The catalog view the validation tools judge nodes by, or their answer that there is none. */
export async function catalogViewFor(env: Env, nodes: unknown[]): Promise<NodeCatalog> {
  const view = await catalogForNodes(new Catalog(env.SPECS), nodes);
  if (!view) throw new ToolError('No node catalog is loaded on this server, so nodes cannot be checked (npm run catalog:load; see the README).');
  return view;
}
