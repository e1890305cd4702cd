import { env } from 'cloudflare:workers';
import { runInDurableObject } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import {
  MAX_KEPT_BYTES,
  MAX_TEST_BYTES,
  MAX_TESTS_PER_WORKFLOW,
  type HistoryObject,
  type NewVersion,
  type VersionRecord,
} from '../../src/history/HistoryObject';

/** A history object of its own for each test. */
const fresh = () => env.HISTORY.get(env.HISTORY.newUniqueId());
const entry = (workflowId: string, change: NewVersion['change'] = 'update', name = 'Orders'): NewVersion => ({
  workflowId,
  name,
  versionId: `v-${crypto.randomUUID()}`,
  active: false,
  nodes: 2,
  by: 'key_test',
  change,
  reason: `${change} for a test`,
});
const keepAll = { versions: 50, days: 90, instanceBytes: 1e9, callerBytes: 1e9 };
const kept = async (outcome: Promise<{ kept: VersionRecord } | { refused: string }>) => {
  const answer = await outcome;
  if (!('kept' in answer)) throw new Error(answer.refused);
  return answer.kept;
};

describe('HistoryObject', () => {
  it('keeps versions whole and gives them back, newest first, each with who changed it, how and why', async () => {
    const history = fresh();
    const first = JSON.stringify({ id: 'w1', name: 'Orders', nodes: [{ name: 'A', parameters: { text: 'é'.repeat(5_000) } }] });
    const a = await kept(history.keep(entry('w1', 'create'), first, keepAll));
    const b = await kept(history.keep(entry('w1', 'edit'), '{"id":"w1","name":"Orders","nodes":[]}', keepAll));
    await history.keep(entry('w2'), '{}', keepAll);
    expect(b.version).toBeGreaterThan(a.version);
    expect((await history.list('w1', 10)).map((v) => [v.version, v.change, v.by, v.reason])).toEqual([
      [b.version, 'edit', 'key_test', 'edit for a test'],
      [a.version, 'create', 'key_test', 'create for a test'],
    ]);
    expect(await history.get('w1', a.version)).toEqual({ record: a, workflow: first });
    // A version of another workflow is not this one's.
    expect(await history.get('w2', a.version)).toBeNull();
  });

  it('keeps at most HISTORY_VERSIONS versions of a workflow, dropping the oldest', async () => {
    const history = fresh();
    for (let i = 0; i < 5; i++) await history.keep(entry('w1'), `{"i":${i}}`, { ...keepAll, versions: 3 });
    await history.keep(entry('w2'), '{}', { ...keepAll, versions: 3 });
    const listed = await history.list('w1', 10);
    expect(listed).toHaveLength(3);
    expect(await Promise.all(listed.map(async (v) => (await history.get('w1', v.version))!.workflow))).toEqual(['{"i":4}', '{"i":3}', '{"i":2}']);
  });

  it('drops versions older than HISTORY_DAYS', async () => {
    const history = fresh();
    const old = await kept(history.keep(entry('w1'), '{"old":true}', keepAll));
    await runInDurableObject(history, async (_instance: HistoryObject, state) => {
      state.storage.sql.exec('UPDATE versions SET at = ? WHERE version = ?', Date.now() - 3 * 86_400_000, old.version);
    });
    await history.keep(entry('w1'), '{"new":true}', { ...keepAll, days: 2 });
    expect((await history.list('w1', 10)).map((v) => v.version)).not.toContain(old.version);
  });

  it('refuses a version too large for one stored value, keeping nothing', async () => {
    const history = fresh();
    // Random hex compresses to about half: twice the limit of it is past the limit once gzipped.
    const chunks: string[] = [];
    for (let size = 0; size < 2.2 * MAX_KEPT_BYTES; size += 2 * 65_536) {
      chunks.push([...crypto.getRandomValues(new Uint8Array(65_536))].map((b) => b.toString(16).padStart(2, '0')).join(''));
    }
    const text = JSON.stringify({ noise: chunks.join('') });
    expect(await history.keep(entry('w1'), text, keepAll)).toEqual({
      refused: expect.stringMatching(/^the workflow is too large to keep a version of \(\d+ bytes compressed; the limit is 1900000\)$/),
    });
    expect(await history.list('w1', 10)).toEqual([]);
  });

  it('discards a version kept for a change that did not happen', async () => {
    const history = fresh();
    const one = await kept(history.keep(entry('w1'), '{}', keepAll));
    await history.discard(one.version);
    expect(await history.list('w1', 10)).toEqual([]);
  });

  it('lists the workflows it holds by their last change, a deleted one with its name', async () => {
    const history = fresh();
    await history.keep(entry('w1', 'update', 'Gone'), '{}', keepAll);
    await history.keep(entry('w1', 'delete', 'Gone'), '{}', keepAll);
    await history.keep(entry('w2', 'edit', 'Here'), '{}', keepAll);
    expect((await history.workflows(10)).map((w) => [w.workflowId, w.change, w.name, w.versions])).toEqual([
      ['w2', 'edit', 'Here', 1],
      ['w1', 'delete', 'Gone', 2],
    ]);
  });
});

describe('HistoryObject: the tests saved with workflows', () => {
  it('saves a test by name (again: replaced), lists a workflow’s tests by name, deletes one', async () => {
    const history = fresh();
    await history.saveTest('w1', 'orders', '{"v":1}', 'key_a');
    await history.saveTest('w1', 'answers', '{"v":2}', 'key_a');
    await history.saveTest('w1', 'orders', '{"v":3}', 'key_b');
    await history.saveTest('w2', 'orders', '{"v":4}', 'key_a');
    expect((await history.tests('w1')).map((t) => [t.name, t.definition, t.by])).toEqual([
      ['answers', '{"v":2}', 'key_a'],
      ['orders', '{"v":3}', 'key_b'],
    ]);
    expect(await history.deleteTest('w1', 'orders')).toBe(true);
    expect(await history.deleteTest('w1', 'orders')).toBe(false);
    expect((await history.tests('w1')).map((t) => t.name)).toEqual(['answers']);
    expect((await history.tests('w2')).map((t) => t.definition)).toEqual(['{"v":4}']);
  });
});

describe('HistoryObject: what it holds is bounded', () => {
  it("refuses a version past what one caller may keep, naming that caller's largest workflows and how to prune them; another caller still keeps", async () => {
    const history = fresh();
    const small = { ...keepAll, callerBytes: 400 };
    const text = (n: number) => JSON.stringify({ noise: [...crypto.getRandomValues(new Uint8Array(n))].join(',') });
    await kept(history.keep({ ...entry('w1'), by: 'key_a' }, text(200), small));
    const refused = await history.keep({ ...entry('w2'), by: 'key_a' }, text(200), small);
    expect(refused).toEqual({
      refused: expect.stringMatching(
        /^the versions kept for this caller's changes take .* MB of the .* MB one caller may keep here \(HISTORY_CALLER_MB\)\. prune_workflow_versions deletes .*workflow w1 "Orders"/,
      ),
    });
    await kept(history.keep({ ...entry('w2'), by: 'key_b' }, text(200), small));
  });

  it('refuses a version past what the instance keeps, naming HISTORY_MB and the largest workflows', async () => {
    const history = fresh();
    const tight = { ...keepAll, instanceBytes: 400 };
    const text = () => JSON.stringify({ noise: [...crypto.getRandomValues(new Uint8Array(200))].join(',') });
    await kept(history.keep({ ...entry('w1'), by: 'key_a' }, text(), tight));
    expect(await history.keep({ ...entry('w2'), by: 'key_b' }, text(), tight)).toEqual({
      refused: expect.stringMatching(/^this n8n's history holds .* MB, its limit \(HISTORY_MB\): the operator raises HISTORY_MB .*workflow w1/),
    });
  });

  it("prunes a caller's own versions of a workflow, never another's", async () => {
    const history = fresh();
    await kept(history.keep({ ...entry('w1'), by: 'key_a' }, '{"a":1}', keepAll));
    await kept(history.keep({ ...entry('w1'), by: 'key_b' }, '{"b":1}', keepAll));
    await kept(history.keep({ ...entry('w1'), by: 'key_a' }, '{"a":2}', keepAll));
    expect(await history.pruneVersions('w1', 'key_a')).toEqual({ deleted: 2, bytes: expect.any(Number) });
    expect((await history.list('w1', 10)).map((v) => v.by)).toEqual(['key_b']);
  });

  it('refuses a test too large, or one more than a workflow keeps (replacing one stays possible), and deletes a workflow’s tests', async () => {
    const history = fresh();
    expect(await history.saveTest('w1', 'big', 'x'.repeat(MAX_TEST_BYTES + 1), 'key_a')).toEqual({ refused: expect.stringContaining('holds at most 32,768') });
    for (let i = 0; i < MAX_TESTS_PER_WORKFLOW; i++) expect(await history.saveTest('w1', `t${i}`, '{}', 'key_a')).toEqual({ saved: true });
    expect(await history.saveTest('w1', 'one more', '{}', 'key_a')).toEqual({ refused: expect.stringContaining('as many as a workflow keeps') });
    expect(await history.saveTest('w1', 't0', '{"again":true}', 'key_a')).toEqual({ saved: true });
    expect(await history.deleteTests('w1')).toBe(MAX_TESTS_PER_WORKFLOW);
    expect(await history.tests('w1')).toEqual([]);
  });
});

describe('HistoryObject: turns, runs and test activations', () => {
  const soon = (ms: number) => Date.now() + ms;

  it('gives a workflow’s turn to one call at a time: the next waits and gets it when the first ends; a call that has it gets it again', async () => {
    const history = fresh();
    expect(await history.takeTurn('w1', 'call-a', 'key_a', 'edit_workflow', soon(30_000), soon(0))).toEqual({ held: 'new' });
    expect(await history.takeTurn('w1', 'call-a', 'key_a', 'test_workflow', soon(30_000), soon(0))).toEqual({ held: 'again' });
    const waiting = history.takeTurn('w1', 'call-b', 'key_b', 'update_workflow', soon(30_000), soon(10_000));
    await new Promise((resolve) => setTimeout(resolve, 200));
    await history.endTurn('w1', 'call-a');
    expect(await waiting).toEqual({ held: 'new' });
    // Another workflow's turn is its own.
    expect(await history.takeTurn('w2', 'call-c', 'key_a', 'edit_workflow', soon(30_000), soon(0))).toEqual({ held: 'new' });
  });

  it('says who has the turn when it does not come in time, and gives it when the holder’s time runs out', async () => {
    const history = fresh();
    await history.takeTurn('w1', 'call-a', 'key_a', 'edit_workflow', soon(600), soon(0));
    expect(await history.takeTurn('w1', 'call-b', 'key_b', 'update_workflow', soon(30_000), soon(100))).toEqual({
      busy: { owner: 'key_a', what: 'edit_workflow', since: expect.any(String), until: expect.any(String) },
    });
    expect(await history.takeTurn('w1', 'call-b', 'key_b', 'update_workflow', soon(30_000), soon(5_000))).toEqual({ held: 'new' });
  });

  it("caps the runs one caller has going, naming them; another caller's are its own", async () => {
    const history = fresh();
    expect(await history.beginRun('r1', 'key_a', 'try_nodes', soon(30_000), 2)).toEqual({ began: true });
    expect(await history.beginRun('r2', 'key_a', 'test_workflow on workflow 7', soon(30_000), 2)).toEqual({ began: true });
    expect(await history.beginRun('r3', 'key_a', 'try_nodes', soon(30_000), 2)).toEqual({
      busy: [expect.objectContaining({ what: 'try_nodes' }), expect.objectContaining({ what: 'test_workflow on workflow 7' })],
    });
    expect(await history.beginRun('r4', 'key_b', 'try_nodes', soon(30_000), 2)).toEqual({ began: true });
    await history.endRun('r1');
    expect(await history.beginRun('r3', 'key_a', 'try_nodes', soon(30_000), 2)).toEqual({ began: true });
  });

  it('lets the last test run of an activation end it, and none once someone set the active state', async () => {
    const history = fresh();
    expect(await history.claimActivation('w1', 'run-1', 'key_a', soon(30_000), false)).toBe(false);
    expect(await history.claimActivation('w1', 'run-1', 'key_a', soon(30_000), true)).toBe(true);
    expect(await history.claimActivation('w1', 'run-2', 'key_b', soon(30_000), false)).toBe(true);
    expect(await history.endActivationClaim('w1', 'run-1')).toEqual({ stood: true, others: 1 });
    expect(await history.endActivationClaim('w1', 'run-2')).toEqual({ stood: true, others: 0 });
    await history.claimActivation('w1', 'run-3', 'key_a', soon(30_000), true);
    await history.dropActivationClaim('w1');
    expect(await history.endActivationClaim('w1', 'run-3')).toEqual({ stood: false, others: 0 });
  });
});
