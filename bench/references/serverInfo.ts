/** The same `server_info` answer every reference serves, so only the server around it differs. */
export const SERVER_INFO = {
  name: 'n8n-mcp-edge',
  version: '0.1.0',
  transports: ['streamable-http (/mcp)', 'sse (/sse, /mcp/sse)', 'sse-query (/mcp/sse?method=…)'],
  protocolVersions: ['2025-11-25', '2025-06-18', '2025-03-26', '2024-11-05', '2024-10-07'],
};

export const serverInfoResult = () => ({
  content: [{ type: 'text' as const, text: JSON.stringify(SERVER_INFO) }],
  structuredContent: SERVER_INFO,
});
