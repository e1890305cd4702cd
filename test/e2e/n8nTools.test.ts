import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { SSEClientTransport } from '@modelcontextprotocol/sdk/client/sse.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { connectWithKey, keysCli, withKey } from './auth';
import { N8N_TEST_KEY } from './wranglerDev';

/**
 * The 31 n8n tools through real MCP SDK clients, on both transports, against `wrangler dev` (queued
 * through local Cloudflare Queues) and a fake n8n that enforces n8n's own OpenAPI document.
 */
const baseUrl = inject('baseUrl');
const n8nUrl = inject('n8nUrl');

const N8N_TOOLS = [
  'list_workflows',
  'get_workflow',
  'create_workflow',
  'update_workflow',
  'delete_workflow',
  'activate_workflow',
  'deactivate_workflow',
  'list_executions',
  'get_execution',
  'delete_execution',
  'list_credentials',
  'get_credential_schema',
  'create_credential',
  'delete_credential',
  'list_tags',
  'create_tag',
  'update_tag',
  'delete_tag',
  'get_workflow_tags',
  'update_workflow_tags',
  'list_users',
  'get_user',
  'create_user',
  'delete_user',
  'list_variables',
  'create_variable',
  'delete_variable',
  'list_projects',
  'create_project',
  'delete_project',
  'get_audit_events',
];

const fake = async (path: string, body?: unknown) =>
  (await fetch(`${n8nUrl}/__fake/${path}`, body === undefined ? {} : { method: 'POST', body: JSON.stringify(body) })).json() as Promise<any>;

const TRANSPORTS = {
  'Streamable HTTP': () => new StreamableHTTPClientTransport(new URL('/mcp', baseUrl), withKey),
  'HTTP+SSE': () => new SSEClientTransport(new URL('/sse', baseUrl), withKey),
};

afterAll(async () => {
  // Every request our tools sent was one n8n's OpenAPI allows, and every answer was one n8n could give.
  expect(await fake('violations')).toEqual([]);
});

describe.each(Object.entries(TRANSPORTS))('n8n tools over %s', (transportName, transport) => {
  let client: Client;
  beforeAll(async () => {
    client = new Client({ name: `e2e-n8n-${transportName}`, version: '1.0.0' });
    await client.connect(transport());
  });
  afterAll(() => client.close());

  async function call(name: string, args: Record<string, unknown> = {}) {
    const result = (await client.callTool({ name, arguments: args })) as CallToolResult;
    const text = result.content.map((c) => (c.type === 'text' ? c.text : '')).join('');
    return { result, text, json: result.isError ? undefined : (JSON.parse(text) as any) };
  }
  async function ok(name: string, args: Record<string, unknown> = {}) {
    const answer = await call(name, args);
    expect(answer.result.isError, `${name}: ${answer.text}`).toBeFalsy();
    return answer.json;
  }
  async function refused(name: string, args: Record<string, unknown>, message: RegExp) {
    const { result, text } = await call(name, args);
    expect(result.isError).toBe(true);
    expect(text).toMatch(message);
  }

  it('lists all 31 with flat input schemas and truthful annotations', async () => {
    const { tools } = await client.listTools();
    const byName = new Map(tools.map((t) => [t.name, t]));
    for (const name of N8N_TOOLS) {
      const tool = byName.get(name);
      expect(tool, name).toBeDefined();
      expect(tool!.title).toBeTruthy();
      const schema = JSON.stringify(tool!.inputSchema);
      expect(tool!.inputSchema.type).toBe('object');
      expect(schema).not.toMatch(/"\$ref"|"\$defs"/);
      expect(Object.keys(tool!.inputSchema)).not.toContain('anyOf');
      expect(Object.keys(tool!.inputSchema)).not.toContain('oneOf');
      const a = tool!.annotations!;
      if (/^(list|get)_/.test(name)) expect(a.readOnlyHint, name).toBe(true);
      if (name.startsWith('delete_')) expect(a).toMatchObject({ readOnlyHint: false, destructiveHint: true });
      expect(a.openWorldHint).toBe(true);
    }
  });

  it('round-trips a workflow: what get_workflow returns, update_workflow takes', async () => {
    const created = await ok('create_workflow', {
      workflow: {
        name: `Flow ${transportName}`,
        nodes: [
          { name: 'Webhook', type: 'n8n-nodes-base.webhook', typeVersion: 2, position: [0, 0], parameters: { path: 'x' } },
          { name: 'Set', type: 'n8n-nodes-base.set', typeVersion: 3.4, position: [200, 0], parameters: {} },
        ],
        connections: { Webhook: { main: [[{ node: 'Set', type: 'main', index: 0 }]] } },
      },
    });
    expect(created).toMatchObject({ name: `Flow ${transportName}`, active: false, nodes: 2 });
    const full = await ok('get_workflow', { id: created.id });
    // The whole object, read-only fields (id, active, tags, versionId, shared…) and all, as an agent sends it back.
    full.name = `Flow ${transportName} v2`;
    full.nodes[1].parameters = { mode: 'raw' };
    expect(await ok('update_workflow', { workflow: full })).toMatchObject({ id: created.id, name: `Flow ${transportName} v2` });
    expect((await ok('get_workflow', { id: created.id })).nodes[1].parameters).toEqual({ mode: 'raw' });

    expect(await ok('activate_workflow', { id: created.id })).toMatchObject({ active: true });
    expect((await ok('list_workflows', { active: true, name: `Flow ${transportName} v2` })).workflows).toEqual([
      expect.objectContaining({ id: created.id, active: true }),
    ]);
    expect(await ok('deactivate_workflow', { id: created.id })).toMatchObject({ active: false });

    const tag = await ok('create_tag', { name: `t-${transportName}`.slice(0, 24) });
    expect((await ok('update_workflow_tags', { workflowId: created.id, tagIds: [tag.id] })).tags).toEqual([tag]);
    expect((await ok('get_workflow_tags', { workflowId: created.id })).tags).toEqual([tag]);
    expect((await ok('list_workflows', { tags: tag.name })).workflows.map((w: any) => w.id)).toEqual([created.id]);
    expect(await ok('update_tag', { id: tag.id, name: `u-${transportName}`.slice(0, 24) })).toMatchObject({ id: tag.id });
    expect(await ok('delete_tag', { id: tag.id })).toMatchObject({ deleted: true, id: tag.id });

    expect(await ok('delete_workflow', { id: created.id })).toMatchObject({ deleted: true, id: created.id });
    await refused('get_workflow', { id: created.id }, /Not found \(404\)/);
  });

  it('pages through a list with nextCursor', async () => {
    const names = ['a', 'b', 'c'].map((n) => `page-${n}-${transportName.length}`);
    const ids = [];
    for (const name of names) ids.push((await ok('create_tag', { name })).id);
    const seen: string[] = [];
    let cursor: string | undefined;
    let pages = 0;
    do {
      const page = await ok('list_tags', { limit: 2, ...(cursor ? { cursor } : {}) });
      expect(page.tags.length).toBeLessThanOrEqual(2);
      seen.push(...page.tags.map((t: any) => t.id));
      cursor = page.nextCursor;
      pages++;
    } while (cursor);
    expect(pages).toBeGreaterThanOrEqual(2);
    expect(seen).toEqual(expect.arrayContaining(ids));
    expect(new Set(seen).size).toBe(seen.length);
    for (const id of ids) await ok('delete_tag', { id });
  });

  it('lists, reads (trimmed unless asked) and deletes executions', async () => {
    const workflow = await ok('create_workflow', { workflow: { name: `Runs ${transportName}`, nodes: [], connections: {} } });
    const { id } = await fake('executions', { workflowId: workflow.id, status: 'error', items: 300 });
    const listed = await ok('list_executions', { workflowId: workflow.id, status: 'error' });
    expect(listed.executions.map((e: any) => e.id)).toEqual([id]);
    const trimmed = await ok('get_execution', { id, includeData: true });
    expect(trimmed.dataTrimmed).toMatch(/fullData: true/);
    expect(trimmed.data.resultData.nodes).toEqual([expect.objectContaining({ node: 'Start', runs: 1, items: [300] })]);
    const full = await ok('get_execution', { id, includeData: true, fullData: true });
    expect(full.data.resultData.runData.Start[0].data.main[0]).toHaveLength(300);
    expect(await ok('delete_execution', { id })).toEqual({ deleted: true, id });
    await refused('get_execution', { id }, /Not found \(404\)/);
    await ok('delete_workflow', { id: workflow.id });
  });

  it('stores credentials without echoing their secrets', async () => {
    const schema = await ok('get_credential_schema', { credentialTypeName: 'githubApi' });
    expect(schema.required).toEqual(['accessToken']);
    const secret = `ghp_${transportName.length}secretvalue`;
    const { text, json: created } = await call('create_credential', { name: 'GitHub', type: 'githubApi', data: { accessToken: secret } });
    expect(text).not.toContain(secret);
    expect(created).toMatchObject({ name: 'GitHub', type: 'githubApi' });
    const { text: listed } = await call('list_credentials');
    expect(listed).toContain(created.id);
    expect(listed).not.toContain(secret);
    expect(await ok('delete_credential', { id: created.id })).toMatchObject({ deleted: true, id: created.id });
    await refused('delete_credential', { id: created.id }, /Not found/);
  });

  it('manages users, variables and projects, and runs the audit', async () => {
    const email = `new-${transportName.length}@example.com`;
    const invited = await ok('create_user', { email });
    expect(invited.user).toMatchObject({ email });
    expect(await ok('get_user', { id: email, includeRole: true })).toMatchObject({ email, role: 'global:member' });
    expect((await ok('list_users')).users.map((u: any) => u.email)).toContain(email);
    expect(await ok('delete_user', { id: invited.user.id })).toEqual({ deleted: true, id: invited.user.id });

    const key = `KEY_${transportName.length}`;
    await ok('create_variable', { key, value: 'v' });
    const variable = (await ok('list_variables')).variables.find((v: any) => v.key === key);
    expect(variable).toMatchObject({ key, value: 'v' });
    expect(await ok('delete_variable', { id: variable.id })).toEqual({ deleted: true, id: variable.id });

    const project = await ok('create_project', { name: `Team ${transportName}` });
    expect((await ok('list_projects')).projects.map((p: any) => p.id)).toContain(project.id);
    expect(await ok('delete_project', { id: project.id })).toEqual({ deleted: true, id: project.id });

    expect(Object.keys(await ok('get_audit_events', { categories: ['credentials', 'instance'] }))).toContain('Credentials Risk Report');
  });

  it('names the field of an invalid argument', async () => {
    await refused('create_variable', { key: '1starts-with-a-digit', value: 'v' }, /key/);
    await refused('list_workflows', { limit: 1000 }, /limit/);
  });

  it('says plainly when the key is wrong, a feature is not licensed, or n8n is too old', async () => {
    await fake('config', { apiKey: 'rotated' });
    try {
      await refused('list_workflows', {}, /rejected the API key \(401\)/);
    } finally {
      await fake('config', { apiKey: N8N_TEST_KEY });
    }
    await fake('config', { unlicensed: ['feat:variables'] });
    try {
      await refused('list_variables', {}, /plan does not include this feature \(403\).*feat:variables/);
    } finally {
      await fake('config', { unlicensed: [] });
    }
    await fake('config', { missing: ['GET /credentials'] });
    try {
      await refused('list_credentials', {}, /does not have GET \/api\/v1\/credentials \(404\): it needs a newer n8n/);
    } finally {
      await fake('config', { missing: [] });
    }
  });
});

/**
 * What n8n says of people (its answers embed the project's members, a personal project is named after
 * its owner, a published version names its authors) needs users:read, whichever way the call runs:
 * queued from a session, in the Worker for a 2026-07-28 request, or as a task.
 */
describe('user data in n8n answers needs users:read', () => {
  const PERSONAL = /owner@example\.com|Ada Owner|"firstName"|"mfaEnabled"|"lastActiveAt"/;
  const keys: Record<string, string> = {};
  let workflowId = '';

  const session = (key: string) => connectWithKey(key, 'e2e-user-data');

  /** A 2026-07-28 tools/call: run in the Worker, or as a task (polled to its result) when `asTask`. */
  async function modernCall(key: string, name: string, args: Record<string, unknown>, asTask: boolean): Promise<string> {
    const capabilities = asTask ? { extensions: { 'io.modelcontextprotocol/tasks': {} } } : {};
    const request = async (method: string, params: Record<string, unknown>) => {
      const response = await fetch(new URL('/mcp', baseUrl), {
        method: 'POST',
        headers: {
          authorization: `Bearer ${key}`,
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          'mcp-protocol-version': '2026-07-28',
          'mcp-method': method,
          'mcp-name': String(params.name ?? params.taskId),
        },
        body: JSON.stringify({
          jsonrpc: '2.0',
          id: 1,
          method,
          params: { ...params, _meta: { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': capabilities } },
        }),
      });
      return ((await response.json()) as { result: any }).result;
    };
    let result = await request('tools/call', { name, arguments: args });
    while (result.resultType === 'task' || result.status === 'working') {
      await new Promise((resolve) => setTimeout(resolve, 200));
      result = await request('tasks/get', { taskId: result.taskId });
    }
    const answer = result.result ?? result;
    expect(answer.isError, JSON.stringify(answer)).toBeFalsy();
    return answer.content[0].text;
  }

  beforeAll(async () => {
    for (const [name, scopes] of [
      ['n8n-no-users', 'workflows:read,workflows:write,projects:read'],
      ['n8n-with-users', 'workflows:read,projects:read,users:read'],
    ] as const) {
      const created = keysCli('create', '--name', name, '--scopes', scopes);
      expect(created.status, created.stderr).toBe(0);
      keys[name] = created.stdout;
    }
    const client = await session(keys['n8n-no-users']!);
    const created = await client.callTool({
      name: 'create_workflow',
      arguments: {
        workflow: {
          name: 'Owned',
          nodes: [{ name: 'Hook', type: 'n8n-nodes-base.webhook', typeVersion: 2, position: [0, 0], parameters: { path: 'owned' } }],
          connections: {},
        },
      },
    });
    workflowId = JSON.parse((created as CallToolResult).content.map((c) => (c.type === 'text' ? c.text : '')).join('')).id;
    // Published, its version names its authors.
    expect((await client.callTool({ name: 'activate_workflow', arguments: { id: workflowId } })).isError).toBeFalsy();
    await client.close();
  }, 60_000);

  it('cuts it from get_workflow and list_projects for a key without users:read, in a session (queued)', async () => {
    const client = await session(keys['n8n-no-users']!);
    const text = async (name: string, args: Record<string, unknown>) =>
      ((await client.callTool({ name, arguments: args })) as CallToolResult).content.map((c) => (c.type === 'text' ? c.text : '')).join('');
    const workflow = await text('get_workflow', { id: workflowId });
    expect(JSON.parse(workflow)).toMatchObject({ id: workflowId, shared: [{ role: 'workflow:owner', project: { id: 'personalProject1', type: 'personal' } }] });
    expect(workflow).not.toMatch(PERSONAL);
    const projects = await text('list_projects', {});
    expect(JSON.parse(projects).projects).toContainEqual(expect.objectContaining({ id: 'personalProject1', type: 'personal' }));
    expect(projects).not.toMatch(PERSONAL);
    await client.close();
  });

  it('cuts it for a 2026-07-28 request run in the Worker and for one run as a task', async () => {
    for (const asTask of [false, true]) {
      const workflow = await modernCall(keys['n8n-no-users']!, 'get_workflow', { id: workflowId }, asTask);
      expect(JSON.parse(workflow).id).toBe(workflowId);
      expect(workflow, asTask ? 'task' : 'in the Worker').not.toMatch(PERSONAL);
    }
  });

  it('passes it on to a key with users:read', async () => {
    for (const asTask of [false, true]) {
      const workflow = await modernCall(keys['n8n-with-users']!, 'get_workflow', { id: workflowId }, asTask);
      expect(JSON.parse(workflow).shared[0].project.projectRelations[0].user).toMatchObject({ email: 'owner@example.com', firstName: 'Ada' });
    }
    const client = await session(keys['n8n-with-users']!);
    const projects = (await client.callTool({ name: 'list_projects', arguments: {} })) as CallToolResult;
    expect(JSON.stringify(projects.content)).toContain('Ada Owner <owner@example.com>');
    await client.close();
  });
});

/** Ids and trigger paths are checked before they go into a URL: none reaches past what it names. */
describe('ids and trigger paths that would reach elsewhere', () => {
  let client: Client;
  beforeAll(async () => {
    client = new Client({ name: 'e2e-n8n-paths', version: '1.0.0' });
    await client.connect(TRANSPORTS['Streamable HTTP']());
  });
  afterAll(() => client.close());
  const text = async (name: string, args: Record<string, unknown>) => {
    const result = (await client.callTool({ name, arguments: args })) as CallToolResult;
    return { isError: result.isError === true, text: result.content.map((c) => (c.type === 'text' ? c.text : '')).join('') };
  };

  it("refuses an id that is not one of n8n's, sending nothing", async () => {
    const before = (await fake('requests')).length;
    for (const [name, args] of [
      ['get_workflow', { id: '.' }],
      ['delete_workflow', { id: '..' }],
      ['get_workflow_tags', { workflowId: '../credentials' }],
      ['delete_credential', { id: '%2e%2e' }],
      ['get_credential_schema', { credentialTypeName: '..' }],
      ['get_execution', { id: '1/../../workflows' }],
      ['get_user', { id: '..' }],
    ] as const) {
      const answer = await text(name, args);
      expect(answer.isError, name).toBe(true);
      expect(answer.text, name).toMatch(/Input validation error.*(is 1 to 36 letters and digits|is a number|UUID\) or its e-mail|credential type is a name)/s);
    }
    expect((await fake('requests')).slice(before)).toEqual([]);
  });

  it('refuses to call a trigger whose path leaves /webhook/, before activating anything', async () => {
    const created = JSON.parse(
      (
        await text('create_workflow', {
          workflow: {
            name: 'Escape',
            nodes: [
              {
                name: 'Webhook',
                type: 'n8n-nodes-base.webhook',
                typeVersion: 2,
                webhookId: '5e5e5e5e-0000-4000-8000-000000000001',
                position: [0, 0],
                parameters: { path: '../rest/settings' },
              },
            ],
            connections: {},
          },
          force: true,
        })
      ).text,
    );
    const before = (await fake('requests')).length;
    const answer = await text('test_workflow', { id: created.id, waitSeconds: 1 });
    expect(answer).toMatchObject({
      isError: true,
      text: expect.stringMatching(/trigger "Webhook" would be called at "\/webhook\/..\/rest\/settings", which is not a path under n8n's \/webhook\//),
    });
    // It read the workflow, and neither activated it nor sent anything to the trigger.
    expect((await fake('requests')).slice(before)).toEqual([`GET /api/v1/workflows/${created.id}`]);
    await text('delete_workflow', { id: created.id });
  });
});

/**
 * n8n failing (5xx, 429, unreachable) may pass: a read is retried through the queue; a change is not
 * repeated once it was sent, since n8n may have made it: the answer says to check first.
 */
describe('n8n failures that may pass', () => {
  let client: Client;
  beforeAll(async () => {
    client = new Client({ name: 'e2e-n8n-faults', version: '1.0.0' });
    await client.connect(TRANSPORTS['Streamable HTTP']());
  });
  afterAll(async () => {
    await fake('config', { faults: [] });
    await client.close();
  });
  const answer = async (name: string, args: Record<string, unknown>) => {
    const result = (await client.callTool({ name, arguments: args })) as CallToolResult;
    return { isError: result.isError === true, text: result.content.map((c) => (c.type === 'text' ? c.text : '')).join('') };
  };
  const sent = async (request: string, since: number) => (await fake('requests')).slice(since).filter((r: string) => r.split('?')[0] === request).length;

  it('retries a read n8n failed once, and answers it', async () => {
    const created = JSON.parse((await answer('create_workflow', { workflow: { name: 'Flaky read', nodes: [], connections: {} } })).text);
    const before = (await fake('requests')).length;
    await fake('config', { faults: [{ request: `GET /api/v1/workflows/${created.id}`, status: 503, times: 1 }] });
    expect(await answer('get_workflow', { id: created.id })).toMatchObject({ isError: false, text: expect.stringContaining(created.id) });
    expect(await sent(`GET /api/v1/workflows/${created.id}`, before)).toBe(2);
    await answer('delete_workflow', { id: created.id });
  });

  it('does not repeat a create that n8n failed after it was sent, and says to check with list_workflows', async () => {
    const before = (await fake('requests')).length;
    await fake('config', { faults: [{ request: 'POST /api/v1/workflows', status: 503, times: 1 }] });
    const created = await answer('create_workflow', { workflow: { name: 'Sent once', nodes: [], connections: {} } });
    expect(created.isError).toBe(true);
    expect(created.text).toMatch(
      /n8n failed on POST \/api\/v1\/workflows \(503\): Service Unavailable\. create_workflow had already sent its change, so whether it was made is unknown; it was not repeated\. Check with list_workflows/,
    );
    expect(await sent('POST /api/v1/workflows', before)).toBe(1);
  });
});

/**
 * Queued calls of two callers: one that runs a workflow in n8n and waits for it is consumed from a
 * queue of its own (src/server/policy.ts runsLong), so the other's short call is not held behind it.
 */
describe('a short call beside another caller’s long one', () => {
  it('list_workflows is answered while another caller’s try_nodes still waits for its run', async () => {
    const created = keysCli('create', '--name', 'e2e-short-caller', '--scopes', 'workflows:read');
    expect(created.status, created.stderr).toBe(0);
    const long = await connectWithKey(inject('apiKey'), 'e2e-long-caller');
    const short = await connectWithKey(created.stdout, 'e2e-short-caller');
    const webhookCalls = async () => (await fake('requests')).filter((r: string) => r.startsWith('POST /webhook/try-nodes-')).length;
    // n8n answers the throwaway workflow's webhook after 8 s, as a run that takes that long.
    await fake('config', { webhookDelayMs: 8000 });
    try {
      const before = await webhookCalls();
      let tried = false;
      const trying = long.callTool({
        name: 'try_nodes',
        arguments: { nodes: [{ name: 'Pass', type: 'n8n-nodes-base.noOp', typeVersion: 1, parameters: {} }] },
      });
      void trying.finally(() => (tried = true));
      // try_nodes is running once n8n has its webhook call.
      while ((await webhookCalls()) === before) await new Promise((resolve) => setTimeout(resolve, 100));
      const listed = (await short.callTool({ name: 'list_workflows', arguments: {} })) as CallToolResult;
      expect(listed.isError).toBeFalsy();
      expect(tried).toBe(false);
      expect(((await trying) as CallToolResult).isError).toBeFalsy();
    } finally {
      await fake('config', { webhookDelayMs: 0 });
      await long.close();
      await short.close();
    }
  }, 60_000);
});
