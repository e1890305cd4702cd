import {
  CallToolRequestSchema,
  CompleteRequestSchema,
  GetPromptRequestSchema,
  InitializeRequestSchema,
  JSONRPCMessageSchema,
  JSONRPCRequestSchema,
  ListPromptsRequestSchema,
  ListResourcesRequestSchema,
  ListResourceTemplatesRequestSchema,
  ListToolsRequestSchema,
  PingRequestSchema,
  ReadResourceRequestSchema,
  RequestIdSchema,
  SetLevelRequestSchema,
  SubscribeRequestSchema,
  UnsubscribeRequestSchema,
} from '@modelcontextprotocol/core';
import type { JSONRPCMessage, JSONRPCRequest } from '@modelcontextprotocol/server';
import { HttpError } from './httpError';
import { assertJsonDepth } from './jsonDepth';
import { ErrorCode, isRequest, type RequestId } from './jsonrpc';

/** What a tools/call request asks for (seed 001's McpToolCallInfo). */
export interface McpToolCallInfo {
  toolName: string;
  arguments: Record<string, unknown>;
}

/** Most messages in one batch, on every route: the SDK's own cap on /mcp (MAX_BATCH_SIZE). */
export const MAX_BATCH_MESSAGES = 100;

/**
 * The client requests an MCP server answers, each as one schema for the whole message (the JSON-RPC
 * envelope and the method's params), made of the SDK's own schemas: a request of one of these methods
 * is validated by one schema, once. Any other message is checked against the SDK's JSONRPCMessageSchema.
 */
export const REQUEST_SCHEMAS = new Map(
  [
    InitializeRequestSchema,
    PingRequestSchema,
    ListToolsRequestSchema,
    CallToolRequestSchema,
    ListResourcesRequestSchema,
    ListResourceTemplatesRequestSchema,
    ReadResourceRequestSchema,
    SubscribeRequestSchema,
    UnsubscribeRequestSchema,
    ListPromptsRequestSchema,
    GetPromptRequestSchema,
    SetLevelRequestSchema,
    CompleteRequestSchema,
  ].map((schema) => [schema.shape.method.value as string, JSONRPCRequestSchema.extend(schema.shape)]),
);

/** A validated body: one message, or a JSON-RPC batch (allowed by protocol 2025-03-26). */
export interface ParsedBody {
  messages: JSONRPCMessage[];
  batch: boolean;
}

/**
 * Parses and validates a raw body. Throws HttpError(400, …) with -32700 for bad JSON, -32600 for
 * anything that is not a JSON-RPC 2.0 message or batch of them, -32602 for a known method's bad params.
 */
export function parse(body: string): ParsedBody {
  return parseMessages(parseJson(body));
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
 * them (-32600 otherwise), each by one schema (REQUEST_SCHEMAS, else the SDK's JSONRPCMessageSchema).
 * The messages are passed on as they came: a schema only judges them (it would drop params members it
 * does not know).
 */
export function parseMessages(value: unknown): ParsedBody {
  const batch = Array.isArray(value);
  const items: unknown[] = batch ? (value as unknown[]) : [value];
  if (items.length === 0) throw invalid('an empty batch');
  if (items.length > MAX_BATCH_MESSAGES) throw invalid(`a batch of ${items.length} messages; the limit is ${MAX_BATCH_MESSAGES}`);
  let invalidParams: HttpError | undefined;
  const messages = items.map((item, i) => {
    const request = requestSchemaOf(item);
    const result = (request ?? JSONRPCMessageSchema).safeParse(item);
    if (result.success) return item as JSONRPCMessage;
    const o = item as { id: RequestId; method: string; params?: unknown };
    const inParams = result.error.issues.every((issue) => issue.path[0] === 'params');
    if (!request || !inParams || !(o.params === undefined || isPlainObject(o.params))) throw invalid(describe(item, batch ? i : undefined), idOf(item));
    const issue = result.error.issues[0];
    const where = issue?.path.slice(1).join('.') || 'params';
    invalidParams ??= new HttpError(400, ErrorCode.InvalidParams, `Invalid params for ${o.method}: ${where}: ${issue?.message}`, {}, o.id);
    return item as JSONRPCMessage;
  });
  // A malformed message anywhere refuses the whole body as -32600 first; then bad params, as -32602.
  if (invalidParams) throw invalidParams;
  return { messages, batch };
}

/**
 * One request (/mcp/sse's query mode), by the same schemas: -32600 naming the member that is wrong
 * or missing, -32602 for params that are no object or break a known method's rules.
 */
export function parseRequest(candidate: { jsonrpc: unknown; id?: RequestId; method?: string; params?: unknown }): JSONRPCRequest {
  const { jsonrpc, id, method, params } = candidate;
  const field =
    jsonrpc !== '2.0'
      ? 'jsonrpc'
      : id === undefined
        ? 'id'
        : method === undefined
          ? 'method'
          : params !== undefined && !isPlainObject(params)
            ? 'params'
            : undefined;
  const code = field === 'params' ? ErrorCode.InvalidParams : ErrorCode.InvalidRequest;
  if (field) throw new HttpError(400, code, `Invalid Request: bad or missing "${field}"`, {}, id ?? null);
  return parseMessages(candidate).messages[0] as JSONRPCRequest;
}

/** The whole-message schema of a request of a known method, or undefined for anything else. */
function requestSchemaOf(item: unknown) {
  if (!isPlainObject(item) || !('id' in item) || typeof item.method !== 'string') return undefined;
  return REQUEST_SCHEMAS.get(item.method);
}

const isPlainObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

function invalid(what: string, id: RequestId | null = null): HttpError {
  return new HttpError(400, ErrorCode.InvalidRequest, `Invalid Request: ${what}`, {}, id);
}

const MEMBERS = new Set(['jsonrpc', 'id', 'method', 'params', 'result', 'error']);

function describe(item: unknown, index?: number): string {
  const where = index === undefined ? '' : ` (batch item ${index})`;
  if (!isPlainObject(item)) {
    return `expected a JSON-RPC object, got ${item === null ? 'null' : Array.isArray(item) ? 'an array' : typeof item}${where}`;
  }
  if (item.jsonrpc !== '2.0') return `"jsonrpc" must be "2.0"${where}`;
  if (!('method' in item) && !('result' in item) && !('error' in item)) return `missing "method"${where}`;
  if ('method' in item && typeof item.method !== 'string') return `"method" must be a string${where}`;
  if ('id' in item && idOf(item) === null) return `"id" must be a string or a safe integer${where}`;
  if ('params' in item && !isPlainObject(item.params)) return `"params" must be an object${where}`;
  const unknown = Object.keys(item).find((key) => !MEMBERS.has(key));
  if (unknown !== undefined) return `unexpected member "${unknown.slice(0, 64)}"${where}`;
  return `not a JSON-RPC 2.0 request, notification or response${where}`;
}

/** The id to answer an invalid message with: its own when it is one we accept (no unsafe integers), else null. */
function idOf(item: unknown): RequestId | null {
  const parsed = RequestIdSchema.safeParse((item as { id?: unknown } | null)?.id);
  return parsed.success ? parsed.data : null;
}

export const isToolCall = (m: JSONRPCMessage): m is JSONRPCRequest => isRequest(m) && m.method === 'tools/call';

/** Tool name and arguments of a tools/call request, or undefined when it is not one or is malformed. */
export function extractToolCallInfo(m: JSONRPCMessage): McpToolCallInfo | undefined {
  if (!isToolCall(m)) return undefined;
  const { name, arguments: args } = m.params ?? {};
  if (typeof name !== 'string') return undefined;
  const plain = typeof args === 'object' && args !== null && !Array.isArray(args);
  return { toolName: name, arguments: plain ? (args as Record<string, unknown>) : {} };
}

/** For the log line: the methods of a body and the tool it calls, bounded in length; never arguments. */
export function describeMessages(messages: JSONRPCMessage[]): { rpc: string; tool?: string } {
  const rpc = messages
    .map((m) => ('method' in m ? m.method : 'response'))
    .join(',')
    .slice(0, 200);
  const tool = messages
    .map(extractToolCallInfo)
    .find((info) => info !== undefined)
    ?.toolName.slice(0, 64);
  return tool === undefined ? { rpc } : { rpc, tool };
}
