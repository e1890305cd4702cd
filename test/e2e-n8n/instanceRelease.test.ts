import { describe, expect, inject, it } from 'vitest';
import { releaseFromEditorPage } from '../../src/n8n/release';
import { connectedClient, n8nApi } from './client';

/**
 * The instance's release, read by the server from the real n8n 1.123.81's editor page, and the
 * typeVersions judged by it: the trial's Edit Fields 3.5, which this n8n saves but cannot activate.
 */
const { ok: call } = connectedClient('e2e-real-n8n-release');

const withEditFields = (typeVersion: number) => ({
  name: `Edit Fields ${typeVersion} (e2e)`,
  nodes: [
    {
      name: 'Webhook',
      type: 'n8n-nodes-base.webhook',
      typeVersion: 2,
      webhookId: crypto.randomUUID(),
      position: [0, 0],
      parameters: { path: `release-${Date.now()}-${typeVersion}`, httpMethod: 'POST' },
    },
    {
      name: 'Edit Fields',
      type: 'n8n-nodes-base.set',
      typeVersion,
      position: [220, 0],
      parameters: { assignments: { assignments: [{ id: 'a', name: 'seen', value: 'yes', type: 'string' }] } },
    },
  ],
  connections: { Webhook: { main: [[{ node: 'Edit Fields', type: 'main', index: 0 }]] } },
  settings: { executionOrder: 'v1' },
});

describe('the real n8n’s release', () => {
  it('is on its editor page without sign-in, and the server reads it', async () => {
    const page = await (await fetch(`${inject('realN8nUrl')}/`)).text();
    expect(releaseFromEditorPage(page)).toBe('1.123.81');
    expect((await call('server_info')).n8n).toEqual({ catalog: '2.41.3', instance: '1.123.81' });
  });

  it('decides the typeVersions: Edit Fields 3.5 is refused naming 3.4, which n8n itself fails to activate', async () => {
    const node = await call('validate_node', { type: 'n8n-nodes-base.set', typeVersion: 3.5 });
    expect(node.errors).toEqual([expect.objectContaining({ code: 'type_version_not_on_instance', message: expect.stringContaining('"typeVersion": 3.4') })]);
    const [details] = (await call('get_node_details', { nodes: [{ node_type: 'ACTION_NODE', subtype: 'n8n-nodes-base.set' }] })) as unknown as Record<
      string,
      any
    >[];
    expect(details!.n8n).toBe('n8n 1.123.81, the configured instance: typeVersion 3.4 is the newest it runs');
    // What the error prevents, on n8n itself: saved with 3.5, the workflow does not activate.
    const saved = await n8nApi('POST', '/workflows', withEditFields(3.5));
    await expect(n8nApi('POST', `/workflows/${saved.id}/activate`)).rejects.toThrow(/execute/);
    const fine = await n8nApi('POST', '/workflows', withEditFields(3.4));
    expect((await n8nApi('POST', `/workflows/${fine.id}/activate`)).active).toBe(true);
    await n8nApi('POST', `/workflows/${fine.id}/deactivate`);
  });
});
