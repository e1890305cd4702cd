/** How a session's client talks to it; a session id only works on the transport that created it. */
export type TransportKind = 'streamable-http' | 'sse';

/** The public routes, for humans (server_info, /health). */
export const TRANSPORTS = ['streamable-http (/mcp)', 'sse (/sse, /mcp/sse)', 'sse-query (/mcp/sse?method=…)'] as const;
