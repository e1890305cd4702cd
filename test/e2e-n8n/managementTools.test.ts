import { describe, expect, it } from 'vitest';
import { connectedClient, n8nApi as n8n, scopedKey, type Json } from './client';

/**
 * The 31 n8n management tools' happy paths against a real n8n 1.123.81 (community edition, no
 * license): what a community n8n does not license (variables, projects) must come back as the plain
 * "plan does not include" answer rather than a failure.
 */
const { client, call, ok } = connectedClient('e2e-real-n8n-tools');
const reader = connectedClient('e2e-real-n8n-reader', scopedKey('workflows-reader', 'workflows:read'));

const stamp = Date.now().toString(36);

describe('the n8n management tools on a real n8n', () => {
  it('lists all 43 n8n tools', async () => {
    const { tools } = await client.listTools();
    const names = tools.map((t) => t.name);
    for (const name of [
      'list_workflows',
      'get_audit_events',
      'edit_workflow',
      'test_workflow',
      'try_nodes',
      'delete_project',
      'restore_workflow_version',
      'run_workflow_tests',
      'prune_workflow_versions',
    ])
      expect(names).toContain(name);
    expect(tools.filter((t) => t.annotations?.openWorldHint)).toHaveLength(43);
  });

  it('workflows: create, get, update, list, activate, deactivate, tags, delete', async () => {
    const workflow = {
      name: `Tools ${stamp}`,
      nodes: [
        {
          name: 'Hook',
          type: 'n8n-nodes-base.webhook',
          typeVersion: 2,
          webhookId: 'a1b2c3d4-0000-4000-8000-00000000abcd',
          position: [0, 0],
          parameters: { path: `tools-${stamp}` },
        },
        { name: 'Set', type: 'n8n-nodes-base.set', typeVersion: 3.4, position: [200, 0], parameters: {} },
      ],
      connections: { Hook: { main: [[{ node: 'Set', type: 'main', index: 0 }]] } },
    };
    const created = await ok('create_workflow', { workflow });
    const full = await ok('get_workflow', { id: created.id });
    full.name = `Tools ${stamp} v2`;
    expect(await ok('update_workflow', { workflow: full })).toMatchObject({ id: created.id, name: `Tools ${stamp} v2` });
    expect(await ok('activate_workflow', { id: created.id })).toMatchObject({ active: true });
    expect((await ok('list_workflows', { active: true })).workflows.map((w: Json) => w.id)).toContain(created.id);
    expect(await ok('deactivate_workflow', { id: created.id })).toMatchObject({ active: false });
    const tag = await ok('create_tag', { name: `t-${stamp}` });
    expect((await ok('update_workflow_tags', { workflowId: created.id, tagIds: [tag.id] })).tags.map((t: Json) => t.id)).toEqual([tag.id]);
    expect((await ok('get_workflow_tags', { workflowId: created.id })).tags.map((t: Json) => t.id)).toEqual([tag.id]);
    expect((await ok('list_tags')).tags.map((t: Json) => t.id)).toContain(tag.id);
    expect(await ok('update_tag', { id: tag.id, name: `u-${stamp}` })).toMatchObject({ id: tag.id, name: `u-${stamp}` });
    expect(await ok('delete_tag', { id: tag.id })).toMatchObject({ deleted: true });
    expect(await ok('delete_workflow', { id: created.id })).toMatchObject({ deleted: true, id: created.id });
    expect((await call('get_workflow', { id: created.id })).text).toMatch(/Not found \(404\)/);
  });

  it('list_workflows: by part of the name in any case, each with the project that owns it, its owner named for users:read', async () => {
    const made = [];
    for (const name of [`Listing Alpha ${stamp}`, `Listing beta ${stamp}`])
      made.push(await ok('create_workflow', { workflow: { name, nodes: [], connections: {}, settings: { executionOrder: 'v1' } } }));
    try {
      const names = async (name: string) => (await ok('list_workflows', { name })).workflows.map((w: Json) => w.name).sort();
      expect(await names(`alpha ${stamp}`)).toEqual([`Listing Alpha ${stamp}`]);
      expect(await names(`LISTING`)).toEqual(expect.arrayContaining([`Listing Alpha ${stamp}`, `Listing beta ${stamp}`]));
      // The project n8n says owns each (its own answer for the workflow embeds it; its listing names only the id).
      const { project } = (await n8n('GET', `/workflows/${made[0]!.id}`)).shared[0];
      expect(project).toMatchObject({ type: 'personal', name: 'Test Owner <owner@example.com>' });
      const listed = (await ok('list_workflows', { name: stamp })).workflows;
      expect(listed.map((w: Json) => w.project)).toEqual([0, 1].map(() => ({ id: project.id, name: project.name, type: 'personal' })));
      const unnamed = (await reader.ok('list_workflows', { name: stamp })).workflows;
      expect(unnamed.map((w: Json) => w.project)).toEqual([0, 1].map(() => ({ id: project.id, type: 'personal' })));
      expect((await ok('list_workflows', { name: stamp, projectId: project.id })).workflows).toHaveLength(2);
    } finally {
      for (const { id } of made) await ok('delete_workflow', { id });
    }
  });

  it('executions: list, get (with data), delete', async () => {
    const workflow = {
      name: `Runs ${stamp}`,
      nodes: [
        {
          name: 'Hook',
          type: 'n8n-nodes-base.webhook',
          typeVersion: 2,
          webhookId: 'a1b2c3d4-0000-4000-8000-00000000beef',
          position: [0, 0],
          parameters: { path: `runs-${stamp}` },
        },
      ],
      connections: {},
    };
    const created = await ok('create_workflow', { workflow });
    const run = await ok('test_workflow', { id: created.id });
    const listed = await ok('list_executions', { workflowId: created.id });
    expect(listed.executions.map((e: Json) => String(e.id))).toContain(String(run.execution.id));
    const execution = await ok('get_execution', { id: String(run.execution.id), includeData: true });
    expect(execution).toMatchObject({ id: run.execution.id, status: 'success' });
    expect(await ok('delete_execution', { id: String(run.execution.id) })).toMatchObject({ deleted: true });
    await ok('delete_workflow', { id: created.id });
  });

  it('credentials: schema, create (secrets not echoed), list, delete', async () => {
    const schema = await ok('get_credential_schema', { credentialTypeName: 'httpHeaderAuth' });
    expect(JSON.stringify(schema)).toContain('value');
    const created = await ok('create_credential', { name: `Header ${stamp}`, type: 'httpHeaderAuth', data: { name: 'X-Key', value: 'very-secret-value' } });
    expect(JSON.stringify(created)).not.toContain('very-secret-value');
    // n8n 1.x has no GET /credentials (2.x added it): the tool says so rather than failing obscurely.
    const listed = await call('list_credentials');
    if (listed.isError) expect(listed.text).toMatch(/does not have GET \/api\/v1\/credentials \(405\): it needs a newer n8n/);
    else expect(listed.json.credentials.map((c: Json) => c.id)).toContain(created.id);
    expect(await ok('delete_credential', { id: created.id })).toMatchObject({ deleted: true });
  });

  it('users: list, invite, get, delete', async () => {
    const email = `member-${stamp}@example.com`;
    const invited = await ok('create_user', { email });
    expect(await ok('get_user', { id: email, includeRole: true })).toMatchObject({ email });
    expect((await ok('list_users')).users.map((u: Json) => u.email)).toContain(email);
    expect(await ok('delete_user', { id: invited.user.id })).toMatchObject({ deleted: true });
  });

  it('variables and projects: the plain answer a community n8n gives for unlicensed features', async () => {
    for (const [name, args] of [
      ['list_variables', {}],
      ['create_variable', { key: `k_${stamp}`, value: 'v' }],
      ['list_projects', {}],
      ['create_project', { name: `Team ${stamp}` }],
    ] as const) {
      const result = await call(name, args);
      if (result.isError) expect(result.text, name).toMatch(/plan does not include this feature \(403\)|license/i);
    }
  });

  it('audit: a security report', async () => {
    const report = await ok('get_audit_events', { categories: ['credentials', 'instance'] });
    expect(Object.keys(report).length).toBeGreaterThan(0);
  });
});
