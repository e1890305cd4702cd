import { z } from 'zod';

/** JSON-RPC 2.0 error codes used across the server (JSON-RPC spec §5.1). */
export const ErrorCode = {
  ParseError: -32700,
  InvalidRequest: -32600,
  MethodNotFound: -32601,
  InvalidParams: -32602,
  InternalError: -32603,
  /** Server-defined: a tool ran and failed (used where the answer must be a JSON-RPC error, e.g. mcp/executeTool). */
  ToolFailed: -32000,
  /** MCP 2026-07-28: the HTTP headers contradict the body, or a required one is missing. */
  HeaderMismatch: -32020,
} as const;
export type ErrorCode = (typeof ErrorCode)[keyof typeof ErrorCode];

export const RequestIdSchema = z.union([z.string(), z.number().int()]);
export type RequestId = z.infer<typeof RequestIdSchema>;

const Params = z.record(z.string(), z.unknown());

export const JsonRpcRequestSchema = z.object({
  jsonrpc: z.literal('2.0'),
  id: RequestIdSchema,
  method: z.string().min(1),
  params: Params.optional(),
});

/** A notification has no `id` at all; a request with a malformed id must not pass as one. */
export const JsonRpcNotificationSchema = z
  .looseObject({ jsonrpc: z.literal('2.0'), method: z.string().min(1), params: Params.optional() })
  .refine((m) => !('id' in m));

export const JsonRpcResultResponseSchema = z.object({
  jsonrpc: z.literal('2.0'),
  id: RequestIdSchema,
  result: z.record(z.string(), z.unknown()),
});

export const JsonRpcErrorResponseSchema = z.object({
  jsonrpc: z.literal('2.0'),
  id: RequestIdSchema.nullable(),
  error: z.object({ code: z.number().int(), message: z.string(), data: z.unknown().optional() }),
});

/** Order matters: a request also satisfies the notification shape, so it is tried first. */
export const JsonRpcMessageSchema = z.union([
  JsonRpcRequestSchema,
  JsonRpcNotificationSchema,
  JsonRpcResultResponseSchema,
  JsonRpcErrorResponseSchema,
]);

export type JsonRpcRequest = z.infer<typeof JsonRpcRequestSchema>;
export type JsonRpcNotification = z.infer<typeof JsonRpcNotificationSchema>;
export type JsonRpcErrorResponse = z.infer<typeof JsonRpcErrorResponseSchema>;
export type JsonRpcMessage = z.infer<typeof JsonRpcMessageSchema>;

export const isRequest = (m: JsonRpcMessage): m is JsonRpcRequest => 'method' in m && 'id' in m;
export const isNotification = (m: JsonRpcMessage): m is JsonRpcNotification => 'method' in m && !('id' in m);

/** The one way this server builds a JSON-RPC error object. */
export function jsonRpcError(id: RequestId | null, code: number, message: string, data?: unknown): JsonRpcErrorResponse {
  return { jsonrpc: '2.0', id, error: data === undefined ? { code, message } : { code, message, data } };
}
