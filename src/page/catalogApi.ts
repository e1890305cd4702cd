import { requireScope } from '../auth/authenticate';
import { principalOf } from '../http/request';
import { RATE_LIMIT_PERIOD_SECONDS, tooManyRequests, withinLimit } from '../auth/rateLimit';
import { Catalog } from '../catalog/catalog';
import { NODE_TYPES, type NodeType } from '../catalog/nodeSpec';
import { rankNodes } from '../catalog/search/rankNodes';
import { serializeSpec } from '../catalog/serialize';
import type { Env } from '../env';
import type { WorkerRequest } from '../http/request';
import { HttpError } from '../protocol/httpError';
import { ErrorCode } from '../protocol/jsonrpc';

/**
 * The landing page's read-only JSON API: the caller's scopes, and the node catalog as the knowledge
 * tools serve it. Same credentials and scopes as MCP; errors are the same JSON-RPC error bodies.
 */

/** Like search_nodes' max_results. */
const MAX_RESULTS = 50;
const MAX_QUERY = 500;

const badRequest = (message: string) => new HttpError(400, ErrorCode.InvalidParams, message);

/** Answers depend on the credential (and /api/me is about it): never kept by a cache. */
const answer = (body: unknown) => Response.json(body, { headers: { 'Cache-Control': 'private, no-store' } });

/** GET /api/me: what the credential (or the public catalog) lets this caller do. */
export function me(request: WorkerRequest): Response {
  const { id, scopes } = principalOf(request);
  const credential =
    id === 'public' ? 'none (public catalog)' : id === 'anonymous' ? 'none (anonymous access)' : id.startsWith('grant_') ? 'OAuth token' : 'API key';
  return answer({ credential, scopes });
}

/**
 * GET /api/catalog/search?q=…&type=…&limit=…: nodes ranked as search_nodes ranks them (limit 1–50,
 * default 20), of one node type when `type` is given; with `type` and no `q`, the nodes of that type
 * by name (all of them unless `limit` is given).
 */
export async function searchCatalog(request: WorkerRequest, env: Env): Promise<Response> {
  const principal = principalOf(request);
  requireScope(request, principal, 'nodes:read');
  const params = new URL(request.url).searchParams;
  const query = (params.get('q') ?? '').trim();
  const type = nodeTypeParam(params.get('type'));
  const limitParam = params.get('limit');
  const limit = limitParam === null ? undefined : /^\d{1,2}$/.test(limitParam) ? Number(limitParam) : NaN;
  if (limit !== undefined && !(limit >= 1 && limit <= MAX_RESULTS)) throw badRequest(`limit must be an integer from 1 to ${MAX_RESULTS}`);
  if (query.length > MAX_QUERY) throw badRequest(`q is longer than ${MAX_QUERY} characters`);
  if (!query && !type) throw badRequest('Give a query (q), a node type (type), or both');
  // The same budget as search_nodes: the explorer is another way in to the same work.
  if (!(await withinLimit(env, env.SEARCH_LIMITER, principal.subject))) throw tooManyRequests('this caller is over its search rate limit');
  const results = query ? await rankNodes(env, query, limit ?? 20, type) : (await new Catalog(env.SPECS).searcher())?.ofType(type!).slice(0, limit);
  if (!results) throw noCatalog();
  return answer({ query, type: type ?? null, results });
}

/** GET /api/catalog/spec?type=…&subtype=…: one node's whole specification, examples included. */
export async function catalogSpec(request: WorkerRequest, env: Env): Promise<Response> {
  requireScope(request, principalOf(request), 'nodes:read');
  const params = new URL(request.url).searchParams;
  const type = nodeTypeParam(params.get('type'));
  const subtype = params.get('subtype');
  if (!type || !subtype) throw badRequest('Give the node type (type) and subtype (subtype)');
  const catalog = new Catalog(env.SPECS);
  const spec = await catalog.spec(type, subtype);
  if (!spec) {
    if ((await catalog.version()) === null) throw noCatalog();
    throw new HttpError(404, ErrorCode.InvalidParams, `No node ${type}/${subtype} in the catalog`);
  }
  return answer(serializeSpec(spec, { includeExamples: true, includeSchemas: false, detail: 'full' }));
}

function nodeTypeParam(value: string | null): NodeType | undefined {
  if (!value) return undefined;
  if (!(NODE_TYPES as readonly string[]).includes(value)) throw badRequest(`Unknown node type ${JSON.stringify(value)}; known: ${NODE_TYPES.join(', ')}`);
  return value as NodeType;
}

const noCatalog = () =>
  new HttpError(503, ErrorCode.InternalError, 'No node catalog is loaded on this server', { 'Retry-After': String(RATE_LIMIT_PERIOD_SECONDS) });
