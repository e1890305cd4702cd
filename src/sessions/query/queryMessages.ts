import type { InitializeResult, JSONRPCRequest, JSONRPCResponse, Tool } from '@modelcontextprotocol/server';
import type { SseEvent } from '../../http/sse';
import { HttpError } from '../../protocol/httpError';
import { jsonRpcError } from '../../protocol/jsonrpc';
import { ErrorCode, type JsonRpcErrorResponse, type RequestId } from '../../protocol/jsonrpc';
import { assertJsonDepth } from '../../protocol/jsonDepth';
import { parseRequest } from '../../protocol/messages';
import type { QueryTransport } from './QueryTransport';

/** Longest query string accepted in /mcp/sse query mode (params travel URL-encoded in it). */
const MAX_QUERY_BYTES = 64 * 1024;

/**
 * Rebuilds the JSON-RPC request that seed 004's query mode spreads over `jsonrpc`, `method`, `id`
 * and URL-encoded JSON `params`. Throws HttpError with the JSON-RPC code that fits.
 */
export function parseQueryRequest(url: URL): JSONRPCRequest {
  if (url.search.length > MAX_QUERY_BYTES) {
    throw new HttpError(414, ErrorCode.InvalidRequest, `Invalid Request: query longer than ${MAX_QUERY_BYTES} bytes`);
  }
  const q = url.searchParams;
  const rawId = q.get('id');
  const id: RequestId | null = rawId === null ? null : /^-?\d{1,15}$/.test(rawId) ? Number(rawId) : rawId;
  let params: unknown;
  const rawParams = q.get('params');
  if (rawParams !== null && rawParams !== '') {
    assertJsonDepth(rawParams, '"params"', id);
    try {
      params = JSON.parse(rawParams);
    } catch {
      throw new HttpError(400, ErrorCode.ParseError, 'Parse error: "params" is not valid JSON', {}, id);
    }
  }
  // An empty `method=` names no method.
  const method = q.get('method') || undefined;
  return parseRequest({
    jsonrpc: q.get('jsonrpc') ?? '2.0',
    ...(id === null ? {} : { id }),
    ...(method === undefined ? {} : { method }),
    ...(params === undefined ? {} : { params }),
  });
}

/**
 * Serves one query-mode request on a freshly initialized server. Besides the standard methods it
 * understands seed 004's `mcp/getServerCapabilities` and `mcp/executeTool` (`toolId`, `inputs` → `outputs`).
 */
export async function serveQueryRequest(
  transport: QueryTransport,
  request: JSONRPCRequest,
  initialized: InitializeResult,
): Promise<JSONRPCResponse | JsonRpcErrorResponse> {
  const { id } = request;
  switch (request.method) {
    case 'mcp/getServerCapabilities': {
      const listed = await transport.request({ jsonrpc: '2.0', id, method: 'tools/list' });
      if (!('result' in listed)) return listed as JsonRpcErrorResponse;
      const tools = (listed.result.tools as Tool[]).map((t) => ({ toolId: t.name, ...t }));
      const { protocolVersion, capabilities, serverInfo } = initialized;
      return { jsonrpc: '2.0', id, result: { protocolVersion, capabilities, serverInfo, tools } };
    }
    case 'mcp/executeTool': {
      const { toolId, inputs } = request.params ?? {};
      if (typeof toolId !== 'string') return jsonRpcError(id, ErrorCode.InvalidParams, 'Invalid params: "toolId" must be a string');
      const called = await transport.request({
        jsonrpc: '2.0',
        id,
        method: 'tools/call',
        params: { name: toolId, arguments: inputs ?? {} },
      });
      return queryReply(request, called);
    }
    default:
      return transport.request(request);
  }
}

/**
 * The answer to a query-mode tools/call or mcp/executeTool, from the tools/call response; the latter
 * in seed 004's shape (`outputs`, or an error naming the tool). Also used for a queued call's answer
 * that reaches the object after it slept.
 */
export function queryReply(request: JSONRPCRequest, called: JSONRPCResponse): JSONRPCResponse | JsonRpcErrorResponse {
  if (request.method !== 'mcp/executeTool' || !('result' in called)) return called;
  const { id } = request;
  const toolId = String(request.params?.toolId);
  const result = called.result as { content?: { type: string; text?: string }[]; structuredContent?: unknown; isError?: boolean };
  const text = (result.content ?? []).flatMap((c) => (c.type === 'text' && c.text !== undefined ? [c.text] : [])).join('\n');
  if (result.isError) return jsonRpcError(id, ErrorCode.ToolFailed, text || `Tool ${toolId} failed`, { content: result.content });
  return { jsonrpc: '2.0', id, result: { outputs: result.structuredContent ?? parseOrText(text), content: result.content } };
}

/** The one event a query-mode stream carries. */
export const queryResponseEvent = (reply: unknown, id: RequestId | null): SseEvent => ({
  event: 'mcpResponse',
  data: JSON.stringify(reply),
  ...(id === null ? {} : { id: String(id) }),
});

/** The tag of a query-mode object's one socket, for an answer that waits on a queued call. */
export const QUERY_STREAM_ID = 'query';

/** What the object's `serveQuery` answers when the query waits on a queued call: the Worker then opens that socket. */
export const PARKED = 'parked';

function parseOrText(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return { text };
  }
}
