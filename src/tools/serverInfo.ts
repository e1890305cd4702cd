import { SUPPORTED_PROTOCOL_VERSIONS } from '@modelcontextprotocol/server';
import { z } from 'zod';
import { MODERN_PROTOCOL_VERSION, SERVER_NAME, SERVER_VERSION, TRANSPORTS } from '../config';
import { instanceRelease } from '../n8n/release';
import { newestRelease } from '../n8n/releaseTable';
import { classRefusal, nodePolicyOf, policySummary } from '../auth/nodePolicy';
import { callerWorkspace, defaultConnectionFor } from '../workspaces/connectionFor';
import { defineTool } from './tool';

export const serverInfo = defineTool({
  name: 'server_info',
  title: 'Server information',
  description:
    'Name and version of this MCP server, the transports it serves and the MCP protocol versions it speaks, the n8n ' +
    'release its node catalog is, the release of your default n8n (node details and validation follow that one; list_instances ' +
    'names all you can act on), and ' +
    'which node classes (the n8n host, code, stored credentials) this deployment and your credential may put into n8n. ' +
    'Use it to check the connection works.',
  input: z.object({}),
  output: z.object({
    name: z.string(),
    version: z.string(),
    transports: z.array(z.string()),
    protocolVersions: z.array(z.string()),
    n8n: z.object({
      catalog: z.string().describe('The n8n release whose nodes the catalog describes'),
      instance: z.string().optional().describe('The release of your default n8n, or why it is unknown; absent when you have none'),
    }),
    workspace: z.string().optional().describe('Your workspace; absent on a deployment that serves one team'),
    nodeClasses: z
      .array(
        z.object({
          class: z.string(),
          lets: z.string().describe('What nodes of the class let a workflow do'),
          allowed: z.boolean().describe('Whether this deployment lets callers with the scope use the class'),
          scope: z.string().describe('The scope a caller needs to put such nodes into n8n or run them'),
          yours: z.boolean().describe('Whether this credential may'),
        }),
      )
      .describe(
        'Nodes that reach beyond their items (the n8n host, code, stored credentials): what this deployment and this credential may put into n8n or run',
      ),
  }),
  annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
  execution: 'direct',
  async run(_input, { env, caller }) {
    const workspace = await callerWorkspace(env, caller);
    const instance = await instanceRelease(await defaultConnectionFor(env, caller));
    const policy = nodePolicyOf(env, workspace);
    return {
      name: SERVER_NAME,
      version: SERVER_VERSION,
      transports: [...TRANSPORTS],
      protocolVersions: [MODERN_PROTOCOL_VERSION, ...SUPPORTED_PROTOCOL_VERSIONS],
      n8n: {
        catalog: newestRelease(),
        ...(instance ? { instance: instance.known ? instance.release : `unknown: ${instance.reason}` } : {}),
      },
      ...(workspace ? { workspace: workspace.name } : {}),
      nodeClasses: policySummary(policy).map((c) => ({ ...c, yours: classRefusal(caller, policy, c.class) === null })),
    };
  },
});
