import type { IRequest } from 'itty-router';
import { Catalog } from '../catalog/catalog';
import { SERVER_NAME, SERVER_VERSION } from '../config';
import type { Env } from '../env';
import { TRANSPORTS } from '../config';

/** GET /health: liveness plus what is deployed, the node catalog's version included. */
export async function health(_request: IRequest, env: Env): Promise<Response> {
  const manifest = await new Catalog(env.SPECS).manifest();
  return Response.json({
    status: 'ok',
    name: SERVER_NAME,
    version: SERVER_VERSION,
    catalogVersion: manifest?.version ?? null,
    catalog: manifest ? { specs: manifest.specs, sources: manifest.sources } : null,
    transports: TRANSPORTS,
  });
}
