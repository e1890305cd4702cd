import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { startWranglerDev, type DevServer } from '../../scripts/lib/wranglerDev';
import { startRealN8n, type RealN8n } from '../../scripts/n8n/realN8n';
import { connectedClient, n8nApi, type Json, type OwnInstance } from './client';
import { greeterWorkflow } from './greeter';

/**
 * Workspaces (issue 41) against two real n8n instances at once. This file starts a second n8n and a
 * server of its own with CONNECTION_KEYS and no N8N_API_URL (it serves workspaces only), and sets up two
 * workspaces with `npm run keys`, as an operator would: "one" with the connection "main" to the suite's
 * n8n (#1); "two" with "main" to the second n8n (#2, its default) and "other" to n8n #1. One SDK client
 * per workspace key, both used at once, shows that each workspace's workflows, executions, history and
 * stored tests are its own connection's; that `instance` picks among a workspace's own connections only;
 * and that no n8n API key comes back in any answer or in what the server printed.
 */
const exec = promisify(execFile);
const CONNECTION_KEYS = `k1:${randomBytes(32).toString('base64')}`;
const n8nOne = { url: inject('realN8nUrl'), apiKey: inject('realN8nKey') };

/** The second n8n, starting while the server starts and workspace one is set up (it is not needed before). */
let n8nTwoStarting: Promise<RealN8n> | undefined;
let n8nTwo: RealN8n;
let server: DevServer;
/** Each workspace's key on this file's server, and the n8n its default connection reaches (for reading back). */
let one: OwnInstance;
let two: OwnInstance;
/** Every tool answer of this file (the whole result), and what `npm run keys` printed: searched for secrets last. */
const answers: string[] = [];
const cliPrinted: string[] = [];

/** `npm run keys -- … --local --persist-to <this server's state>` with the server's CONNECTION_KEYS: its stdout. */
async function keys(args: string[], env: Record<string, string> = {}): Promise<string> {
  try {
    const { stdout, stderr } = await exec('npx', ['tsx', 'scripts/keys/cli.ts', ...args, '--local', '--persist-to', server.stateDir], {
      env: { ...process.env, CONNECTION_KEYS, ...env },
    });
    cliPrinted.push(stdout, stderr);
    return stdout.trim();
  } catch (error) {
    const { stdout, stderr } = error as { stdout?: string; stderr?: string };
    throw new Error(`npm run keys -- ${args.join(' ')} failed:\n${stdout ?? ''}${stderr ?? ''}`, { cause: error });
  }
}

beforeAll(async () => {
  n8nTwoStarting = startRealN8n();
  // Its failure is thrown where it is awaited below, not as an unhandled rejection meanwhile.
  n8nTwoStarting.catch(() => undefined);
  // logLevel 'log': the Worker's own lines (a JSON line per request and tool run) are in server.logs() too.
  server = await startWranglerDev({ vars: { CONNECTION_KEYS, RATE_LIMITS: 'off' }, logLevel: 'log' });

  // One command at a time: each is a wrangler process writing the server's local state.
  const workspaceOne = await keys(['workspace', 'create', '--name', 'one']);
  const keyOne = await keys(['create', '--name', 'one-key', '--scopes', '*', '--workspace', workspaceOne]);
  await keys(['connection', 'add', '--workspace', workspaceOne, '--name', 'main', '--url', n8nOne.url], { N8N_CONNECTION_KEY: n8nOne.apiKey });

  n8nTwo = await n8nTwoStarting;
  const workspaceTwo = await keys(['workspace', 'create', '--name', 'two']);
  const keyTwo = await keys(['create', '--name', 'two-key', '--scopes', '*', '--workspace', workspaceTwo]);
  await keys(['connection', 'add', '--workspace', workspaceTwo, '--name', 'main', '--url', n8nTwo.url], { N8N_CONNECTION_KEY: n8nTwo.apiKey });
  await keys(['connection', 'add', '--workspace', workspaceTwo, '--name', 'other', '--url', n8nOne.url], { N8N_CONNECTION_KEY: n8nOne.apiKey });
  // Two connections: calls that name none act on the default, "main".
  await keys(['workspace', 'default', '--id', workspaceTwo, '--connection', 'main']);

  expect(keyOne).toMatch(/^n2f_\w+$/);
  expect(keyTwo).toMatch(/^n2f_\w+$/);
  one = { serverUrl: server.url, serverKey: keyOne, n8nUrl: n8nOne.url, n8nKey: n8nOne.apiKey };
  two = { serverUrl: server.url, serverKey: keyTwo, n8nUrl: n8nTwo.url, n8nKey: n8nTwo.apiKey };
}, 360_000);

/** The workflow each workspace makes (on n8n #1 for "one", n8n #2 for "two"), deleted from the suite's n8n afterwards. */
const made: { one?: string; two?: string } = {};
afterAll(async () => {
  if (made.one) await n8nApi('DELETE', `/workflows/${made.one}`, undefined, one).catch(() => undefined);
  await server?.stop();
  // Stopped even when the setup failed before it was awaited.
  await n8nTwoStarting?.then(
    (n8n) => n8n.stop(),
    () => undefined,
  );
});

/** A client of this file's server with a workspace's key; every answer (content and structured content) kept in `answers`. */
const workspaceClient = (name: string, workspace: () => OwnInstance) =>
  connectedClient(name, undefined, workspace, (result) => answers.push(JSON.stringify(result)));

const clientOne = workspaceClient('e2e-workspace-one', () => one);
const clientTwo = workspaceClient('e2e-workspace-two', () => two);

/** What both workflows' names start with: a listing by it holds this file's workflows only, whatever else runs on n8n #1. */
const STEM = `Workspaces e2e ${Date.now()}`;
const ids = (listing: Json, field: string) => (listing[field] as Json[]).map((item) => item.id as string);
const greeting = (value: string) => ({ type: 'setParameter', name: 'Greeting', path: '/assignments/assignments/0/value', value });

describe('two workspaces, each with its own real n8n, through one server at once', () => {
  it('list_instances and server_info name only the caller’s own connections, with no n8n key', async () => {
    const [listedOne, listedTwo, infoOne, infoTwo] = await Promise.all([
      clientOne.ok('list_instances'),
      clientTwo.ok('list_instances'),
      clientOne.ok('server_info'),
      clientTwo.ok('server_info'),
    ]);
    expect(listedOne).toEqual({
      workspace: 'one',
      instances: [{ name: 'main', url: n8nOne.url, default: true, release: '1.123.81', testedAt: expect.any(String) }],
    });
    expect(listedTwo).toEqual({
      workspace: 'two',
      instances: [
        { name: 'main', url: n8nTwo.url, default: true, release: '1.123.81', testedAt: expect.any(String) },
        { name: 'other', url: n8nOne.url, default: false, release: '1.123.81', testedAt: expect.any(String) },
      ],
    });
    for (const listed of [listedOne, listedTwo]) {
      expect(JSON.stringify(listed)).not.toContain(n8nOne.apiKey);
      expect(JSON.stringify(listed)).not.toContain(n8nTwo.apiKey);
    }
    expect(infoOne).toMatchObject({ workspace: 'one', n8n: { instance: '1.123.81' } });
    expect(infoTwo).toMatchObject({ workspace: 'two', n8n: { instance: '1.123.81' } });
  });

  it("creates each workspace's workflow on its own n8n only: list_workflows and n8n's own API agree", async () => {
    const [a, b] = await Promise.all([
      clientOne.ok('create_workflow', { workflow: { ...greeterWorkflow(`ws-one-${Date.now()}`), name: `${STEM} one` } }),
      clientTwo.ok('create_workflow', { workflow: { ...greeterWorkflow(`ws-two-${Date.now()}`), name: `${STEM} two` } }),
    ]);
    made.one = a.id as string;
    made.two = b.id as string;
    expect(made.one).not.toBe(made.two);

    const [listedOne, listedTwo, allTwo] = await Promise.all([
      clientOne.ok('list_workflows', { name: STEM }),
      clientTwo.ok('list_workflows', { name: STEM }),
      clientTwo.ok('list_workflows'),
    ]);
    expect(ids(listedOne, 'workflows')).toEqual([made.one]);
    expect(ids(listedTwo, 'workflows')).toEqual([made.two]);
    // n8n #2 is this file's alone: workspace two's default sees exactly what it made there.
    expect(ids(allTwo, 'workflows')).toEqual([made.two]);

    expect((await n8nApi('GET', `/workflows/${made.one}`, undefined, one)).name).toBe(`${STEM} one`);
    expect((await n8nApi('GET', `/workflows/${made.two}`, undefined, two)).name).toBe(`${STEM} two`);
    await expect(n8nApi('GET', `/workflows/${made.one}`, undefined, two)).rejects.toThrow(/: 404 /);
    await expect(n8nApi('GET', `/workflows/${made.two}`, undefined, one)).rejects.toThrow(/: 404 /);
  });

  it("runs each workflow on its own n8n, and list_executions shows only its own instance's executions", async () => {
    const [ranOne, ranTwo] = await Promise.all([
      clientOne.ok('test_workflow', { id: made.one, payload: { name: 'Ada' } }),
      clientTwo.ok('test_workflow', { id: made.two, payload: { name: 'Bo' } }),
    ]);
    expect(ranOne.trigger.response).toEqual({ greeting: 'hello Ada' });
    expect(ranTwo.trigger.response).toEqual({ greeting: 'hello Bo' });

    const [listedOne, ownOne, listedTwo, foreignOne, foreignTwo] = await Promise.all([
      clientOne.ok('list_executions', { limit: 250 }),
      clientOne.ok('list_executions', { workflowId: made.one }),
      clientTwo.ok('list_executions', { limit: 250 }),
      clientOne.ok('list_executions', { workflowId: made.two }),
      clientTwo.ok('list_executions', { workflowId: made.one }),
    ]);
    const workflowsOf = (listing: Json) => new Set((listing.executions as Json[]).map((e) => e.workflowId as string));
    expect(workflowsOf(listedOne)).not.toContain(made.two);
    expect([...workflowsOf(listedTwo)]).toEqual([made.two]);
    expect(foreignOne.executions).toEqual([]);
    expect(foreignTwo.executions).toEqual([]);

    // What each n8n stored itself: workspace two's listing is n8n #2's executions, one run of its workflow.
    const storedTwo = (await n8nApi('GET', '/executions?limit=250', undefined, two)).data as Json[];
    expect(ids(listedTwo, 'executions').sort()).toEqual(storedTwo.map((e) => e.id as string).sort());
    expect(storedTwo.map((e) => e.workflowId)).toEqual([made.two]);
    const storedOne = (await n8nApi('GET', `/executions?workflowId=${made.one}`, undefined, one)).data as Json[];
    expect(storedOne).toHaveLength(1);
    expect(ids(ownOne, 'executions')).toEqual([storedOne[0]!.id]);
  });

  it("keeps each workflow's history with its own connection: the other workspace sees none, even through its own connection to the same n8n", async () => {
    const [editedOne, editedTwo] = await Promise.all([
      clientOne.ok('edit_workflow', { id: made.one, operations: [greeting('=hi {{ $json.body.name }}')] }),
      clientTwo.ok('edit_workflow', { id: made.two, operations: [greeting('=hey {{ $json.body.name }}')] }),
    ]);
    expect(editedOne).toMatchObject({ saved: true });
    expect(editedTwo).toMatchObject({ saved: true });

    const [mineOne, mineTwo, theirsOnTwo, theirsOnOne, theirsViaOther] = await Promise.all([
      clientOne.ok('list_workflow_versions', { id: made.one }),
      clientTwo.ok('list_workflow_versions', { id: made.two }),
      // The other workspace asks for the workflow id on its default n8n (#2), where it is not…
      clientTwo.ok('list_workflow_versions', { id: made.one }),
      clientOne.ok('list_workflow_versions', { id: made.two }),
      // …and through its own connection to n8n #1, where the workflow is: still none of workspace one's history.
      clientTwo.ok('list_workflow_versions', { id: made.one, instance: 'other' }),
    ]);
    expect((mineOne.versions as Json[])[0]).toMatchObject({ change: 'edit' });
    expect((mineTwo.versions as Json[])[0]).toMatchObject({ change: 'edit' });
    expect((mineOne.versions as Json[]).map((v) => v.change)).toContain('create');
    expect(theirsOnTwo.versions).toEqual([]);
    expect(theirsOnOne.versions).toEqual([]);
    expect(theirsViaOther.versions).toEqual([]);

    // n8n's copies took each edit.
    expect(JSON.stringify((await n8nApi('GET', `/workflows/${made.one}`, undefined, one)).nodes)).toContain('=hi {{ $json.body.name }}');
    expect(JSON.stringify((await n8nApi('GET', `/workflows/${made.two}`, undefined, two)).nodes)).toContain('=hey {{ $json.body.name }}');
  });

  it('keeps a stored test with its own connection: the other workspace lists none for that workflow', async () => {
    const test = { name: 'greets', payload: { name: 'Ada' }, expect: { status: 200, body: { '/greeting': 'hi Ada' } } };
    await clientOne.ok('save_workflow_test', { id: made.one, test });
    const [mine, theirs, theirsViaOther, ran] = await Promise.all([
      clientOne.ok('list_workflow_tests', { id: made.one }),
      clientTwo.ok('list_workflow_tests', { id: made.one }),
      clientTwo.ok('list_workflow_tests', { id: made.one, instance: 'other' }),
      clientOne.ok('run_workflow_tests', { id: made.one }),
    ]);
    expect(mine.tests).toMatchObject([{ name: 'greets' }]);
    expect(ran).toMatchObject({ passed: true, tests: [{ name: 'greets', passed: true }] });
    expect(theirs.tests).toEqual([]);
    expect(theirsViaOther.tests).toEqual([]);
  });

  it('picks among the workspace’s own connections by instance: "other" reaches n8n #1, "main" n8n #2, an unknown name is refused', async () => {
    const [viaOther, viaMain, read, unknown, notTheirs] = await Promise.all([
      clientTwo.ok('list_workflows', { instance: 'other', name: STEM }),
      clientTwo.ok('list_workflows', { instance: 'main', name: STEM }),
      clientTwo.ok('get_workflow', { id: made.one, instance: 'other' }),
      clientTwo.refused('list_workflows', { instance: 'nope' }),
      // Workspace one has no "other": another workspace's connection name reaches nothing.
      clientOne.refused('list_workflows', { instance: 'other' }),
    ]);
    expect(ids(viaOther, 'workflows')).toEqual([made.one]);
    expect(ids(viaMain, 'workflows')).toEqual([made.two]);
    expect(read).toMatchObject({ id: made.one, name: `${STEM} one` });
    expect(unknown).toMatch(/no n8n connection "nope".*list_instances/);
    expect(notTheirs).toMatch(/no n8n connection "other".*list_instances/);
  });

  it("leaves no n8n API key, nor the sealing key, in any answer, in npm run keys' output or in what the server printed", () => {
    const secrets = [n8nOne.apiKey, n8nTwo.apiKey, CONNECTION_KEYS.slice('k1:'.length)];
    // The workspaces' own keys too, except where npm run keys printed them once, as it should.
    const allSecrets = [...secrets, one.serverKey, two.serverKey];
    const answered = answers.join('\n');
    expect(answers.length).toBeGreaterThan(20);
    for (const secret of allSecrets) expect(answered).not.toContain(secret);
    for (const secret of secrets) expect(cliPrinted.join('\n')).not.toContain(secret);
    const logs = server.logs();
    // The Worker logs a line per tool run (logLevel 'log'): the log is there to search.
    expect(logs).toContain('list_instances');
    for (const secret of allSecrets) expect(logs).not.toContain(secret);
  });
});
