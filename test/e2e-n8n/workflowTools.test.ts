import { describe, expect, inject, it } from 'vitest';
import { connectedClient, n8nApi as n8n, scopedKey, type Json } from './client';
import { webhookTrigger } from '../support/workflows';

/**
 * The workflow tools through the real SDK client, against `npm run dev` driving a real n8n 1.123.81:
 * everything a tool does is read back from n8n itself.
 */
const connected = connectedClient('e2e-real-n8n');
const { ok: call, refused: refusal } = connected;

const webhookPath = `orders-${Date.now()}`;
const ordersWorkflow = () => ({
  name: 'Orders (e2e)',
  nodes: [
    {
      name: 'Webhook',
      type: 'n8n-nodes-base.webhook',
      typeVersion: 2,
      webhookId: 'f0e1d2c3-0000-4000-8000-000000000001',
      position: [0, 0],
      parameters: { path: webhookPath, httpMethod: 'POST' },
    },
    {
      name: 'Is big',
      type: 'n8n-nodes-base.if',
      typeVersion: 2.2,
      position: [220, 0],
      parameters: {
        conditions: {
          options: { caseSensitive: true, leftValue: '', typeValidation: 'loose', version: 2 },
          conditions: [{ id: 'c1', leftValue: '={{ $json.body.total }}', rightValue: 100, operator: { type: 'number', operation: 'gt' } }],
          combinator: 'and',
        },
      },
    },
    {
      name: 'Big',
      type: 'n8n-nodes-base.set',
      typeVersion: 3.4,
      position: [440, -100],
      parameters: { assignments: { assignments: [{ id: 'a', name: 'size', value: 'big', type: 'string' }] } },
    },
    {
      name: 'Small',
      type: 'n8n-nodes-base.set',
      typeVersion: 3.4,
      position: [440, 100],
      parameters: { assignments: { assignments: [{ id: 'b', name: 'size', value: 'small', type: 'string' }] } },
    },
  ],
  connections: {
    Webhook: { main: [[{ node: 'Is big', type: 'main', index: 0 }]] },
    'Is big': { main: [[{ node: 'Big', type: 'main', index: 0 }], [{ node: 'Small', type: 'main', index: 0 }]] },
  },
  settings: { executionOrder: 'v1' },
});

describe('create, edit, activate and test-run a workflow on a real n8n', () => {
  let id = '';

  it('refuses to create an invalid workflow, saving nothing, and creates a valid one', async () => {
    const bad = ordersWorkflow();
    bad.nodes[1]!.typeVersion = 7;
    const before = (await n8n('GET', '/workflows')).data.length;
    const text = await refusal('create_workflow', { workflow: bad });
    expect(JSON.parse(text)).toMatchObject({ saved: false, errors: [{ code: 'invalid_type_version', node: 'Is big' }] });
    expect((await n8n('GET', '/workflows')).data.length).toBe(before);
    const created = await call('create_workflow', { workflow: ordersWorkflow() });
    id = created.id;
    expect((await n8n('GET', `/workflows/${id}`)).nodes.map((n: Json) => n.name)).toEqual(['Webhook', 'Is big', 'Big', 'Small']);
  });

  it('creates a workflow switched on in one call: its webhook answers at once', async () => {
    const path = `echo-${Date.now()}`;
    const created = await call('create_workflow', {
      workflow: {
        name: 'Echo (e2e)',
        nodes: [webhookTrigger(path, 'Hook', { responseMode: 'lastNode' }), { ...ordersWorkflow().nodes[2]!, name: 'Answer' }],
        connections: { Hook: { main: [[{ node: 'Answer', type: 'main', index: 0 }]] } },
        settings: { executionOrder: 'v1' },
      },
      activate: true,
    });
    expect(created).toMatchObject({ active: true });
    expect((await n8n('GET', `/workflows/${created.id}`)).active).toBe(true);
    const answer = await fetch(`${inject('realN8nUrl')}/webhook/${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
    expect(await answer.json()).toEqual({ size: 'big' });
    await n8n('POST', `/workflows/${created.id}/deactivate`);
  });

  it('applies each kind of operation, verified by reading the workflow back from n8n', async () => {
    const result = await call('edit_workflow', {
      id,
      operations: [
        {
          type: 'addNode',
          node: {
            name: 'Route',
            type: 'n8n-nodes-base.switch',
            typeVersion: 3.2,
            parameters: { mode: 'expression', numberOutputs: 2, output: '={{ $json.body.size === "big" ? 0 : 1 }}' },
          },
        },
        { type: 'rewireConnection', source: 'Is big', from: 'Small', to: 'Route', branch: 'false' },
        { type: 'addConnection', source: 'Route', target: 'Small', case: 1 },
        { type: 'updateNode', name: 'Big', changes: { parameters: { options: { ignoreConversionErrors: true } }, notes: 'orders over 100' } },
        { type: 'renameNode', name: 'Small', newName: 'Small order' },
        { type: 'moveNode', name: 'Route', position: [440, 220] },
        { type: 'addNode', node: { name: 'Spare', type: 'n8n-nodes-base.noOp', typeVersion: 1 } },
        { type: 'addConnection', source: 'Big', target: 'Spare' },
        { type: 'disableNode', name: 'Spare' },
        { type: 'updateSettings', settings: { timezone: 'Europe/Berlin' } },
        { type: 'updateName', name: 'Orders (e2e, edited)' },
        { type: 'addTag', tag: 'e2e' },
        { type: 'addTag', tag: 'orders' },
      ],
    });
    expect(result).toMatchObject({ saved: true, operations: 13, tags: ['e2e', 'orders'] });
    const saved = await n8n('GET', `/workflows/${id}`);
    const node = (name: string) => saved.nodes.find((n: Json) => n.name === name);
    expect(saved.name).toBe('Orders (e2e, edited)');
    expect(saved.settings).toMatchObject({ executionOrder: 'v1', timezone: 'Europe/Berlin' });
    expect(node('Route')).toMatchObject({ type: 'n8n-nodes-base.switch', position: [440, 220] });
    expect(node('Big')).toMatchObject({
      notes: 'orders over 100',
      parameters: { options: { ignoreConversionErrors: true }, assignments: { assignments: [{ name: 'size' }] } },
    });
    expect(node('Small order')).toBeDefined();
    expect(node('Spare')).toMatchObject({ disabled: true });
    expect(saved.connections['Is big'].main[1]).toEqual([{ node: 'Route', type: 'main', index: 0 }]);
    expect(saved.connections.Route.main[1]).toEqual([{ node: 'Small order', type: 'main', index: 0 }]);
    expect(saved.tags.map((t: Json) => t.name).sort()).toEqual(['e2e', 'orders']);

    const second = await call('edit_workflow', {
      id,
      operations: [
        { type: 'removeTag', tag: 'orders' },
        { type: 'removeConnection', source: 'Big', target: 'Spare' },
        { type: 'enableNode', name: 'Spare' },
        { type: 'removeNode', name: 'Spare' },
      ],
    });
    expect(second.saved).toBe(true);
    const after = await n8n('GET', `/workflows/${id}`);
    expect(after.nodes.map((n: Json) => n.name)).not.toContain('Spare');
    expect(after.connections.Big).toEqual({ main: [[]] });
    expect(after.tags.map((t: Json) => t.name)).toEqual(['e2e']);
  });

  it('refuses an edit that breaks the workflow, naming the operation, and leaves n8n’s copy byte-identical', async () => {
    const before = JSON.stringify(await n8n('GET', `/workflows/${id}`));
    const text = await refusal('edit_workflow', {
      id,
      operations: [
        { type: 'updateNode', name: 'Big', changes: { notes: 'fine' } },
        { type: 'addConnection', source: 'Big', target: 'Small order', sourceOutput: 3 },
      ],
    });
    expect(JSON.parse(text)).toMatchObject({
      saved: false,
      operation: { index: 1, type: 'addConnection' },
      errors: [{ code: 'output_index_out_of_range', node: 'Big' }],
    });
    expect(await refusal('edit_workflow', { id, operations: [{ type: 'removeNode', name: 'Nope' }] })).toMatch(
      /Operation 0 \(removeNode\) failed: no node named "Nope"/,
    );
    const preview = await call('edit_workflow', { id, operations: [{ type: 'updateName', name: 'Only a preview' }], validateOnly: true });
    expect(preview).toMatchObject({ saved: false, preview: true, workflow: { name: 'Only a preview' } });
    expect(JSON.stringify(await n8n('GET', `/workflows/${id}`))).toBe(before);
  });

  it('refuses to overwrite a change made in n8n since the workflow was read', async () => {
    const read = await call('get_workflow', { id });
    await n8n('PUT', `/workflows/${id}`, { name: 'Changed elsewhere', nodes: read.nodes, connections: read.connections, settings: read.settings });
    const text = await refusal('edit_workflow', { id, operations: [{ type: 'updateName', name: 'Mine' }], expectedVersionId: read.versionId });
    expect(text).toMatch(/has changed since the copy you started from/);
    expect((await n8n('GET', `/workflows/${id}`)).name).toBe('Changed elsewhere');
  });

  it('fixes a saved workflow through the same atomic edit', async () => {
    const broken = ordersWorkflow();
    broken.name = 'Broken (e2e)';
    (broken.nodes[2] as Json).parameters.assignments.assignments[0].value = 'Order {{ $json.body.id }}';
    const created = await call('create_workflow', { workflow: broken });
    const preview = await call('autofix_workflow', { workflow: broken });
    expect(preview.fixes).toEqual([expect.objectContaining({ kind: 'expression_prefix', applied: true })]);
    const fixed = await call('edit_workflow', { id: created.id, operations: [], autofix: true });
    expect(fixed).toMatchObject({ saved: true, fixes: [expect.stringContaining('"=" added')] });
    const saved = await n8n('GET', `/workflows/${created.id}`);
    expect(saved.nodes[2].parameters.assignments.assignments[0].value).toBe('=Order {{ $json.body.id }}');
    await call('delete_workflow', { id: created.id });
  });

  it('test-runs the workflow through its webhook, the per-node result matching the execution n8n stored', async () => {
    const run = await call('test_workflow', { id, payload: { total: 250, id: 'A-1' } });
    expect(run.workflow.activatedForTheRun).toBe(true);
    expect(run.trigger).toMatchObject({ node: 'Webhook', status: 200 });
    expect(run.execution.status).toBe('success');
    const stored = await n8n('GET', `/executions/${run.execution.id}?includeData=true`);
    const runData = stored.data.resultData.runData;
    expect(run.execution.nodes.map((n: Json) => n.node).sort()).toEqual(Object.keys(runData).sort());
    for (const node of run.execution.nodes) {
      const last = runData[node.node].at(-1);
      // A node with several outputs has them labelled, in n8n's order.
      expect(node.items ?? node.outputs.map((o: Json) => o.count)).toEqual(last.data.main.map((items: unknown[] | null) => (items ?? []).length));
    }
    expect(run.execution.nodes.find((n: Json) => n.node === 'Is big').outputs).toEqual([
      { name: 'true', count: 1 },
      { name: 'false', count: 0 },
    ]);
    expect(run.execution.nodes.find((n: Json) => n.node === 'Big')).toMatchObject({ status: 'success', items: [1], sample: { size: 'big' } });
    expect((await n8n('GET', `/workflows/${id}`)).active).toBe(false);
  });

  it('test-runs a Form trigger (fields by label) and a Chat trigger', async () => {
    const created = await call('create_workflow', {
      workflow: {
        name: 'Form and chat (e2e)',
        nodes: [
          {
            name: 'Form',
            type: 'n8n-nodes-base.formTrigger',
            typeVersion: 2.2,
            webhookId: 'c0ffee00-0000-4000-8000-000000000001',
            position: [0, 0],
            parameters: { formTitle: 'Sign up', formFields: { values: [{ fieldLabel: 'Name' }, { fieldLabel: 'Team' }] } },
          },
          {
            name: 'Chat',
            type: '@n8n/n8n-nodes-langchain.chatTrigger',
            typeVersion: 1.1,
            webhookId: 'c0ffee00-0000-4000-8000-000000000002',
            position: [0, 200],
            parameters: { public: true, mode: 'hostedChat', options: {} },
          },
        ],
        connections: {},
      },
    });
    const form = await call('test_workflow', { id: created.id, trigger: 'Form', payload: { Name: 'Ada', Team: 'Core' } });
    expect(form.trigger).toMatchObject({ node: 'Form', status: 200 });
    expect(form.execution).toMatchObject({ status: 'success', nodes: [{ node: 'Form', status: 'success', sample: { Name: 'Ada', Team: 'Core' } }] });
    const chat = await call('test_workflow', { id: created.id, trigger: 'Chat', payload: { chatInput: 'hello' } });
    expect(chat.execution).toMatchObject({ status: 'success', nodes: [{ node: 'Chat', status: 'success', sample: { chatInput: 'hello' } }] });
    await call('delete_workflow', { id: created.id });
  });

  it('answers a run paused at a Wait node as waiting, where and until when, not as an execution it could not find', async () => {
    const path = `wait-${Date.now()}`;
    const created = await call('create_workflow', {
      workflow: {
        name: 'Waits (e2e)',
        nodes: [
          webhookTrigger(path),
          // n8n keeps a wait of 65 s or more as a waiting execution (shorter ones wait inside the running one).
          {
            name: 'Wait',
            type: 'n8n-nodes-base.wait',
            typeVersion: 1.1,
            position: [220, 0],
            parameters: { resume: 'timeInterval', amount: 5, unit: 'minutes' },
          },
          { name: 'After', type: 'n8n-nodes-base.noOp', typeVersion: 1, position: [440, 0], parameters: {} },
        ],
        connections: { Hook: { main: [[{ node: 'Wait', type: 'main', index: 0 }]] }, Wait: { main: [[{ node: 'After', type: 'main', index: 0 }]] } },
        settings: { executionOrder: 'v1' },
      },
    });
    const run = await call('test_workflow', { id: created.id, payload: { n: 1 }, waitSeconds: 20 });
    expect(run.execution).toMatchObject({ status: 'waiting', verdict: expect.stringMatching(/^waiting: the run is paused at "Wait" until \d{4}-/) });
    expect(run.execution).not.toHaveProperty('didNotRun');
    expect((await n8n('GET', `/executions/${run.execution.id}`)).status).toBe('waiting');
    await call('delete_workflow', { id: created.id });
  });

  it('says so when a workflow has no trigger it can call', async () => {
    const manual = await call('create_workflow', {
      workflow: {
        name: 'Manual (e2e)',
        nodes: [{ name: 'Start', type: 'n8n-nodes-base.manualTrigger', typeVersion: 1, position: [0, 0], parameters: {} }],
        connections: {},
      },
    });
    expect(await refusal('test_workflow', { id: manual.id })).toMatch(/no trigger that can be called from outside.*Start \(n8n-nodes-base.manualTrigger\)/);
    await call('delete_workflow', { id: manual.id });
  });
});

describe('what a call cannot reach or leave behind, on a real n8n', () => {
  const narrow = connectedClient('e2e-real-n8n-narrow', scopedKey('e2e-workflows-only', 'workflows:read,workflows:write,executions:read'));

  it('puts a workflow it activated for a test run back when the call is cancelled mid-run', async () => {
    const path = `slow-${Date.now()}`;
    const created = await call('create_workflow', {
      workflow: {
        name: 'Slow (e2e)',
        nodes: [
          // Answers when the last node is done: 30 s after the Wait, so the trigger's request is still open when the call is cancelled.
          {
            name: 'Webhook',
            type: 'n8n-nodes-base.webhook',
            typeVersion: 2,
            webhookId: 'f0e1d2c3-0000-4000-8000-00000000510e',
            position: [0, 0],
            parameters: { path, httpMethod: 'POST', responseMode: 'lastNode' },
          },
          {
            name: 'Wait',
            type: 'n8n-nodes-base.wait',
            typeVersion: 1.1,
            webhookId: 'f0e1d2c3-0000-4000-8000-00000000510f',
            position: [220, 0],
            parameters: { resume: 'timeInterval', amount: 30, unit: 'seconds' },
          },
        ],
        connections: { Webhook: { main: [[{ node: 'Wait', type: 'main', index: 0 }]] } },
      },
    });
    const cancel = new AbortController();
    const running = connected.call('test_workflow', { id: created.id, waitSeconds: 60 }, cancel.signal).catch((error: Error) => error);
    // Cancelled once n8n runs it (activated, its trigger called).
    await until(
      async () =>
        (await n8n('GET', `/executions?workflowId=${created.id}&status=waiting`)).data.length +
          (await n8n('GET', `/executions?workflowId=${created.id}&status=running`)).data.length >
        0,
    );
    expect((await n8n('GET', `/workflows/${created.id}`)).active).toBe(true);
    cancel.abort();
    expect(await running).toBeInstanceOf(Error);
    await until(async () => (await n8n('GET', `/workflows/${created.id}`)).active === false);
    expect((await n8n('GET', `/workflows/${created.id}`)).active).toBe(false);
    await call('delete_workflow', { id: created.id });
  });

  it('refuses a trigger path that would leave /webhook/ (n8n would answer with its settings), and activates nothing', async () => {
    const created = await call('create_workflow', {
      workflow: {
        name: 'Escape (e2e)',
        nodes: [
          {
            name: 'Webhook',
            type: 'n8n-nodes-base.webhook',
            typeVersion: 2,
            webhookId: 'f0e1d2c3-0000-4000-8000-0000000e5ca9',
            position: [0, 0],
            parameters: { path: '../rest/settings' },
          },
        ],
        connections: {},
      },
      force: true,
    });
    const text = await refusal('test_workflow', { id: created.id, waitSeconds: 1 });
    expect(text).toMatch(/trigger "Webhook" would be called at "\/webhook\/\.\.\/rest\/settings", which is not a path under n8n's \/webhook\//);
    expect(text).not.toMatch(/settingsMode|userManagement/);
    expect((await n8n('GET', `/workflows/${created.id}`)).active).toBe(false);
    await call('delete_workflow', { id: created.id });
  });

  it('refuses an id n8n would read as another path ("." lists every workflow)', async () => {
    expect(await refusal('get_workflow', { id: '.' })).toMatch(/a workflow id is 1 to 36 letters and digits/);
    expect(await refusal('get_workflow_tags', { workflowId: '..' })).toMatch(/a workflow id is 1 to 36 letters and digits/);
  });

  it('shows a key without users:read no one’s e-mail or name; the server’s own key (every scope) sees them', async () => {
    const { id } = await call('create_workflow', { workflow: { name: 'Owned (e2e)', nodes: [], connections: {} } });
    const seen = await narrow.call('get_workflow', { id });
    expect(seen.isError).toBe(false);
    expect(seen.json.shared[0]).toMatchObject({ role: 'workflow:owner', project: { type: 'personal' } });
    expect(seen.text).not.toMatch(/owner@example\.com|Test Owner|"firstName"|"mfaEnabled"|"lastActiveAt"/);
    expect((await call('get_workflow', { id })).shared[0].project.projectRelations[0].user).toMatchObject({ email: 'owner@example.com', firstName: 'Test' });
    await call('delete_workflow', { id });
  });
});

/** Polls `check` every half second for up to 20 s. */
async function until(check: () => Promise<boolean>): Promise<void> {
  for (const end = Date.now() + 20_000; Date.now() < end; await new Promise((resolve) => setTimeout(resolve, 500))) if (await check()) return;
}
