import type { Env } from '../env';
import { ToolError, TransientError } from '../lib/errors';

/** The n8n release whose public API (OpenAPI) these tools follow and are tested against. */
export const N8N_API_VERSION = '2.41.3';

/**
 * The longest URL sent to n8n: its server takes 16 KB of request line and headers, and the runtime
 * fails a longer fetch as "Network connection lost", which would read as n8n being down.
 */
const MAX_URL_LENGTH = 8_192;

/** A request whose URL a caller's value made too long: said with the value to shorten. */
function tooLong(url: URL): ToolError {
  const [name, value] = [...url.searchParams].reduce((a, b) => (b[1].length > a[1].length ? b : a), ['', '']);
  const culprit = value.length > url.pathname.length ? `the ${name} filter (${value.length.toLocaleString('en-US')} characters)` : 'the id in its path';
  return new ToolError(
    `The request to n8n would have a ${url.href.length.toLocaleString('en-US')}-character URL, past the ${MAX_URL_LENGTH.toLocaleString('en-US')} n8n takes: shorten ${culprit}. Nothing was sent.`,
  );
}

/** One request to n8n may take this long; the call's own deadline (the signal) may cut it shorter. */
const REQUEST_TIMEOUT_MS = 30_000;

/**
 * The most of one n8n answer this server reads: a Worker has 128 MB, and an answer is held as text
 * (1 to 2 bytes a character) and then as the objects it parses into (1.3 to 1.7 times its bytes,
 * measured on execution data: bench/answerSizes.ts), so 16 MiB takes about 40 to 60 MB at once.
 */
const MAX_ANSWER_BYTES = 16 * 1024 * 1024;

/** n8n answered more than this server reads at once: the same request would again, so it is the caller's to ask for less. */
export class N8nAnswerTooLarge extends ToolError {
  override name = 'N8nAnswerTooLarge';
  constructor(where: string) {
    super(
      `n8n's answer to ${where} is more than the ${MAX_ANSWER_BYTES / 1024 / 1024} MiB this server reads at once (a Worker has 128 MB of memory): ask for less (a smaller limit, no includeData).`,
    );
  }
}

/** The answer's text, read up to MAX_ANSWER_BYTES (what n8n says it sends, and what it sends). */
async function textOf(response: Response, where: string): Promise<string> {
  if (Number(response.headers.get('content-length') ?? 0) > MAX_ANSWER_BYTES) {
    await response.body?.cancel();
    throw new N8nAnswerTooLarge(where);
  }
  if (!response.body) return '';
  const reader = response.body.getReader();
  const decoder = new TextDecoder();
  let text = '';
  let bytes = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return text + decoder.decode();
    bytes += value.byteLength;
    if (bytes > MAX_ANSWER_BYTES) {
      await reader.cancel();
      throw new N8nAnswerTooLarge(where);
    }
    text += decoder.decode(value, { stream: true });
  }
}

export interface N8nConnection {
  /** `https://n8n.example.com/api/v1`, whatever form N8N_API_URL was given in. */
  apiBase: string;
  apiKey: string;
  /** A workspace's connection (src/workspaces/): which one, for its history and its errors; absent for the deployment's own. */
  instance?: { workspace: string; name: string; id: string };
}

/** The deployment's n8n, from the N8N_API_URL and N8N_API_KEY secrets; undefined when either is missing. */
export function n8nConnection(env: Env): N8nConnection | undefined {
  const url = env.N8N_API_URL?.trim();
  const apiKey = env.N8N_API_KEY?.trim();
  if (!url || !apiKey) return undefined;
  // Accept the instance URL, or the API URL with or without a trailing slash.
  const base = url.replace(/\/+$/, '').replace(/\/api\/v1$/, '');
  return { apiBase: `${base}/api/v1`, apiKey };
}

/** Workspaces are on (CONNECTION_KEYS set): each caller may bring its own n8n (src/workspaces/). */
export const servesWorkspaces = (env: Env): boolean => Boolean(env.CONNECTION_KEYS?.trim());

/** Whether this deployment drives n8n at all: its own (N8N_API_URL and N8N_API_KEY), or its workspaces'. */
export const drivesN8n = (env: Env): boolean => n8nConnection(env) !== undefined || servesWorkspaces(env);

type Query = Record<string, string | number | boolean | undefined>;

export interface N8nRequest {
  query?: Query;
  body?: unknown;
}

/**
 * n8n refused the request (4xx): a ToolError, so the agent reads it as the call's result; the same
 * request would be refused again, so the queue does not retry it.
 */
export class N8nApiError extends ToolError {
  override name = 'N8nApiError';
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

/** The node gate refused a request (src/tools/n8n/nodeGate.ts): it was not sent, and changed nothing. */
export class GateRefusal extends ToolError {
  override name = 'GateRefusal';
}

/** n8n could not be reached, failed (5xx), was too busy (429) or too slow: it may pass (TransientError). */
class N8nUnavailableError extends TransientError {
  override name = 'N8nUnavailableError';
}

/** A request that puts nodes into n8n or runs them: what the gate sees before it is sent. */
export type GatedRequest =
  | { kind: 'create'; workflow: unknown }
  | { kind: 'replace'; id: string; workflow: unknown }
  | { kind: 'activate'; id: string; versionId?: string }
  | { kind: 'run'; id: string };

/**
 * What a client asks before every request that puts nodes into n8n or runs them (src/tools/n8n/nodeGate.ts):
 * the client cannot be made without one, so no tool can send such a request around it.
 */
export interface WorkflowGate {
  /** Each workflow the call reads from n8n, in order (the first read of each is what the call found). */
  read(workflow: unknown): void;
  /** Throws a ToolError naming what is refused; `n8n` reads what the check needs. */
  check(request: GatedRequest, n8n: N8nClient): Promise<void>;
}

/** Requests that change n8n without putting a node into it or running one: everything else that is not a GET is gated, or not sent. */
const UNGATED_CHANGES = [
  /^DELETE \/workflows\/[^/]+$/,
  /^POST \/workflows\/[^/]+\/deactivate$/,
  /^PUT \/workflows\/[^/]+\/tags$/,
  /^DELETE \/executions\/[^/]+$/,
  /^(?:POST|PUT|PATCH|DELETE) \/(?:tags|credentials|users|variables|projects|audit)(?:\/|$)/,
];

/** What the gate is to see of a request: its kind, or null for a read or an ungated change; throws for a change it does not know. */
function gatedRequest(method: string, path: string, body: unknown): GatedRequest | null {
  if (method === 'GET' || UNGATED_CHANGES.some((pattern) => pattern.test(`${method} ${path}`))) return null;
  if (method === 'POST' && path === '/workflows') return { kind: 'create', workflow: body };
  const [, id, action] = /^\/workflows\/([^/]+)(?:\/(activate))?$/.exec(path) ?? [];
  if (id !== undefined) {
    const workflowId = decodeURIComponent(id);
    if (method === 'PUT' && action === undefined) return { kind: 'replace', id: workflowId, workflow: body };
    if (method === 'POST' && action === 'activate') {
      const versionId = isObject(body) && typeof body.versionId === 'string' ? body.versionId : undefined;
      return { kind: 'activate', id: workflowId, ...(versionId ? { versionId } : {}) };
    }
  }
  // A request this client has never been taught is not sent: it could put nodes into n8n or run them.
  throw new Error(`${method} ${path} is not a request the n8n client knows to be safe from the node gate: not sent`);
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** n8n's public REST API (`/api/v1`, `X-N8N-API-KEY`), as the n8n tools use it. */
export class N8nClient {
  private changing: Promise<void> | undefined;

  /**
   * `gate` sees every request that puts nodes into n8n or runs them before it is sent; `signal` bounds
   * every request; `beforeChange`, when given, runs once before the first request that is not a GET
   * (ToolContext.beginSideEffect), and the request waits for it.
   */
  constructor(
    readonly connection: N8nConnection,
    private readonly gate: WorkflowGate,
    private readonly signal?: AbortSignal,
    private readonly beforeChange?: () => Promise<void>,
  ) {}

  /** The same client under another signal (clean-up that must outlive the call's own). */
  withSignal(signal: AbortSignal): N8nClient {
    return new N8nClient(this.connection, this.gate, signal, this.beforeChange);
  }

  /**
   * Calls a workflow's trigger (its webhook, form or chat URL, on n8n's origin) once the gate has seen
   * the run: what runs is the workflow's nodes. A redirect is answered, not followed.
   */
  async trigger(workflowId: string, url: URL, init: RequestInit): Promise<Response> {
    if (url.origin !== new URL(this.connection.apiBase).origin) throw new Error(`${url.origin} is not the n8n this server drives: not called`);
    await this.gate.check({ kind: 'run', id: workflowId }, this);
    if (this.beforeChange) await (this.changing ??= this.beforeChange());
    return fetch(url, { ...init, redirect: 'manual' });
  }

  get<T>(path: string, request?: N8nRequest) {
    return this.request<T>('GET', path, request);
  }
  post<T>(path: string, request?: N8nRequest) {
    return this.request<T>('POST', path, request);
  }
  put<T>(path: string, request?: N8nRequest) {
    return this.request<T>('PUT', path, request);
  }
  delete<T>(path: string, request?: N8nRequest) {
    return this.request<T>('DELETE', path, request);
  }

  async request<T>(method: string, path: string, { query, body }: N8nRequest = {}): Promise<T> {
    const url = new URL(this.connection.apiBase + path);
    // The tools check ids before they build a path; this is the last line: a path the URL parser
    // resolves elsewhere (a "." or ".." segment) is never sent with the API key.
    if (url.pathname !== new URL(this.connection.apiBase).pathname + path) throw new Error(`n8n path ${path} resolves to ${url.pathname}: not sent`);
    for (const [name, value] of Object.entries(query ?? {})) if (value !== undefined) url.searchParams.set(name, String(value));
    if (url.href.length > MAX_URL_LENGTH) throw tooLong(url);
    const gated = gatedRequest(method, path, body);
    if (gated) await this.gate.check(gated, this);
    if (method !== 'GET' && this.beforeChange) await (this.changing ??= this.beforeChange());
    // A timer cleared once the answer is read: an isolate holds one per request in flight, not one per
    // request of the last 30 s (workerd allows 10,000 at a time).
    const timeout = new AbortController();
    const timer = setTimeout(() => timeout.abort(), REQUEST_TIMEOUT_MS);
    let response: Response;
    let text: string;
    try {
      response = await fetch(url, {
        method,
        headers: {
          'x-n8n-api-key': this.connection.apiKey,
          accept: 'application/json',
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
        signal: this.signal ? AbortSignal.any([this.signal, timeout.signal]) : timeout.signal,
        // The key goes only to the address it was given for: n8n's API never redirects, a proxy in front may.
        redirect: 'manual',
      });
      text = await textOf(response, `${method} ${url.pathname}`);
    } catch (error) {
      if (error instanceof N8nAnswerTooLarge) throw error;
      // The URL, never the key: secrets stay out of messages and logs.
      if (timeout.signal.aborted) throw new N8nUnavailableError(`n8n did not answer ${method} ${url.pathname} within ${REQUEST_TIMEOUT_MS / 1000} s`);
      throw new N8nUnavailableError(`Could not reach n8n at ${url.origin}: ${String(error)}`);
    } finally {
      clearTimeout(timer);
    }
    if (!response.ok) throw errorFor(response.status, method, url.pathname, text, this.connection);
    if (!text) return undefined as T;
    let answer: T;
    try {
      answer = JSON.parse(text) as T;
    } catch {
      throw new Error(`n8n answered ${method} ${url.pathname} with something that is not JSON`);
    }
    if (method === 'GET' && /^\/workflows\/[^/]+$/.test(path)) this.gate.read(answer);
    return answer;
  }
}

/** n8n's error bodies are `{ message }` (sometimes `{ code, message, hint }`); anything else is shown briefly. */
function messageOf(text: string): string | undefined {
  try {
    const body = JSON.parse(text) as { message?: unknown; hint?: unknown };
    if (typeof body.message === 'string') return typeof body.hint === 'string' ? `${body.message} (${body.hint})` : body.message;
  } catch {
    // not JSON: an HTML error page, a proxy's answer
  }
  return undefined;
}

/** Where the key or address of this connection is set: what an error about either names. */
const whereSet = (connection: N8nConnection): string =>
  connection.instance
    ? `the key of the connection "${connection.instance.name}" (replace it on this server's landing page, or npm run keys -- connection add)`
    : 'the N8N_API_KEY secret';

function errorFor(status: number, method: string, path: string, text: string, connection: N8nConnection): Error {
  const said = messageOf(text);
  const detail = said ? `: ${said}` : '';
  const where = `${method} ${path}`;
  if (status >= 300 && status < 400)
    return new N8nApiError(
      status,
      `n8n's address redirects ${where} (${status}); the API key is not sent after a redirect: set the address n8n answers at itself${connection.instance ? ` for the connection "${connection.instance.name}"` : ' as N8N_API_URL'}.`,
    );
  if (status >= 500) return new N8nUnavailableError(`n8n failed on ${where} (${status})${detail}`);
  if (status === 429) return new N8nUnavailableError(`n8n is too busy for ${where} (429)${detail}`);
  if (status === 401) return new N8nApiError(status, `n8n rejected the API key (401)${detail}. Check ${whereSet(connection)}.`);
  if (status === 403) {
    const license = /licen[cs]e|plan|enterprise/i.test(said ?? '');
    return new N8nApiError(
      status,
      license
        ? `This n8n instance's plan does not include this feature (403)${detail}`
        : `n8n refused ${where} (403)${detail}. The API key may lack the scope for it, or the n8n license the feature.`,
    );
  }
  // A missing endpoint answers 405, or 404 without n8n's JSON body (Express's own page): an older n8n.
  if (status === 405 || (status === 404 && !said)) {
    return new N8nApiError(
      status,
      `This n8n does not have ${where} (${status}): it needs a newer n8n (these tools follow the public API of n8n ${N8N_API_VERSION}).`,
    );
  }
  if (status === 404) return new N8nApiError(status, `Not found (404)${detail}`);
  return new N8nApiError(status, `n8n refused ${where} (${status})${detail}`);
}
