import { ErrorCode, jsonRpcError, type JsonRpcErrorResponse, type RequestId } from './jsonrpc';

/**
 * A refusal of an HTTP request: its status, a JSON-RPC error body (every route of this server speaks
 * JSON-RPC, so even a 404 names its code), and optional headers. Thrown anywhere in request handling
 * and turned into a Response by `toErrorResponse`. Errors inside a served MCP message are the SDK's
 * (its ProtocolError) or a tool's (an isError result), never this.
 */
export class HttpError extends Error {
  constructor(
    readonly status: number,
    readonly code: ErrorCode,
    message: string,
    readonly headers: Record<string, string> = {},
    readonly id: RequestId | null = null,
  ) {
    super(message);
    this.name = 'HttpError';
  }

  toJSON(): JsonRpcErrorResponse {
    return jsonRpcError(this.id, this.code, this.message);
  }
}

/** The one place a thrown error becomes an HTTP response: a JSON-RPC error body with the right status. */
export function toErrorResponse(error: unknown): Response {
  if (error instanceof HttpError) {
    return Response.json(error.toJSON(), { status: error.status, headers: error.headers });
  }
  console.error(JSON.stringify({ level: 'error', message: 'unhandled error', error: String(error) }));
  return toErrorResponse(new HttpError(500, ErrorCode.InternalError, 'Internal error'));
}

export const sessionNotFound = (): HttpError =>
  new HttpError(404, ErrorCode.InvalidRequest, 'Session not found: it expired, was closed, or belongs to another transport. Initialize a new session.');
