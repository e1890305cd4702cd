import { z } from 'zod';
import { n8nConnection } from '../n8n/client';
import { callerWorkspace, DEPLOYMENT_INSTANCE } from '../workspaces/connectionFor';
import { listConnections } from '../workspaces/connections';
import { defaultConnectionOf } from '../workspaces/workspaces';
import { defineTool } from './tool';

/**
 * The n8n instances the caller's n8n tools can act on (issue 41): its workspace's connections, or the
 * deployment's own n8n. Names, addresses and releases only: a connection's key is never read here.
 */
export const listInstances = defineTool({
  name: 'list_instances',
  title: 'List n8n instances',
  description:
    'The n8n instances your n8n tools can act on: each one’s name (what their `instance` argument takes), its address, the ' +
    'n8n release its last test read, and which one is the default (used when a call names none).',
  input: z.object({}),
  output: z.object({
    workspace: z.string().optional().describe('Your workspace’s name; absent on a deployment that serves one team'),
    instances: z.array(
      z.object({
        name: z.string(),
        url: z.string().describe('The instance’s address (its editor opens there)'),
        default: z.boolean(),
        release: z.string().optional().describe('The n8n release read when the connection was last tested'),
        testedAt: z.string().optional(),
      }),
    ),
    hint: z.string().optional(),
  }),
  annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
  execution: 'direct',
  async run(_input, { env, caller }) {
    const workspace = await callerWorkspace(env, caller);
    if (!workspace) {
      const own = n8nConnection(env);
      return own
        ? { instances: [{ name: DEPLOYMENT_INSTANCE, url: own.apiBase.replace(/\/api\/v1$/, ''), default: true }] }
        : { instances: [], hint: 'No n8n is configured on this server (N8N_API_URL and N8N_API_KEY).' };
    }
    const connections = (await listConnections(env.API_KEYS, workspace.id)).sort((a, b) => a.name.localeCompare(b.name));
    const fallback = defaultConnectionOf(
      workspace,
      connections.map((c) => c.name),
    );
    return {
      workspace: workspace.name,
      instances: connections.map((c) => ({
        name: c.name,
        url: c.base,
        default: c.name === fallback,
        ...(c.release ? { release: c.release } : {}),
        testedAt: new Date(c.testedAt).toISOString(),
      })),
      ...(connections.length === 0
        ? { hint: 'Your workspace has no n8n connection yet: add one on this server’s landing page (sign in with your key), then call again.' }
        : fallback === undefined
          ? { hint: 'No connection is the default: name one in each n8n tool’s `instance` argument.' }
          : {}),
    };
  },
});
