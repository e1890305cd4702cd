/**
 * Runs inside Chromium, bundled for the browser (test/e2e/browser.ts `servePage`): the MCP SDK's 2.x
 * client, as a web app on another origin would use it, so every header it sends goes through the
 * browser's CORS preflight. browserCors.test.ts calls these through `page.evaluate`.
 */
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';

/** What the page read back from the server. */
export interface BrowserCall {
  era: string | undefined;
  protocolVersion: string | undefined;
  /** The Mcp-Session-Id the transport read (2025 era only): the server must expose the header for this. */
  sessionId: string | undefined;
  tools: string[];
  /** The text of a `server_info` call: `tools/call` carries Mcp-Name on the 2026-07-28 era. */
  serverInfo: string;
}

/**
 * Connects with the key, lists the tools and calls `server_info`: pinned to 2026-07-28 (no fallback to
 * the 2025 handshake, so a refused preflight fails the call) or in the 2025 era with a session.
 */
export async function callServer(endpoint: string, key: string, era: '2026-07-28' | '2025'): Promise<BrowserCall> {
  const mode = era === '2025' ? 'legacy' : { pin: era };
  const client = new Client({ name: 'browser-cors', version: '1.0.0' }, { versionNegotiation: { mode } });
  // A header of the caller's own beside the key, as web apps add (tracing, API gateways): the preflight lets it through too.
  const headers = { authorization: `Bearer ${key}`, 'x-trace-id': 'browser-cors' };
  const transport = new StreamableHTTPClientTransport(new URL(endpoint), { requestInit: { headers } });
  await client.connect(transport);
  try {
    const { tools } = await client.listTools();
    const info = await client.callTool({ name: 'server_info', arguments: {} });
    const [first] = info.content as { type: string; text?: string }[];
    return {
      era: client.getProtocolEra(),
      protocolVersion: client.getNegotiatedProtocolVersion(),
      sessionId: transport.sessionId,
      tools: tools.map((tool) => tool.name),
      serverInfo: first?.text ?? '',
    };
  } finally {
    await client.close();
  }
}
