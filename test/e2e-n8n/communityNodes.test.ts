import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { startWranglerDev, type DevServer } from '../../scripts/lib/wranglerDev';
import { connectedClient, n8nApi, type OwnInstance } from './client';

/**
 * A deployment whose operator classes a community package as none (NODE_CLASS_OVERRIDES): its nodes
 * pass the node gate, and what n8n makes of one it does not have is answered, on the real n8n.
 */
let server: DevServer;
let instance: OwnInstance;
beforeAll(async () => {
  const n8n = { url: inject('realN8nUrl'), apiKey: inject('realN8nKey') };
  server = await startWranglerDev({
    vars: { N8N_API_URL: n8n.url, N8N_API_KEY: n8n.apiKey, RATE_LIMITS: 'off', NODE_CLASS_OVERRIDES: 'n8n-nodes-community.*=none' },
  });
  instance = { serverUrl: server.url, serverKey: server.apiKey!, n8nUrl: n8n.url, n8nKey: n8n.apiKey };
}, 120_000);
afterAll(() => server.stop());

const { call } = connectedClient('e2e-real-n8n-community', undefined, () => instance);

describe('a community node the operator classes as none', () => {
  it('that this n8n does not have: n8n refuses to activate the throwaway workflow, which is deleted', async () => {
    const refused = await call('try_nodes', { nodes: [{ name: 'Community', type: 'n8n-nodes-community.thing', typeVersion: 1, parameters: {} }] });
    expect(refused.isError).toBe(true);
    expect(refused.text).toMatch(
      /This n8n does not have the node type "n8n-nodes-community\.thing" \(n8n: "Unrecognized node type"\): a community node must be installed .* The throwaway workflow (\w+) was deleted with its executions: nothing is left in n8n\./,
    );
    const id = /The throwaway workflow (\w+) was deleted/.exec(refused.text)![1]!;
    await expect(n8nApi('GET', `/workflows/${id}`)).rejects.toThrow(/: 404 /);
  });
});
