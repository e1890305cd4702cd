import { env } from 'cloudflare:workers';
import { runInDurableObject } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import { MAX_KEPT_BYTES, type HistoryObject, type NewVersion, type VersionRecord } from '../../src/history/HistoryObject';

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
const keepAll = { versions: 50, days: 90 };
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
    for (let i = 0; i < 5; i++) await history.keep(entry('w1'), `{"i":${i}}`, { versions: 3, days: 90 });
    await history.keep(entry('w2'), '{}', { versions: 3, days: 90 });
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
    await history.keep(entry('w1'), '{"new":true}', { versions: 50, days: 2 });
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
