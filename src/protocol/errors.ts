import { ErrorCode, type JsonRpcErrorResponse, type RequestId } from './jsonrpc';

/** The one way this server builds a JSON-RPC error object. */
export function jsonRpcError(
  id: RequestId | null,
  code: ErrorCode,
  message: string,
  data?: unknown,
): JsonRpcErrorResponse {
  return { jsonrpc: '2.0', id, error: data === undefined ? { code, message } : { code, message, data } };
}

/**
 * An error that becomes an HTTP response: status, a JSON-RPC error body, and optional headers.
 * Thrown anywhere in request handling and turned into a Response by `toErrorResponse` (src/http/errors.ts).
 */
export class ProtocolError extends Error {
  constructor(
    readonly status: number,
    readonly code: ErrorCode,
    message: string,
    readonly headers: Record<string, string> = {},
    readonly id: RequestId | null = null,
  ) {
    super(message);
    this.name = 'ProtocolError';
  }

  toJSON(): JsonRpcErrorResponse {
    return jsonRpcError(this.id, this.code, this.message);
  }
}
