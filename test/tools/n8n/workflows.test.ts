import { afterEach, describe, expect, inject, it } from 'vitest';
import { invokeTool } from '../../../src/server/runTool';
import { toolsFor } from '../../../src/server/registry';
import { loadCatalog } from '../../support/catalog';
import { directContext, renamedNode, SAMPLE_WORKFLOW, withN8n } from '../../support/hostile';
import { connect, n8nSpecs, node } from '../../support/n8nCatalog';
import { callDirect, fakeN8nApi, savedN8nWorkflow, sentToN8n } from '../../support/tools';
import { largeWorkflow } from '../../support/workflows';
import { ANSWER_BUDGET_BYTES } from '../../../src/config';
import { answerBytes } from '../../../src/protocol/answerBytes';

/** The workflow tools' answers about sub-workflows, in workerd against the fake n8n, with n8n's own node descriptions loaded. */
const n8nUrl = inject('n8nUrl');
const fake = (path: string, body?: unknown) =>
  fetch(`${n8nUrl}/__fake/${path}`, body === undefined ? {} : { method: 'POST', body: JSON.stringify(body) }).then((r) => r.json() as Promise<any>);

async function call(name: string, args: Record<string, unknown>) {
  const toolEnv = withN8n();
  const tool = toolsFor(toolEnv).find((t) => t.name === name)!;
  const result = await invokeTool(tool, tool.input.parse(args), directContext(toolEnv));
  const text = (result.content[0] as { text: string }).text;
  return { isError: result.isError === true, text, json: result.isError ? undefined : JSON.parse(text) };
}

/** A sub-workflow: started only by "When Executed by Another Workflow", taking `email` and `amount`. */
const subWorkflow = () => ({
  name: `Sub ${crypto.randomUUID()}`,
  nodes: [
    node('When Executed by Another Workflow', 'executeWorkflowTrigger', 1.1, {
      workflowInputs: { values: [{ name: 'email' }, { name: 'amount', type: 'number' }] },
    }),
    node('Result', 'set', 3.4, { assignments: { assignments: [{ id: 'a', name: 'ok', value: true, type: 'boolean' }] } }),
  ],
  connections: connect(['When Executed by Another Workflow', 'Result']),
  settings: {},
});

afterEach(() => fake('config', { faults: [] }));

describe('workflow tools and sub-workflows', () => {
  it('create_workflow says a sub-workflow is called, not activated; activate_workflow explains n8n refusing it in those words', async () => {
    await loadCatalog(n8nSpecs, ['n8n']);
    const created = await call('create_workflow', { workflow: subWorkflow() });
    expect(created.json).toMatchObject({ active: false, note: expect.stringContaining('called, not activated') });
    await fake('config', { faults: [{ request: `POST /api/v1/workflows/${created.json.id}/activate`, status: 400, times: 1 }] });
    const refused = await call('activate_workflow', { id: created.json.id });
    expect(refused.isError).toBe(true);
    expect(refused.text).toMatch(/\(400\).*"When Executed by Another Workflow".*called, not activated/s);
  });

  it('create_workflow with activate switches the workflow on; when n8n refuses, it is left created and inactive, and the answer says why', async () => {
    await loadCatalog(n8nSpecs, ['n8n']);
    const hook = () => ({
      name: `Hook ${crypto.randomUUID()}`,
      nodes: [node('Webhook', 'webhook', 2.1, { path: `p-${crypto.randomUUID()}`, httpMethod: 'POST' }, { webhookId: crypto.randomUUID() })],
      connections: {},
      settings: {},
    });
    const on = await call('create_workflow', { workflow: hook(), activate: true });
    expect(on.json).toMatchObject({ active: true });
    expect((await call('get_workflow', { id: on.json.id })).json.active).toBe(true);
    await fake('config', { faults: [{ request: 'POST /api/v1/workflows/*/activate', status: 400, times: 1 }] });
    const refused = await call('create_workflow', { workflow: hook(), activate: true });
    expect(refused.isError).toBe(false);
    expect(refused.json).toMatchObject({ active: false, activation_refused: expect.stringMatching(/\(400\).*activate_workflow/s) });
    expect((await call('get_workflow', { id: refused.json.id })).json.active).toBe(false);
  });

  it('create_workflow reads the called workflow from n8n and refuses a value sent to an input it does not define', async () => {
    await loadCatalog(n8nSpecs, ['n8n']);
    const sub = (await call('create_workflow', { workflow: subWorkflow() })).json;
    const caller = (value: Record<string, unknown>) => ({
      name: `Caller ${crypto.randomUUID()}`,
      nodes: [
        node('Manual', 'manualTrigger', 1),
        node('Call', 'executeWorkflow', 1.2, {
          workflowId: { __rl: true, mode: 'id', value: sub.id },
          workflowInputs: { mappingMode: 'defineBelow', value, matchingColumns: [], schema: [] },
          options: {},
        }),
      ],
      connections: connect(['Manual', 'Call']),
      settings: {},
    });
    const refused = await call('create_workflow', { workflow: caller({ mail: 'a@b.c', amount: 1 }) });
    expect(refused.isError).toBe(true);
    expect(JSON.parse(refused.text).errors).toContainEqual(expect.objectContaining({ code: 'subworkflow_input_unknown', node: 'Call' }));
    const saved = await call('create_workflow', { workflow: caller({ email: 'a@b.c', amount: 1 }) });
    expect(saved.isError).toBe(false);
  });
});

describe('list_workflows', () => {
  it('finds workflows by part of their name, in any case, as n8n matches it', async () => {
    const stamp = crypto.randomUUID();
    const names = [`Orders ${stamp} daily`, `Refunds ${stamp}`, `New orders ${stamp}`];
    const ids = [];
    for (const name of names) ids.push((await fakeN8nApi('POST', '/workflows', { name, nodes: [], connections: {}, settings: {} })).id);
    const found = async (name: string) => (await callDirect('list_workflows', { name })).json.workflows.map((w: { name: string }) => w.name).sort();
    expect(await found(`orders ${stamp}`)).toEqual([`New orders ${stamp}`, `Orders ${stamp} daily`]);
    expect(await found(stamp)).toEqual([...names].sort());
  });

  it('names the project that owns each workflow, reading one workflow per project; its owner only for a caller with users:read', async () => {
    const stamp = crypto.randomUUID();
    for (const name of ['A', 'B', 'C']) await fakeN8nApi('POST', '/workflows', { name: `Owned ${name} ${stamp}`, nodes: [], connections: {}, settings: {} });
    const { result, sent } = await sentToN8n(() => callDirect('list_workflows', { name: stamp }));
    expect(result.json.workflows.map((w: { project: unknown }) => w.project)).toEqual(
      Array(3).fill({ id: 'personalProject1', name: 'Ada Owner <owner@example.com>', type: 'personal' }),
    );
    // The listing, then one of its workflows for the project they share.
    expect(sent.map((r) => `${r.method} ${r.path.replace(/\/workflows\/\w+$/, '/workflows/{id}')}`)).toEqual(['GET /workflows', 'GET /workflows/{id}']);
    const withoutUsers = await callDirect('list_workflows', { name: stamp }, { scopes: ['workflows:read'] });
    expect(withoutUsers.json.workflows.map((w: { project: unknown }) => w.project)).toEqual(Array(3).fill({ id: 'personalProject1', type: 'personal' }));
    expect(withoutUsers.text).not.toContain('owner@example.com');
  });

  it('names a project by its id alone when the workflow read for it fails', async () => {
    const stamp = crypto.randomUUID();
    await fakeN8nApi('POST', '/workflows', { name: `Lone ${stamp}`, nodes: [], connections: {}, settings: {} });
    await fake('config', { faults: [{ request: 'GET /api/v1/workflows/*', status: 500, times: 1 }] });
    const listed = await callDirect('list_workflows', { name: stamp });
    expect(listed.json.workflows).toEqual([expect.objectContaining({ name: `Lone ${stamp}`, project: { id: 'personalProject1' } })]);
  });
});

describe('create_workflow and names that are special on JavaScript objects', () => {
  it('saves a node named "__proto__" with the connections it starts', async () => {
    await loadCatalog(n8nSpecs, ['n8n']);
    const workflow = renamedNode(SAMPLE_WORKFLOW, 'Build Order', '__proto__');
    const { id } = (await callDirect('create_workflow', JSON.parse(`{"workflow":${workflow},"force":true}`))).json;
    expect(Object.hasOwn((await savedN8nWorkflow(id)).connections, '__proto__')).toBe(true);
  });
});

describe('a workflow larger than one answer', () => {
  it('get_workflow answers its outline, each node with its size, and its nodes by name', async () => {
    const { id } = await fakeN8nApi('POST', '/workflows', largeWorkflow(`Large ${crypto.randomUUID()}`));
    const outline = await callDirect('get_workflow', { id });
    expect(outline.isError).toBe(false);
    expect(answerBytes({ content: [{ type: 'text', text: outline.text }] })).toBeLessThanOrEqual(ANSWER_BUDGET_BYTES);
    expect(outline.json).toMatchObject({
      id,
      answerTooLarge: expect.stringMatching(/^The answer is [\d,]+ bytes, .* read them with get_workflow and nodes \(names\)/),
    });
    expect(outline.json.nodes.map((n: { name: string; bytes: number }) => [n.name, n.bytes > 100_000])).toEqual([
      ['Start', false],
      ...Array.from({ length: 8 }, (_, i) => [`Code ${i + 1}`, true]),
    ]);
    const part = await callDirect('get_workflow', { id, nodes: ['Code 2', 'Code 3'] });
    expect(part.json.nodes).toEqual((await savedN8nWorkflow(id)).nodes.slice(2, 4));
    expect(part.json.partial).toMatch(/^Only 2 of the workflow's 9 nodes/);
  });
});
