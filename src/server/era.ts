import { classifyInboundRequest } from '@modelcontextprotocol/server';
import { HttpError } from '../protocol/httpError';
import { ErrorCode } from '../protocol/jsonrpc';

/**
 * Whether a POST /mcp belongs to the 2026-07-28 era: the SDK's own classification (a request that
 * carries the per-request `_meta` envelope, or claims a modern revision in MCP-Protocol-Version), so
 * this server and the SDK's clients never disagree about a request's era. A request the SDK refuses
 * for what it claims (an envelope it cannot take, headers that contradict the body) is the SDK's to
 * answer; a body that is no JSON-RPC request or notification at all claims no era, and is left to the
 * 2025 era's validation, which names what is wrong with it. A modern request never belongs to a
 * session: one that names a session mixes the two eras, and is refused as the spec's HeaderMismatch
 * (-32020) rather than served as if the header were not there.
 */
export async function isModernRequest(request: Request, body: unknown): Promise<boolean> {
  const outcome = classify(request, body);
  if (outcome.kind === 'legacy' || (outcome.kind === 'reject' && outcome.rung === 'jsonrpc-shape')) return false;
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

/** The SDK's era classification of a POST: its method, the three MCP headers it reads, and the parsed body. */
export function classify(request: Request, body: unknown): ReturnType<typeof classifyInboundRequest> {
  return classifyInboundRequest({
    httpMethod: request.method,
    protocolVersionHeader: request.headers.get('mcp-protocol-version') ?? undefined,
    mcpMethodHeader: request.headers.get('mcp-method') ?? undefined,
    mcpNameHeader: request.headers.get('mcp-name') ?? undefined,
    body,
  });
}
