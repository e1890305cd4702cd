import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { historyFor } from '../../../src/history/history';
import { asRun, inTurn } from '../../../src/tools/n8n/turns';
import { loadCatalog, seedSpecs } from '../../support/catalog';
import { n8nToolContext, withN8n } from '../../support/hostile';
import { n8nSpecs, node } from '../../support/n8nCatalog';
import { callDirect, fakeN8n, fakeN8nApi, savedN8nWorkflow } from '../../support/tools';
import { webhookTrigger } from '../../support/workflows';

/**
 * Taking turns, against the contract fake of n8n (whose answers a test can hold late, so that calls
 * overlap): changes of one workflow one after the other, each on what the one before left, none lost;
 * a call that cannot get its turn in time refused, naming the call in the way; a cap on a caller's runs.
 */
beforeAll(() => loadCatalog([...seedSpecs(), ...n8nSpecs], ['seed', 'n8n']));
afterEach(() => fakeN8n('config', { faults: [], webhookDelayMs: 0 }));

const madeInN8n = async () => {
  const path = `turns-${crypto.randomUUID()}`;
  return String((await fakeN8nApi('POST', '/workflows', { name: path, nodes: [webhookTrigger(path)], connections: {}, settings: {} })).id);
};
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const addNode = (name: string) => ({ type: 'addNode', node: node(name, 'limit', 1, { maxItems: 1 }) });

describe("a workflow's changes take turns", () => {
  it('two edits sent at once are both saved, the second on what the first left, each keeping the version it replaced', async () => {
    const id = await madeInN8n();
    // n8n answers the first read late: the first edit holds the turn while the second arrives.
    await fakeN8n('config', { faults: [{ request: `GET /api/v1/workflows/${id}`, times: 1, delayMs: 400 }] });
    const [a, b] = await Promise.all([
      callDirect('edit_workflow', { id, operations: [addNode('From A')] }),
      pause(100).then(() => callDirect('edit_workflow', { id, operations: [addNode('From B')] })),
    ]);
    expect([a.json.saved, b.json.saved]).toEqual([true, true]);
    expect((await savedN8nWorkflow(id)).nodes.map((n) => n.name)).toEqual(expect.arrayContaining(['From A', 'From B']));
    const versions = (await callDirect('list_workflow_versions', { id })).json.versions as { version: number; versionId: string }[];
    expect(versions.map((v) => v.version)).toEqual([b.json.previousVersion, a.json.previousVersion]);
    expect(new Set(versions.map((v) => v.versionId)).size).toBe(2);
  });

  it("a change waits for another's tests and their put-back, then is made on the workflow as it was put back", async () => {
    const id = await madeInN8n();
    await callDirect('save_workflow_test', { id, test: { name: 'fails', expect: { status: 201 } } });
    await fakeN8n('config', { webhookDelayMs: 800 });
    const [a, b] = await Promise.all([
      callDirect('edit_workflow', { id, operations: [addNode('From A')], runTests: true }),
      pause(300).then(() =>
        callDirect('edit_workflow', {
          id,
          operations: [{ type: 'updateName', name: 'Renamed by B' }, addNode('From B')],
        }),
      ),
    ]);
    expect(a.text).toMatch(/The tests step failed: 1 of 1 saved tests failed: .*Workflow \w+ is as it was before this call\./);
    expect(b.json.saved).toBe(true);
    const now = await savedN8nWorkflow(id);
    expect((now as unknown as { name: string }).name).toBe('Renamed by B');
    expect(now.nodes.map((n) => n.name)).toContain('From B');
    expect(now.nodes.map((n) => n.name)).not.toContain('From A');
  });

  it('a call whose turn does not come in time is refused, naming the call that has it; nothing runs', async () => {
    const ctx = n8nToolContext(withN8n());
    const holder = { ...n8nToolContext(withN8n()), caller: { id: 'key_other', subject: 'key_other', scopes: ['*'] } };
    const history = await historyFor(ctx);
    await history.takeTurn('w-held', holder.callId, 'key_other', 'edit_workflow', Date.now() + 30_000, Date.now());
    let ran = false;
    // 20.4 s left: the change needs 20 s of it once its turn comes, so it waits 0.4 s.
    const refused = inTurn({ ...ctx, deadline: Date.now() + 20_400 }, 'w-held', 'update_workflow', async () => (ran = true));
    await expect(refused).rejects.toThrow(
      /^Workflow w-held is being changed by another call \(edit_workflow, by key_other, since .*\); its turn ends by .* at the latest\. Nothing was changed: try again after it\.$/,
    );
    expect(ran).toBe(false);
  });
});

describe("a caller's runs", () => {
  it('are capped (RUNS_PER_CALLER): one more is refused, naming those going; another caller runs', async () => {
    const env = { ...withN8n(), RUNS_PER_CALLER: '1' };
    const a = { ...n8nToolContext(env) };
    const slow = asRun(a, 'try_nodes', () => pause(500));
    await pause(50);
    await expect(asRun({ ...n8nToolContext(env), caller: a.caller }, 'test_workflow on workflow 9', async () => 'ran')).rejects.toThrow(
      /^This caller has 1 runs going \(try_nodes since .*\), as many as one caller may have at once \(RUNS_PER_CALLER: 1\)\. Nothing was run/,
    );
    const other = { ...n8nToolContext(env), caller: { id: 'key_b', subject: 'key_b', scopes: ['*'] } };
    expect(await asRun(other, 'try_nodes', async () => 'ran')).toBe('ran');
    await slow;
    expect(await asRun({ ...n8nToolContext(env), caller: a.caller }, 'try_nodes', async () => 'ran')).toBe('ran');
  });
});
