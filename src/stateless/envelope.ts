import { CLIENT_CAPABILITIES_META_KEY, type ClientCapabilities } from '@modelcontextprotocol/server';

/** What a 2026-07-28 request's client says it can do: the capabilities in its `_meta` envelope (each request carries its own). */
export function clientCapabilitiesOf(envelope: unknown): ClientCapabilities {
  return ((envelope as Record<string, unknown> | undefined)?.[CLIENT_CAPABILITIES_META_KEY] as ClientCapabilities | undefined) ?? {};
}
