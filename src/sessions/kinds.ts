/** How a session's client talks to it; a session id only works on the transport that created it. */
export type TransportKind = 'streamable-http' | 'sse';
