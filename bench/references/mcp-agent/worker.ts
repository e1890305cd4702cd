import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { McpAgent } from 'agents/mcp';
import { z } from 'zod';
import { serverInfoResult } from '../serverInfo.ts';

/** Reference (b): the `agents` package's McpAgent serving the same tool over Streamable HTTP. */
export class BenchMcpAgent extends McpAgent {
  server = new McpServer({ name: 'bench-mcp-agent', version: '0.1.0' });

  async init() {
    this.server.registerTool(
      'server_info',
      {
        title: 'Server information',
        description: 'Name and version of this MCP server.',
        outputSchema: { name: z.string(), version: z.string(), transports: z.array(z.string()), protocolVersions: z.array(z.string()) },
        annotations: { readOnlyHint: true },
      },
      async () => serverInfoResult(),
    );
  }
}

export default BenchMcpAgent.serve('/mcp', { binding: 'MCP_OBJECT' });
