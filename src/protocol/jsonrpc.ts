import type { JSONRPCMessage, JSONRPCNotification, JSONRPCRequest, JSONRPCResponse, RequestId } from '@modelcontextprotocol/server';

export type { RequestId };

/** JSON-RPC 2.0 error codes used across the server (JSON-RPC spec §5.1). */
export const ErrorCode = {
  ParseError: -32700,
  InvalidRequest: -32600,
  MethodNotFound: -32601,
  InvalidParams: -32602,
  InternalError: -32603,
  /** Server-defined: a tool ran and failed (used where the answer must be a JSON-RPC error, e.g. mcp/executeTool). */
  ToolFailed: -32000,
  /** The same server-defined code as the SDK's Streamable HTTP transport refuses an HTTP request with (wrong Accept, a second GET stream). */
  TransportRefused: -32000,
  /** MCP 2026-07-28: the HTTP headers contradict the body, or a required one is missing. */
  HeaderMismatch: -32020,
} as const;
export type ErrorCode = (typeof ErrorCode)[keyof typeof ErrorCode];

/** A JSON-RPC message as the SDK types it (src/protocol/messages.ts validates a body into these). */
export type JsonRpcMessage = JSONRPCMessage;

/** An error answer as this server writes it: `id` is null when the request's own could not be read (JSON-RPC §5). */
export interface JsonRpcErrorResponse {
  jsonrpc: '2.0';
  id: RequestId | null;
  error: { code: number; message: string; data?: unknown };
}

/*
 * What kind a message is, read from its members alone: for messages src/protocol/messages.ts has
 * already validated, so no schema runs on them a second time (the SDK's own `isJSONRPCRequest` and
 * friends each run a full schema).
 */
export const isRequest = (m: JSONRPCMessage): m is JSONRPCRequest => 'method' in m && 'id' in m;
export const isResponse = (m: JSONRPCMessage): m is JSONRPCResponse => 'id' in m && ('result' in m || 'error' in m);
export const isInitialize = (m: JSONRPCMessage): m is JSONRPCRequest & { method: 'initialize' } => isRequest(m) && m.method === 'initialize';
export const isCancellation = (m: JSONRPCMessage): m is JSONRPCNotification & { params: { requestId: RequestId } } =>
  'method' in m && m.method === 'notifications/cancelled' && !('id' in m) && m.params?.requestId !== undefined;

/** The one way this server builds a JSON-RPC error object. */
export function jsonRpcError(id: RequestId | null, code: number, message: string, data?: unknown): JsonRpcErrorResponse {
  return { jsonrpc: '2.0', id, error: data === undefined ? { code, message } : { code, message, data } };
}

/**
 * What a request is answered with when its own answer could not be stored or sent (a Durable Object
 * refused to keep it): an error, so the client is never left waiting on silence.
 */
export const undeliverable = (id: RequestId | null, error: unknown): JsonRpcErrorResponse =>
  jsonRpcError(id, ErrorCode.InternalError, `The answer to this request could not be stored to send (${String(error)})`);
