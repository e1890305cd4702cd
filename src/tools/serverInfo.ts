import { SUPPORTED_PROTOCOL_VERSIONS } from '@modelcontextprotocol/server';
import { z } from 'zod';
import { SERVER_NAME, SERVER_VERSION } from '../config';
import { MODERN_PROTOCOL_VERSION } from '../protocol/era';
import { TRANSPORTS } from '../transport/kinds';
import { defineTool } from './tool';

export const serverInfo = defineTool({
  name: 'server_info',
  title: 'Server information',
  description:
    'Name and version of this MCP server, the transports it serves and the MCP protocol versions it speaks. ' +
    'Use it to check the connection works.',
  input: z.object({}),
  output: z.object({
    name: z.string(),
    version: z.string(),
    transports: z.array(z.string()),
    protocolVersions: z.array(z.string()),
  }),
  annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
  execution: 'direct',
  run: () => ({
    name: SERVER_NAME,
    version: SERVER_VERSION,
    transports: [...TRANSPORTS],
    protocolVersions: [MODERN_PROTOCOL_VERSION, ...SUPPORTED_PROTOCOL_VERSIONS],
  }),
});
