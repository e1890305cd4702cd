import { ProtocolError } from '../protocol/errors';
import { ErrorCode } from '../protocol/jsonrpc';

/** The one place a thrown error becomes an HTTP response: a JSON-RPC error body with the right status. */
export function toErrorResponse(error: unknown): Response {
  if (error instanceof ProtocolError) {
    return Response.json(error.toJSON(), { status: error.status, headers: error.headers });
  }
  console.error(JSON.stringify({ level: 'error', message: 'unhandled error', error: String(error) }));
  return Response.json(new ProtocolError(500, ErrorCode.InternalError, 'Internal error').toJSON(), { status: 500 });
}

export const sessionNotFound = (): ProtocolError =>
  new ProtocolError(404, ErrorCode.InvalidRequest, 'Session not found: it expired, was closed, or belongs to another transport. Initialize a new session.');
