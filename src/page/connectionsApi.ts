import { z } from 'zod';
import { requireScope } from '../auth/authenticate';
import { tooManyRequests, withinLimit } from '../auth/rateLimit';
import { allows, missingScopes } from '../auth/scopes';
import type { Env } from '../env';
import { readJsonBody } from '../http/body';
import { principalOf, type WorkerRequest } from '../http/request';
import { n8nConnection, servesWorkspaces } from '../n8n/client';
import type { Principal } from '../principal';
import { HttpError } from '../protocol/httpError';
import { ErrorCode } from '../protocol/jsonrpc';
import { toolsFor } from '../server/registry';
import { DEPLOYMENT_INSTANCE, ringOf } from '../workspaces/connectionFor';
import { urlPolicyOf } from '../workspaces/connectionUrl';
import {
  connectionNameProblem,
  listConnections,
  removeConnection,
  MAX_N8N_KEY,
  saveConnection,
  testNewConnection,
  type ConnectionSummary,
} from '../workspaces/connections';
import { defaultConnectionOf, workspaceOf, type WorkspaceRecord } from '../workspaces/workspaces';

/**
 * The landing page's JSON API for a workspace's n8n connections (issue 41): list them, test one, add
 * or replace one, remove one. Same credentials as MCP; changing them needs `instances:write` and a
 * workspace (a caller without one acts on the deployment's own n8n, which the operator's secrets set).
 * A connection's n8n API key goes in and never comes out: not in an answer, an error or a log line.
 * Tests and saves call out to a URL the caller chose, so they are counted like sign-in attempts
 * (SIGN_IN_LIMITER), per caller.
 */

/** `{ name, url, apiKey }` is a few hundred bytes; a body past this is not one. */
const MAX_BODY = 8 * 1024;

/** What the page shows of a connection: never its key. */
interface InstanceView {
  name: string;
  /** Its address (the editor opens there); null for a deployment whose own n8n is not configured. */
  url: string | null;
  /** The n8n release its last test read. */
  release: string | null;
  /** When its test last passed (ISO 8601). */
  testedAt: string | null;
  /** The one n8n tools act on when a call names none. */
  default: boolean;
  /** Whether it can be used: false only for the deployment's own n8n when the operator set none. */
  configured: boolean;
}

const answer = (body: unknown, status = 200) => Response.json(body, { status, headers: { 'Cache-Control': 'private, no-store' } });

/** A refusal naming the fix, in the JSON-RPC error body every /api route answers with. */
const problem = (message: string) => new HttpError(422, ErrorCode.InvalidParams, message);

const nameOf = (c: { name: string }) => c.name;

const view = (c: ConnectionSummary, fallback: string | undefined): InstanceView => ({
  name: c.name,
  url: c.base,
  release: c.release,
  testedAt: new Date(c.testedAt).toISOString(),
  default: c.name === fallback,
  configured: true,
});

/** The tools of this deployment the caller's scopes allow (what tools/list shows it). */
const liveTools = (env: Env, caller: Principal): string[] =>
  toolsFor(env)
    .filter((tool) => missingScopes(tool, caller.scopes).length === 0)
    .map((tool) => tool.name);

/**
 * GET /api/instances: the n8n the caller's tools act on (its workspace's connections, or the
 * deployment's own as "default"), whether it may change them, and the tools live for it.
 */
export async function instances(request: WorkerRequest, env: Env): Promise<Response> {
  const caller = principalOf(request);
  const common = { workspaces: servesWorkspaces(env), tools: liveTools(env, caller) };
  if (caller.workspace === undefined) {
    const own = n8nConnection(env);
    const deployment: InstanceView = {
      name: DEPLOYMENT_INSTANCE,
      url: own ? own.apiBase.replace(/\/api\/v1$/, '') : null,
      release: null,
      testedAt: null,
      default: true,
      configured: own !== undefined,
    };
    return answer({ workspace: null, canManage: false, instances: [deployment], ...common });
  }
  const workspace = await standingWorkspace(env, caller.workspace);
  const connections = (await listConnections(env.API_KEYS, workspace.id)).sort((a, b) => a.name.localeCompare(b.name));
  const fallback = defaultConnectionOf(workspace, connections.map(nameOf));
  return answer({
    workspace: workspace.name,
    canManage: common.workspaces && allows(caller.scopes, 'instances:write'),
    instances: connections.map((c) => view(c, fallback)),
    ...common,
  });
}

/** POST /api/instances `{ name, url, apiKey }`: tests the connection and, once it passed, saves it (a new one, or in place of the one of that name). */
export async function addInstance(request: WorkerRequest, env: Env): Promise<Response> {
  const { workspace } = await managingCaller(request, env);
  const given = await bodyOf(request, SaveBody, 'name, url and apiKey');
  const result = await saveConnection(env.API_KEYS, await ringOf(env), { workspace: workspace.id, ...given }, urlPolicyOf(env, request.url));
  if ('problem' in result) throw problem(result.problem);
  // KV lists are eventually consistent: the one just written counts whether or not the list has it yet.
  const names = new Set([...(await listConnections(env.API_KEYS, workspace.id)).map(nameOf), result.saved.name]);
  return answer({ saved: view(result.saved, defaultConnectionOf(workspace, [...names])) });
}

/** POST /api/instances/test `{ url, apiKey }`: the test a save runs, and nothing stored. */
export async function testInstance(request: WorkerRequest, env: Env): Promise<Response> {
  await managingCaller(request, env);
  const given = await bodyOf(request, TestBody, 'url and apiKey');
  const tested = await testNewConnection(given, urlPolicyOf(env, request.url));
  if ('problem' in tested) throw problem(tested.problem);
  return answer({ ok: true, url: tested.base, release: tested.release });
}

/** DELETE /api/instances/<name>: removes one of the caller's workspace's connections. */
export async function removeInstance(request: WorkerRequest, env: Env): Promise<Response> {
  const { workspace } = await managingCaller(request, env);
  const name = String(request.params.name ?? '');
  const nameProblem = connectionNameProblem(name);
  if (nameProblem) throw new HttpError(400, ErrorCode.InvalidParams, nameProblem);
  if (!(await removeConnection(env.API_KEYS, workspace.id, name)))
    throw new HttpError(404, ErrorCode.InvalidParams, `This workspace has no n8n connection "${name}"`);
  return answer({ removed: name });
}

/** The workspace whose connections the caller may change, the change counted against the caller's limit of them. */
async function managingCaller(request: WorkerRequest, env: Env): Promise<{ workspace: WorkspaceRecord }> {
  const caller = principalOf(request);
  requireScope(request, caller, 'instances:write');
  if (!servesWorkspaces(env))
    throw new HttpError(
      409,
      ErrorCode.InvalidRequest,
      'Workspaces are off on this server, so it keeps no n8n connections: its operator turns them on by setting the CONNECTION_KEYS secret (npm run keys -- secret)',
    );
  if (caller.workspace === undefined)
    throw new HttpError(
      403,
      ErrorCode.InvalidRequest,
      "Forbidden: this credential belongs to no workspace; it acts on this server's own n8n, which the operator sets with the N8N_API_URL and N8N_API_KEY secrets",
    );
  const workspace = await standingWorkspace(env, caller.workspace);
  // Each test calls out to an address the caller chose: as few as sign-in attempts.
  if (!(await withinLimit(env, env.SIGN_IN_LIMITER, `instances:${caller.subject}`)))
    throw tooManyRequests('this credential is over its limit of n8n connection tests and changes');
  return { workspace };
}

async function standingWorkspace(env: Env, id: string): Promise<WorkspaceRecord> {
  const workspace = await workspaceOf(env, id);
  if (!workspace) throw new HttpError(403, ErrorCode.InvalidRequest, "Forbidden: this credential's workspace was removed");
  return workspace;
}

const SaveBody = z.object({ name: z.string().max(100), url: z.string().max(2048), apiKey: z.string().max(MAX_N8N_KEY * 2) });
const TestBody = SaveBody.omit({ name: true });

/**
 * The JSON body, a few KB at most, as `schema` wants it. A refusal names the fields, never what was in
 * them (the n8n key is one).
 */
async function bodyOf<T>(request: WorkerRequest, schema: z.ZodType<T>, fields: string): Promise<T> {
  const text = await readJsonBody(request, MAX_BODY);
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new HttpError(400, ErrorCode.ParseError, 'Parse error: the body is not JSON');
  }
  const parsed = schema.safeParse(json);
  if (parsed.success) return parsed.data;
  const wrong = [...new Set(parsed.error.issues.map((issue) => issue.path.join('.') || 'the body'))];
  throw new HttpError(400, ErrorCode.InvalidParams, `Give ${fields} as strings (wrong or missing: ${wrong.join(', ')})`);
}
