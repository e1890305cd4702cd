/**
 * Issue 41's isolation rules, one test each, through the real Worker: a key or grant of one workspace
 * never reaches another's connections, sessions, tasks, queued calls, history, stored tests or node
 * policy; removing a connection or a workspace revokes what used it; rate limits count per workspace as
 * well as per key. Every refusal sits beside its positive control (the owner's own call goes through).
 * Both workspaces' connections are the contract fake of n8n (one instance): two workspaces on one n8n is
 * where the server's own keeping (history, tests) must hold them apart.
 */
import { env } from 'cloudflare:workers';
import { afterAll, beforeAll, describe, expect, inject, it, vi } from 'vitest';
import type { Env } from '../../src/env';
import type { Scope } from '../../src/auth/scopes';
import { removeConnection, saveConnection } from '../../src/workspaces/connections';
import { keyRing } from '../../src/workspaces/secretBox';
import { newWorkspace, putWorkspace, workspaceKvName, type WorkspaceRecord } from '../../src/workspaces/workspaces';
import { loadCatalog } from '../support/catalog';
import { bearer, createKey } from '../support/keys';
import { openSession, postJson, sessionHeaders } from '../support/mcp';
import { modern, modernCallWith, withTasks } from '../support/modern';
import { tokensFor } from '../support/oauth';
import { deliverRun, startTask, taskWaitingOn } from '../support/tasks';
import { SAMPLE_WORKFLOW } from '../support/hostile';

const n8nUrl = inject('n8nUrl');
const n8nKey = inject('n8nKey');
const CONNECTION_KEYS = `k1:${btoa(String.fromCharCode(...crypto.getRandomValues(new Uint8Array(32))))}`;
/** Workspaces on; records read on every use, so a removal shows at once (a deployment keeps them 30 s). */
const vars: Partial<Env> = { CONNECTION_KEYS, API_KEY_CACHE_SECONDS: '0' };

/** A workspace with one connection to the fake n8n, named `connection`, and a key of it. */
async function workspace(connection: string, fields: Partial<WorkspaceRecord> = {}, scopes: Scope[] = ['*']) {
  const record = { ...newWorkspace(`team ${connection}`), ...fields };
  await putWorkspace(env.API_KEYS, record);
  const saved = await saveConnection(
    env.API_KEYS,
    await keyRing(CONNECTION_KEYS),
    { workspace: record.id, name: connection, url: `${n8nUrl}/n8n-1.123.81`, apiKey: n8nKey },
    { serverOnLoopback: true, allowPrivateNetworks: false },
  );
  expect(saved).toHaveProperty('saved');
  const { key } = await createKey(scopes, { workspace: record.id });
  return { id: record.id, key };
}

/** A tools/call's result, in the Worker with workspaces on. */
async function callTool(key: string, name: string, args: Record<string, unknown> = {}, extra: Partial<Env> = {}) {
  const { status, text } = await modernCallWith({ ...vars, ...extra }, key, name, args);
  const body = JSON.parse(text.startsWith('{') ? text : /data: (.*)/.exec(text.trim().split('\n\n').pop()!)![1]!);
  return { status, isError: body.result?.isError === true, text: body.result?.content?.[0]?.text as string | undefined, body };
}

const created = async (key: string, name: string) => {
  const answer = await callTool(key, 'create_workflow', { workflow: { ...SAMPLE_WORKFLOW, name }, force: true });
  expect(answer.isError).toBe(false);
  return JSON.parse(answer.text!).id as string;
};

/** Every line the Worker logs while these rules run: none may hold an n8n key or the key ring. */
const logged: string[] = [];
beforeAll(() => {
  for (const level of ['log', 'info', 'warn', 'error', 'debug'] as const) {
    const original = console[level].bind(console);
    vi.spyOn(console, level).mockImplementation((...args: unknown[]) => {
      logged.push(args.map((a) => (typeof a === 'string' ? a : JSON.stringify(a))).join(' '));
      original(...args);
    });
  }
});
afterAll(() => {
  expect(logged.length).toBeGreaterThan(0);
  for (const secret of [n8nKey, CONNECTION_KEYS.slice(3)]) expect(logged.filter((line) => line.includes(secret))).toEqual([]);
  vi.restoreAllMocks();
});

describe('workspace isolation rules', () => {
  it("Rule: a workspace's key acts on its own connections only, whatever instance it names", async () => {
    const a = await workspace('alpha');
    const b = await workspace('beta');
    const theirs = await callTool(b.key, 'list_workflows', { instance: 'alpha' });
    expect(theirs.isError).toBe(true);
    expect(theirs.text).toMatch(/this workspace has no n8n connection "alpha": list_instances names its connections/);
    const listed = JSON.parse((await callTool(b.key, 'list_instances')).text!);
    expect(listed.instances.map((i: { name: string }) => i.name)).toEqual(['beta']);
    // Positive control: the owner's call, by name and by default.
    expect((await callTool(a.key, 'list_workflows', { instance: 'alpha' })).isError).toBe(false);
    expect((await callTool(a.key, 'list_workflows')).isError).toBe(false);
  });

  it("Rule: a session answers only the key that opened it, never another workspace's", async () => {
    const a = await workspace('alpha');
    const b = await workspace('beta');
    const session = await openSession(undefined, bearer(a.key));
    const ping = { jsonrpc: '2.0', id: 2, method: 'ping' };
    expect((await postJson('/mcp', ping, { ...sessionHeaders(session), ...bearer(b.key) })).status).toBe(404);
    expect((await postJson('/mcp', ping, { ...sessionHeaders(session), ...bearer(a.key) })).status).toBe(200);
  });

  it("Rule: a task answers only its owner, never another workspace's key", async () => {
    const a = await workspace('alpha');
    const b = await workspace('beta');
    const taskId = await startTask('test_queued_echo', { text: 'alpha only' }, bearer(a.key));
    const theirs = await modern('tasks/get', { taskId }, { capabilities: withTasks, headers: bearer(b.key) });
    expect(theirs.body.error).toBeDefined();
    expect(JSON.stringify(theirs.body)).not.toContain('alpha only');
    const mine = await modern('tasks/get', { taskId }, { capabilities: withTasks, headers: bearer(a.key) });
    expect(mine.body.result).toMatchObject({ taskId });
  });

  it("Rule: a queued call runs on its caller's workspace's connection, and reaches no other workspace's", async () => {
    const a = await workspace('alpha');
    const b = await workspace('beta');
    const caller = (id: string) => ({ caller: { id: `key_${id}`, subject: `key_${id}`, scopes: ['*'], workspace: id } });
    // The caller's workspace travels with the message: without it, the call would find no n8n here (no N8N_API_URL).
    const mine = await deliverRun(await taskWaitingOn('list_workflows', {}, caller(a.id)), { overrides: vars });
    expect(mine.task.result?.isError).not.toBe(true);
    const theirs = await deliverRun(await taskWaitingOn('list_workflows', { instance: 'alpha' }, caller(b.id)), { overrides: vars });
    expect(theirs.task.result?.isError).toBe(true);
    expect(theirs.text).toMatch(/no n8n connection "alpha"/);
  });

  it('Rule: version history is kept per connection: another workspace on the same n8n sees none of it', async () => {
    await loadCatalog();
    const a = await workspace('alpha');
    const b = await workspace('beta');
    const id = await created(a.key, 'History isolation');
    const renamed = await callTool(a.key, 'edit_workflow', { id, operations: [{ type: 'updateName', name: 'History isolation, renamed' }] });
    expect(renamed.isError, renamed.text).toBe(false);
    const mine = JSON.parse((await callTool(a.key, 'list_workflow_versions', { id })).text!);
    expect(mine.versions.length).toBeGreaterThan(0);
    const theirs = JSON.parse((await callTool(b.key, 'list_workflow_versions', { id })).text!);
    expect(theirs.versions).toEqual([]);
  });

  it('Rule: stored tests are kept per connection: another workspace on the same n8n sees none of them', async () => {
    const a = await workspace('alpha');
    const b = await workspace('beta');
    const id = await created(a.key, 'Stored test isolation');
    const test = { name: 'answers', payload: { name: 'Ada' } };
    const saved = await callTool(a.key, 'save_workflow_test', { id, test });
    expect(saved.isError, saved.text).toBe(false);
    expect(JSON.parse((await callTool(a.key, 'list_workflow_tests', { id })).text!).tests).toHaveLength(1);
    expect(JSON.parse((await callTool(b.key, 'list_workflow_tests', { id })).text!).tests).toEqual([]);
    // Nor can it delete them.
    expect((await callTool(b.key, 'delete_workflow_test', { id, name: 'answers' })).isError).toBe(true);
    expect(JSON.parse((await callTool(a.key, 'list_workflow_tests', { id })).text!).tests).toHaveLength(1);
  });

  it("Rule: a workspace's node classes narrow the deployment's for its keys, and no other workspace's", async () => {
    await loadCatalog();
    const narrowed = await workspace('alpha', { nodeClasses: ['credentials'] });
    const open = await workspace('beta');
    const code = {
      name: 'Code in a workspace',
      nodes: [{ id: 'c1', name: 'Code', type: 'n8n-nodes-base.code', typeVersion: 2, position: [0, 0], parameters: { jsCode: 'return $input.all();' } }],
      connections: {},
    };
    const refused = await callTool(narrowed.key, 'create_workflow', { workflow: code, force: true });
    expect(refused.isError).toBe(true);
    expect(refused.text).toMatch(/workspace lets no caller use class "code"/);
    const info = JSON.parse((await callTool(narrowed.key, 'server_info')).text!);
    expect(info.nodeClasses.find((c: { class: string }) => c.class === 'code')).toMatchObject({ allowed: false, yours: false });
    // Positive control: the same `*` key's rights in a workspace that does not narrow them.
    expect((await callTool(open.key, 'create_workflow', { workflow: code, force: true })).isError).toBe(false);
  });

  it('Rule: removing a connection revokes it for every call that named it', async () => {
    const a = await workspace('alpha');
    expect((await callTool(a.key, 'list_workflows')).isError).toBe(false);
    expect(await removeConnection(env.API_KEYS, a.id, 'alpha')).toBe(true);
    const after = await callTool(a.key, 'list_workflows', { instance: 'alpha' });
    expect(after.isError).toBe(true);
    expect(after.text).toMatch(/no n8n connection "alpha"/);
  });

  it("Rule: removing a workspace revokes its keys: they are refused (401) from then on; another workspace's go on", async () => {
    const a = await workspace('alpha');
    const b = await workspace('beta');
    expect((await callTool(a.key, 'server_info')).status).toBe(200);
    await env.API_KEYS.delete(workspaceKvName(a.id));
    expect((await modernCallWith(vars, a.key, 'server_info')).status).toBe(401);
    expect((await callTool(b.key, 'server_info')).status).toBe(200);
  });

  it('Rule: an OAuth grant approved with a workspace’s key acts in that workspace, and ends when the workspace is removed', async () => {
    const a = await workspace('alpha');
    await workspace('beta');
    const { access_token } = await tokensFor(a.key);
    const listed = JSON.parse((await callTool(access_token, 'list_instances')).text!);
    expect(listed).toMatchObject({ workspace: 'team alpha', instances: [{ name: 'alpha', default: true }] });
    expect((await callTool(access_token, 'list_workflows', { instance: 'beta' })).isError).toBe(true);
    await env.API_KEYS.delete(workspaceKvName(a.id));
    expect((await modernCallWith(vars, access_token, 'list_instances')).status).toBe(401);
  });

  it("Rule: a workspace's keys share its rate limit as well as each having its own", async () => {
    const tiny = (env as unknown as { TINY_LIMITER: RateLimit }).TINY_LIMITER;
    const a = await workspace('alpha');
    const second = (await createKey(['*'], { workspace: a.id })).key;
    const b = await workspace('beta');
    const limited = { WORKSPACE_LIMITER: tiny };
    // TINY_LIMITER allows 3 a minute: two calls of one key and one of the other spend the workspace's.
    const statuses = [
      (await callTool(a.key, 'server_info', {}, limited)).status,
      (await callTool(a.key, 'server_info', {}, limited)).status,
      (await callTool(second, 'server_info', {}, limited)).status,
    ];
    expect(statuses).toEqual([200, 200, 200]);
    const over = await modernCallWith({ ...vars, ...limited }, second, 'server_info');
    expect(over.status).toBe(429);
    expect(over.text).toContain("this credential's workspace is over its request rate limit");
    expect((await callTool(b.key, 'server_info', {}, limited)).status).toBe(200);
  });
});
