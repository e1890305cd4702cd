import { createMcpHandler, McpServer } from '@modelcontextprotocol/server';
import { CfWorkerJsonSchemaValidator } from '@modelcontextprotocol/server/validators/cf-worker';
import { z } from 'zod';
import { serverInfoResult } from '../serverInfo.ts';

/**
 * The MCP SDK 2.x's own floor for a 2026-07-28 request: its per-request entry (`createMcpHandler`)
 * serving the same one tool from a fresh server per request, in a plain Worker with no Durable Object,
 * no authentication and nothing else. What any server built on the SDK's modern leg costs at least.
 */
const handler = createMcpHandler(
  () => {
    const server = new McpServer({ name: 'bench-sdk-modern', version: '0.1.0' }, { jsonSchemaValidator: new CfWorkerJsonSchemaValidator() });
    server.registerTool(
      'server_info',
      {
        title: 'Server information',
        description: 'Name and version of this MCP server.',
        outputSchema: z.object({ name: z.string(), version: z.string(), transports: z.array(z.string()), protocolVersions: z.array(z.string()) }),
        annotations: { readOnlyHint: true },
      },
      async () => serverInfoResult(),
    );
    return server;
  },
  { legacy: 'reject' },
);

export default { fetch: (request: Request) => handler.fetch(request) };
