import { env } from 'cloudflare:workers';
import { beforeEach, describe, expect, inject, it } from 'vitest';
import type { Env } from '../../../src/env';
import { invokeTool } from '../../../src/server/runTool';
import { toolsFor } from '../../../src/server/registry';
import { loadCatalog } from '../../support/catalog';
import { directContext } from '../../support/hostile';
import { n8nSpecs } from '../../support/n8nCatalog';

/**
 * The tools with an n8n configured: the contract fake, served under /n8n-<release>/ as an instance
 * of that release (its editor page carries it, as a real n8n's does), or at / where it has no page.
 */
const n8nUrl = inject('n8nUrl');
const instance = (path: string): Env => ({ ...env, N8N_API_URL: `${n8nUrl}${path}`, N8N_API_KEY: inject('n8nKey') });
const trial = instance('/n8n-1.123.81');

async function call(toolEnv: Env, name: string, args: Record<string, unknown>) {
  const tool = toolsFor(toolEnv).find((t) => t.name === name)!;
  const result = await invokeTool(tool, tool.input.parse(args), directContext(toolEnv), 'direct');
  return JSON.parse((result.content[0] as { text: string }).text);
}

const editFields = (typeVersion: number) => ({
  nodes: [
    {
      name: 'Webhook',
      type: 'n8n-nodes-base.webhook',
      typeVersion: 2,
      webhookId: '5f0c3a52-0000-4000-8000-000000000001',
      parameters: { path: 'orders' },
      position: [0, 0],
    },
    { name: 'Edit Fields', type: 'n8n-nodes-base.set', typeVersion, parameters: {}, position: [200, 0] },
  ],
  connections: { Webhook: { main: [[{ node: 'Edit Fields', type: 'main', index: 0 }]] } },
});
const setDetails = { nodes: [{ node_type: 'ACTION_NODE', subtype: 'n8n-nodes-base.set' }] };

beforeEach(async () => {
  await loadCatalog(n8nSpecs, ['n8n']);
});

describe('with the instance’s release read from its editor page (n8n 1.123.81)', () => {
  it('validate_workflow and validate_node refuse Edit Fields 3.5, naming 3.4', async () => {
    const workflow = await call(trial, 'validate_workflow', { workflow: editFields(3.5) });
    expect(workflow).toMatchObject({
      valid: false,
      errors: [{ node: 'Edit Fields', code: 'type_version_not_on_instance', message: expect.stringContaining('"typeVersion": 3.4') }],
    });
    expect(await call(trial, 'validate_workflow', { workflow: editFields(3.4) })).toMatchObject({ valid: true, errors: [] });
    const node = await call(trial, 'validate_node', { type: 'n8n-nodes-base.set', typeVersion: 3.5 });
    expect(node.errors.map((e: { code: string }) => e.code)).toEqual(['type_version_not_on_instance']);
  });

  it('create_workflow refuses the workflow n8n 1.123.81 would fail to activate, and saves the one it runs', async () => {
    const refused = await call(trial, 'create_workflow', { workflow: { name: 'trial', ...editFields(3.5) } });
    expect(refused).toMatchObject({ saved: false, errors: [{ node: 'Edit Fields', code: 'type_version_not_on_instance' }] });
    const saved = await call(trial, 'create_workflow', { workflow: { name: 'trial', ...editFields(3.4) } });
    expect(saved).toMatchObject({ id: expect.any(String) });
  });

  it('get_node_details describes the newest version the instance runs, says so, and its example has that version', async () => {
    const [set] = await call(trial, 'get_node_details', setDetails);
    expect(set.n8n).toBe('n8n 1.123.81, the configured instance: typeVersion 3.4 is the newest it runs');
    expect(set.type_versions).toContain(3.4);
    expect(set.examples.map((e: { output: { typeVersion: number } }) => e.output.typeVersion)).toEqual([3.4]);
    // n8n 2.41's editor adds 3.5, which this instance does not run: the answer does not say it.
    expect(set).not.toHaveProperty('default_version');
    const [asked] = await call(trial, 'get_node_details', { nodes: [{ ...setDetails.nodes[0], version: 3.5 }] });
    expect(asked.n8n).toBe('n8n 1.123.81, the configured instance, which does not have typeVersion 3.5: the newest it runs is 3.4');
  });

  it('server_info names both releases', async () => {
    expect((await call(trial, 'server_info', {})).n8n).toEqual({ catalog: '2.41.3', instance: '1.123.81' });
  });
});

describe('when the release is unknown or there is no instance', () => {
  it('the answers say the catalog’s release and why, and validation falls back to the catalog', async () => {
    const unknown = instance('');
    const unread = "the configured n8n's release is unknown (its editor page answered HTTP 404): typeVersions were checked against the catalog, n8n 2.41.3";
    expect(await call(unknown, 'validate_workflow', { workflow: editFields(3.5) })).toMatchObject({ valid: true, errors: [], n8n: unread });
    expect(await call(unknown, 'validate_node', { type: 'n8n-nodes-base.set', typeVersion: 3.5 })).toMatchObject({ n8n: unread });
    expect(await call(unknown, 'autofix_workflow', { workflow: editFields(3.5) })).toMatchObject({ n8n: unread });
    expect(await call(trial, 'validate_workflow', { workflow: editFields(3.4) })).not.toHaveProperty('n8n');
    const [set] = await call(unknown, 'get_node_details', setDetails);
    expect(set.n8n).toBe("the catalog's release, n8n 2.41.3: the configured n8n's release is unknown (its editor page answered HTTP 404)");
    expect(set.examples[0].output.typeVersion).toBe(3.5);
    expect(set.default_version).toBe(3.5);
    expect((await call(unknown, 'server_info', {})).n8n).toEqual({ catalog: '2.41.3', instance: 'unknown: its editor page answered HTTP 404' });
    const none = { ...env, N8N_API_URL: undefined };
    expect((await call(none, 'get_node_details', setDetails))[0].n8n).toBe("the catalog's release, n8n 2.41.3 (no n8n instance is configured)");
    expect((await call(none, 'server_info', {})).n8n).toEqual({ catalog: '2.41.3' });
    expect(await call(none, 'validate_workflow', { workflow: editFields(3.5) })).toEqual({ valid: true, errors: [], warnings: [] });
  });
});
