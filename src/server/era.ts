import { isLegacyRequest } from '@modelcontextprotocol/server';
import { MAX_BODY_BYTES } from '../config';
import { HttpError } from '../protocol/httpError';
import { ErrorCode } from '../protocol/jsonrpc';

/**
 * Whether a POST /mcp belongs to the 2026-07-28 era: the SDK's own classification (a request that
 * carries the per-request `_meta` envelope, or claims a modern revision in MCP-Protocol-Version), so
 * this server and the SDK's clients never disagree about a request's era. A modern request never
 * belongs to a session: one that names a session mixes the two eras, and is refused as the spec's
 * HeaderMismatch (-32020) rather than served as if the header were not there.
 */
export async function isModernRequest(request: Request, body: unknown): Promise<boolean> {
  if (await isLegacyRequest(request, body, { maxRequestBodySize: MAX_BODY_BYTES })) return false;
  if (request.headers.has('mcp-session-id')) {
    const id = typeof body === 'object' && body !== null && 'id' in body ? (body as { id: unknown }).id : null;
    throw new HttpError(
      400,
      ErrorCode.HeaderMismatch,
      'Header mismatch: Mcp-Session-Id belongs to the 2025 protocol era; a 2026-07-28 request carries no session',
      {},
      typeof id === 'string' || typeof id === 'number' ? id : null,
    );
  }
  return true;
}
