/**
 * How each client connects, filled in with this server's URL. The placeholder is never a real key: the
 * page shows nothing secret, and each reader puts in their own.
 */
export const KEY_PLACEHOLDER = 'YOUR_API_KEY';

/** Client names in snippets: what `claude mcp list` and Claude Desktop show. */
const NAME = 'n8n-edge';

interface Snippet {
  /** What it is, for the copy button's accessible name ("Copy the Claude Code command"). */
  label: string;
  /** Shown above it when a guide has more than one. */
  caption?: string;
  text: string;
}

export interface ClientGuide {
  id: string;
  title: string;
  /** Plain-text steps around the snippets. */
  steps: string[];
  snippets: Snippet[];
}

export function connectGuides(origin: string): ClientGuide[] {
  const mcp = `${origin}/mcp`;
  const header = `Authorization: Bearer ${KEY_PLACEHOLDER}`;
  const desktopConfig = (args: string[], env?: Record<string, string>) =>
    JSON.stringify({ mcpServers: { [NAME]: { command: 'npx', args: ['mcp-remote', ...args], ...(env ? { env } : {}) } } }, null, 2);
  return [
    {
      id: 'claude-code',
      title: 'Claude Code',
      steps: [`Run this in a terminal, with ${KEY_PLACEHOLDER} replaced by your API key.`],
      snippets: [{ label: 'Claude Code command', text: `claude mcp add --transport http ${NAME} ${mcp} --header "${header}"` }],
    },
    {
      id: 'claude-desktop',
      title: 'Claude Desktop (mcp-remote)',
      steps: ['Add one of these to claude_desktop_config.json (Settings → Developer → Edit Config), then restart Claude Desktop.'],
      snippets: [
        {
          label: 'Claude Desktop configuration with an API key',
          caption: 'With an API key:',
          // mcp-remote's README: no space after the colon, because of how some shells pass arguments on Windows.
          text: desktopConfig([mcp, '--header', 'Authorization:${N8N_EDGE_AUTH}'], { N8N_EDGE_AUTH: `Bearer ${KEY_PLACEHOLDER}` }),
        },
        {
          label: 'Claude Desktop configuration with OAuth',
          caption: 'Or with OAuth: mcp-remote opens this server’s consent page in your browser, where you paste a key once.',
          text: desktopConfig([mcp]),
        },
      ],
    },
    {
      id: 'claude-ai',
      title: 'claude.ai connectors',
      steps: [
        'In claude.ai, open Settings → Connectors → Add custom connector and paste this URL.',
        'claude.ai registers itself and opens this server’s consent page: paste an API key (or the operator password) and allow it.',
        'claude.ai calls from Anthropic’s network, so the server must be reachable from the internet.',
      ],
      snippets: [{ label: 'connector URL', text: mcp }],
    },
    {
      id: 'n8n',
      title: 'n8n — MCP Client Tool',
      steps: [
        'In the MCP Client Tool node: Endpoint this URL, Server Transport “HTTP Streamable”.',
        `Authentication “Header Auth” with a credential whose Name is Authorization and Value is the header value below (or “Bearer Auth” with the key as the token).`,
        `Older nodes with a single “SSE Endpoint” field: use ${origin}/mcp/sse.`,
      ],
      snippets: [
        { label: 'n8n endpoint URL', caption: 'Endpoint:', text: mcp },
        { label: 'n8n header value', caption: 'Header Auth value:', text: `Bearer ${KEY_PLACEHOLDER}` },
      ],
    },
    {
      id: 'inspector',
      title: 'MCP Inspector',
      steps: [],
      snippets: [
        {
          label: 'Inspector command',
          caption: `The web UI: run this, choose Transport “Streamable HTTP”, enter ${mcp} and an Authorization header (or use its OAuth flow).`,
          text: 'npx @modelcontextprotocol/inspector',
        },
        {
          label: 'Inspector CLI command',
          caption: 'Or list the tools from a terminal:',
          text: `npx @modelcontextprotocol/inspector --cli ${mcp} --transport http --header "${header}" --method tools/list`,
        },
      ],
    },
  ];
}
