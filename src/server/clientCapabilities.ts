import { CLIENT_CAPABILITIES_META_KEY, type ClientCapabilities, type McpServer, type ServerContext } from '@modelcontextprotocol/server';

/** What a 2026-07-28 request's client says it can do: the capabilities in its `_meta` envelope (each request carries its own). */
export function clientCapabilitiesOf(envelope: unknown): ClientCapabilities {
  return ((envelope as Record<string, unknown> | undefined)?.[CLIENT_CAPABILITIES_META_KEY] as ClientCapabilities | undefined) ?? {};
}

/**
 * What the client of a request says it can do, in either era: a 2026-07-28 request's own envelope, or
 * else what the 2025-era session's client declared in its initialize (replayed into a restored session).
 */
export function requestClientCapabilities(server: McpServer, ctx: ServerContext): ClientCapabilities {
  const envelope = ctx.mcpReq.envelope;
  return envelope ? clientCapabilitiesOf(envelope) : (server.server.getClientCapabilities() ?? {});
}
