import { HttpError } from '../http/errors';
import { assertJsonDepth } from './jsonDepth';
import { assertValidParams } from './methodParams';
import {
  ErrorCode,
  JsonRpcMessageSchema,
  isRequest,
  RequestIdSchema,
  type JsonRpcMessage,
  type JsonRpcRequest,
  type RequestId,
} from './jsonrpc';

/** What a tools/call request asks for (seed 001's McpToolCallInfo). */
export interface McpToolCallInfo {
  toolName: string;
  arguments: Record<string, unknown>;
}

/** Most messages in one batch, on every route: the SDK's own cap on /mcp (MAX_BATCH_SIZE). */
export const MAX_BATCH_MESSAGES = 100;

/** A validated body: one message, or a JSON-RPC batch (allowed by protocol 2025-03-26). */
export interface ParsedBody {
  messages: JsonRpcMessage[];
  batch: boolean;
}

/**
 * Parses and validates a raw body. Throws HttpError(400, …) with -32700 for bad JSON, -32600 for
 * anything that is not a JSON-RPC 2.0 message or batch of them, -32602 for a known method's bad params.
 */
export function parse(body: string): ParsedBody {
  const parsed = parseMessages(parseJson(body));
  assertValidRequestParams(parsed.messages);
  return parsed;
}

/** JSON.parse, failing with the JSON-RPC parse error (-32700, HTTP 400); nesting past MAX_JSON_DEPTH is refused first. */
export function parseJson(body: string): unknown {
  assertJsonDepth(body, 'the body');
  try {
    return JSON.parse(body);
  } catch {
    throw new HttpError(400, ErrorCode.ParseError, 'Parse error: body is not valid JSON');
  }
}

/**
 * Checks that a parsed body is one JSON-RPC 2.0 message or a batch of at most MAX_BATCH_MESSAGES of
 * them (-32600 otherwise). What their params must hold depends on the protocol era, so that is checked
 * apart (assertValidRequestParams).
 */
export function parseMessages(value: unknown): ParsedBody {
  const batch = Array.isArray(value);
  const items: unknown[] = batch ? (value as unknown[]) : [value];
  if (items.length === 0) throw invalid('an empty batch');
  if (items.length > MAX_BATCH_MESSAGES) throw invalid(`a batch of ${items.length} messages; the limit is ${MAX_BATCH_MESSAGES}`);
  const messages = items.map((item, i) => {
    const result = JsonRpcMessageSchema.safeParse(item);
    if (!result.success) throw invalid(describe(item, batch ? i : undefined), idOf(item));
    return result.data;
  });
  return { messages, batch };
}

/** The 2025-era params rules of known methods (-32602 for the first request that breaks them). */
export function assertValidRequestParams(messages: JsonRpcMessage[]): void {
  for (const message of messages) if (isRequest(message)) assertValidParams(message);
}

function invalid(what: string, id: RequestId | null = null): HttpError {
  return new HttpError(400, ErrorCode.InvalidRequest, `Invalid Request: ${what}`, {}, id);
}

function describe(item: unknown, index?: number): string {
  const where = index === undefined ? '' : ` (batch item ${index})`;
  if (typeof item !== 'object' || item === null || Array.isArray(item)) {
    return `expected a JSON-RPC object, got ${item === null ? 'null' : Array.isArray(item) ? 'an array' : typeof item}${where}`;
  }
  const o = item as Record<string, unknown>;
  if (o.jsonrpc !== '2.0') return `"jsonrpc" must be "2.0"${where}`;
  if (!('method' in o) && !('result' in o) && !('error' in o)) return `missing "method"${where}`;
  if ('method' in o && (typeof o.method !== 'string' || o.method === '')) return `"method" must be a non-empty string${where}`;
  if ('id' in o && idOf(o) === null) return `"id" must be a string or a safe integer${where}`;
  if ('params' in o) return `"params" must be an object${where}`;
  return `not a JSON-RPC 2.0 request, notification or response${where}`;
}

/** The id to answer an invalid message with: its own when it is one we accept (no unsafe integers), else null. */
function idOf(item: unknown): RequestId | null {
  const parsed = RequestIdSchema.safeParse((item as { id?: unknown } | null)?.id);
  return parsed.success ? parsed.data : null;
}

export const isToolCall = (m: JsonRpcMessage): m is JsonRpcRequest => isRequest(m) && m.method === 'tools/call';

export const isListToolsRequest = (m: JsonRpcMessage): m is JsonRpcRequest =>
  isRequest(m) && m.method === 'tools/list';

export const isInitializeRequest = (m: JsonRpcMessage): m is JsonRpcRequest =>
  isRequest(m) && m.method === 'initialize';

export const getRequestId = (m: JsonRpcMessage): RequestId | undefined =>
  'id' in m && (typeof m.id === 'string' || typeof m.id === 'number') ? m.id : undefined;

/** Tool name and arguments of a tools/call request, or undefined when it is not one or is malformed. */
export function extractToolCallInfo(m: JsonRpcMessage): McpToolCallInfo | undefined {
  if (!isToolCall(m)) return undefined;
  const { name, arguments: args } = m.params ?? {};
  if (typeof name !== 'string') return undefined;
  const plain = typeof args === 'object' && args !== null && !Array.isArray(args);
  return { toolName: name, arguments: plain ? (args as Record<string, unknown>) : {} };
}

/** For the log line: the methods of a body and the tool it calls, bounded in length; never arguments. */
export function describeMessages(messages: JsonRpcMessage[]): { rpc: string; tool?: string } {
  const rpc = messages.map((m) => ('method' in m ? m.method : 'response')).join(',').slice(0, 200);
  const tool = messages.map(extractToolCallInfo).find((info) => info !== undefined)?.toolName.slice(0, 64);
  return tool === undefined ? { rpc } : { rpc, tool };
}
