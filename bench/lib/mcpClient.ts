/**
 * The one client every server in the benchmark sees: raw Streamable HTTP POSTs, bodies read to the
 * end (JSON or SSE alike), so no SDK client overhead is counted against any server. Every answer is
 * parsed and checked, so a server that answers fast with an error cannot look good.
 */
import { parseSse } from '../../scripts/lib/sseFrame.ts';

const HEADERS = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
const PROTOCOL_VERSION = '2025-06-18';

interface JsonRpcMessage {
  id?: unknown;
  result?: Record<string, unknown>;
  error?: unknown;
}

export interface Session {
  /** One request; resolves once its body is read and exactly one result for `id` came back. */
  request(id: number, method: string, params?: unknown): Promise<JsonRpcMessage>;
  /** tools/call of server_info, its structured result checked. */
  call(id: number): Promise<void>;
}

/** A server's MCP endpoint, and the API key it wants (this project's; the references want none). */
export interface Target {
  url: string;
  apiKey?: string;
  /** "modern": MCP 2026-07-28, no session; every request carries its envelope and routing headers. */
  era?: 'legacy' | 'modern';
}

const MODERN_VERSION = '2026-07-28';
const MODERN_META = {
  'io.modelcontextprotocol/protocolVersion': MODERN_VERSION,
  'io.modelcontextprotocol/clientInfo': { name: 'bench', version: '1' },
  'io.modelcontextprotocol/clientCapabilities': {},
};

async function post({ url, apiKey }: Target, body: unknown, sessionId?: string): Promise<Response> {
  const headers: Record<string, string> = { ...HEADERS, 'mcp-protocol-version': PROTOCOL_VERSION };
  if (apiKey) headers.authorization = `Bearer ${apiKey}`;
  if (sessionId) headers['mcp-session-id'] = sessionId;
  return fetch(url, { method: 'POST', headers, body: JSON.stringify(body) });
}

/** A 2026-07-28 request: the envelope in `_meta`, mirrored in MCP-Protocol-Version, Mcp-Method and Mcp-Name. */
async function postModern({ url, apiKey }: Target, body: { method: string; params?: Record<string, unknown> }): Promise<Response> {
  const headers: Record<string, string> = { ...HEADERS, 'mcp-protocol-version': MODERN_VERSION, 'mcp-method': body.method };
  const name = body.params?.name ?? body.params?.uri;
  if (typeof name === 'string') headers['mcp-name'] = name;
  if (apiKey) headers.authorization = `Bearer ${apiKey}`;
  const params = { ...body.params, _meta: MODERN_META };
  return fetch(url, { method: 'POST', headers, body: JSON.stringify({ jsonrpc: '2.0', ...body, params }) });
}

async function expectOk(response: Response, what: string): Promise<string> {
  const text = await response.text();
  if (!response.ok) throw new Error(`${what}: HTTP ${response.status} ${text.slice(0, 200)}`);
  return text;
}

/** The JSON-RPC messages in a body: SSE `data:` events, or a JSON message or batch. */
function messagesIn(text: string, contentType: string): JsonRpcMessage[] {
  if (contentType.startsWith('text/event-stream')) {
    return parseSse(text).flatMap((event) => (event.data ? [JSON.parse(event.data) as JsonRpcMessage] : []));
  }
  const parsed = JSON.parse(text) as JsonRpcMessage | JsonRpcMessage[];
  return Array.isArray(parsed) ? parsed : [parsed];
}

/** initialize + notifications/initialized, as a 2025-era client does; a 2026-07-28 client has nothing to open. */
export async function openSession(target: Target): Promise<Session> {
  if (target.era === 'modern') return session((body) => postModern(target, body));
  const init = await post(target, {
    jsonrpc: '2.0',
    id: 0,
    method: 'initialize',
    params: { protocolVersion: PROTOCOL_VERSION, capabilities: {}, clientInfo: { name: 'bench', version: '1' } },
  });
  await expectOk(init, 'initialize');
  const sessionId = init.headers.get('mcp-session-id') ?? undefined;
  await expectOk(await post(target, { jsonrpc: '2.0', method: 'notifications/initialized' }, sessionId), 'initialized');
  return session((body) => post(target, { jsonrpc: '2.0', ...body }, sessionId));
}

type Send = (body: { id: number; method: string; params?: Record<string, unknown> }) => Promise<Response>;

function session(send: Send): Session {
  const request = async (id: number, method: string, params?: unknown) => {
    const response = await send({ id, method, ...(params === undefined ? {} : { params: params as Record<string, unknown> }) });
    const text = await expectOk(response, method);
    // Exactly one answer for this request id: none is lost, none comes twice.
    const answers = messagesIn(text, response.headers.get('content-type') ?? '').filter((m) => m.id === id);
    if (answers.length !== 1 || !answers[0]!.result) throw new Error(`${method} ${id}: ${answers.length} answers in ${text.slice(0, 200)}`);
    return answers[0]!;
  };

  return {
    request,
    async call(id) {
      const { result } = await request(id, 'tools/call', { name: 'server_info', arguments: {} });
      const info = result!.structuredContent as Record<string, unknown> | undefined;
      const ok =
        result!.isError !== true &&
        typeof info?.name === 'string' &&
        typeof info.version === 'string' &&
        Array.isArray(info.transports) &&
        Array.isArray(info.protocolVersions);
      if (!ok) throw new Error(`tools/call ${id}: not a server_info result: ${JSON.stringify(result).slice(0, 200)}`);
    },
  };
}
