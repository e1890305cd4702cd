import { SERVER_NAME, SERVER_VERSION } from '../config';
import { TRANSPORTS } from '../transport/kinds';

/** GET /health: liveness plus what is deployed. The catalog version arrives with the node catalog. */
export const health = (): Response =>
  Response.json({ status: 'ok', name: SERVER_NAME, version: SERVER_VERSION, catalogVersion: null, transports: TRANSPORTS });
