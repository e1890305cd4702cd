import { SUPPORTED_PROTOCOL_VERSIONS } from '@modelcontextprotocol/server';
import { z } from 'zod';
import { MODERN_PROTOCOL_VERSION, SERVER_NAME, SERVER_VERSION, TRANSPORTS } from '../config';
import { instanceRelease } from '../n8n/release';
import { newestRelease } from '../n8n/releaseTable';
import { defineTool } from './tool';

export const serverInfo = defineTool({
  name: 'server_info',
  title: 'Server information',
  description:
    'Name and version of this MCP server, the transports it serves and the MCP protocol versions it speaks, the n8n ' +
    'release its node catalog is, and the release of the n8n it drives (node details and validation follow that one). ' +
    'Use it to check the connection works.',
  input: z.object({}),
  output: z.object({
    name: z.string(),
    version: z.string(),
    transports: z.array(z.string()),
    protocolVersions: z.array(z.string()),
    n8n: z.object({
      catalog: z.string().describe('The n8n release whose nodes the catalog describes'),
      instance: z.string().optional().describe('The release of the configured n8n, or why it is unknown; absent when none is configured'),
    }),
  }),
  annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
  execution: 'direct',
  async run(_input, { env }) {
    const instance = await instanceRelease(env);
    return {
      name: SERVER_NAME,
      version: SERVER_VERSION,
      transports: [...TRANSPORTS],
      protocolVersions: [MODERN_PROTOCOL_VERSION, ...SUPPORTED_PROTOCOL_VERSIONS],
      n8n: {
        catalog: newestRelease(),
        ...(instance ? { instance: instance.known ? instance.release : `unknown: ${instance.reason}` } : {}),
      },
    };
  },
});
