import { DurableObject } from 'cloudflare:workers';
import type { Env } from '../env';
import { busyOf, Leases, type Busy } from './leases';

/** What a change did to a workflow; the version kept is the one it replaced (a creation keeps the one it made). */
export type Change = 'create' | 'update' | 'edit' | 'activate' | 'deactivate' | 'delete' | 'restore';

export interface NewVersion {
  workflowId: string;
  name: string;
  /** n8n's versionId of the workflow as kept. */
  versionId: string | null;
  active: boolean;
  nodes: number;
  /** The principal that made the change (`key_…`, `grant_…`). */
  by: string;
  change: Change;
  /** What the change was, in the tool's words (and the caller's, when it gave some). */
  reason: string;
}

export interface VersionRecord extends NewVersion {
  /** This history's number for the version: increasing, never reused. */
  version: number;
  at: string;
  /** Size of the workflow's JSON as kept. */
  bytes: number;
}

/** A test case saved with a workflow: its definition is the JSON of what to send and what must hold. */
export interface StoredTest {
  name: string;
  definition: string;
  by: string;
  at: string;
}

/** What the history keeps at most (src/history/history.ts reads them from the deployment's variables). */
export interface HistoryLimits {
  /** Versions kept per workflow, newest first. */
  versions: number;
  /** Versions older than this many days are dropped. */
  days: number;
  /** Bytes of stored (compressed) versions the instance's history holds at most. */
  instanceBytes: number;
  /** Bytes of stored versions kept for one caller's changes at most. */
  callerBytes: number;
}

/** A test case's definition is at most this long; a workflow has at most MAX_TESTS_PER_WORKFLOW, an instance MAX_TESTS. */
export const MAX_TEST_BYTES = 32_768;
export const MAX_TESTS_PER_WORKFLOW = 20;
const MAX_TESTS = 2_000;

/**
 * A stored value of a SQLite-backed Durable Object is at most 2 MB; a workflow's JSON is kept gzipped
 * in one row, so a workflow whose compressed JSON passes this cannot be kept (and is not changed).
 */
export const MAX_KEPT_BYTES = 1_900_000;

const DAY_MS = 86_400_000;

/** The workflows that take the most room, and how much: what an error names to prune. */
interface Largest {
  workflowId: string;
  name: string;
  versions: number;
  bytes: number;
}

const mb = (bytes: number) => `${(bytes / 1_048_576).toFixed(1)} MB`;
const largestText = (largest: Largest[]) =>
  largest.map((w) => `workflow ${w.workflowId} "${w.name}" (${mb(w.bytes)} in ${w.versions} version${w.versions === 1 ? '' : 's'})`).join(', ');

/**
 * The state this server keeps of one n8n instance (src/history/history.ts names one object per
 * instance): the versions of its workflows this server changed, the test cases saved with them, and
 * the leases that order the calls on it (one change of a workflow at a time, a cap on each caller's
 * runs, a test run's claim on the active state it set). In the object's SQLite storage: a change and
 * the version it kept are one row, written in one statement, so a version is kept whole or not at all,
 * and a workflow deleted from n8n keeps its history here. Versions are pruned on every write, by count
 * per workflow and by age; what it holds is bounded per instance and per caller.
 */
export class HistoryObject extends DurableObject<Env> {
  private readonly leases: Leases;

  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    this.leases = new Leases(ctx.storage.sql);
    this.ctx.storage.sql.exec(`
      CREATE TABLE IF NOT EXISTS versions (
        version INTEGER PRIMARY KEY AUTOINCREMENT,
        workflow_id TEXT NOT NULL,
        name TEXT NOT NULL,
        version_id TEXT,
        active INTEGER NOT NULL,
        nodes INTEGER NOT NULL,
        by TEXT NOT NULL,
        change TEXT NOT NULL,
        reason TEXT NOT NULL,
        at INTEGER NOT NULL,
        bytes INTEGER NOT NULL,
        body BLOB NOT NULL
      );
      CREATE INDEX IF NOT EXISTS versions_of_workflow ON versions (workflow_id, version);
      CREATE TABLE IF NOT EXISTS tests (
        workflow_id TEXT NOT NULL,
        name TEXT NOT NULL,
        definition TEXT NOT NULL,
        by TEXT NOT NULL,
        at INTEGER NOT NULL,
        PRIMARY KEY (workflow_id, name)
      );
    `);
  }

  /**
   * Keeps a version of a workflow (its JSON as n8n had it), or says why it cannot (an answer, not a
   * throw: the caller stops its change on it, and an error crossing RPC would lose its kind): too large
   * for one stored value, or past what the instance's history or the caller may hold.
   */
  async keep(entry: NewVersion, workflowJson: string, limits: HistoryLimits): Promise<{ kept: VersionRecord } | { refused: string }> {
    this.prune(limits);
    const body = await gzip(workflowJson);
    if (body.byteLength > MAX_KEPT_BYTES) {
      return { refused: `the workflow is too large to keep a version of (${body.byteLength} bytes compressed; the limit is ${MAX_KEPT_BYTES})` };
    }
    const over = this.overQuota(entry.by, body.byteLength, limits);
    if (over) return { refused: over };
    const at = Date.now();
    const row = this.ctx.storage.sql
      .exec<{ version: number }>(
        `INSERT INTO versions (workflow_id, name, version_id, active, nodes, by, change, reason, at, bytes, body)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING version`,
        entry.workflowId,
        entry.name,
        entry.versionId,
        entry.active ? 1 : 0,
        entry.nodes,
        entry.by,
        entry.change,
        entry.reason,
        at,
        workflowJson.length,
        body,
      )
      .one();
    this.pruneWorkflow(entry.workflowId, limits.versions);
    return { kept: { ...entry, version: row.version, at: new Date(at).toISOString(), bytes: workflowJson.length } };
  }

  /** Why keeping `bytes` more for `by` would pass a quota, naming what to prune; null when it would not. */
  private overQuota(by: string, bytes: number, limits: HistoryLimits): string | null {
    const total = (where: string, ...values: SqlStorageValue[]) =>
      this.ctx.storage.sql.exec<{ bytes: number | null }>(`SELECT SUM(length(body)) AS bytes FROM versions ${where}`, ...values).one().bytes ?? 0;
    const callers = total('WHERE by = ?', by);
    if (callers + bytes > limits.callerBytes) {
      return (
        `the versions kept for this caller's changes take ${mb(callers)} of the ${mb(limits.callerBytes)} one caller may keep here (HISTORY_CALLER_MB). ` +
        `prune_workflow_versions deletes this caller's versions of a workflow; the largest: ${largestText(this.largest(by))}. Versions older than HISTORY_DAYS go by themselves`
      );
    }
    const all = total('');
    if (all + bytes > limits.instanceBytes) {
      return (
        `this n8n's history holds ${mb(all)}, its limit (HISTORY_MB): the operator raises HISTORY_MB or lowers HISTORY_VERSIONS or HISTORY_DAYS, ` +
        `and each caller can prune its own versions with prune_workflow_versions; the largest: ${largestText(this.largest(null))}`
      );
    }
    return null;
  }

  /** The five workflows whose versions (a caller's, or everyone's) take the most room. */
  private largest(by: string | null): Largest[] {
    return this.ctx.storage.sql
      .exec<{ workflow_id: string; name: string; versions: number; bytes: number }>(
        `SELECT workflow_id, (SELECT name FROM versions l WHERE l.workflow_id = v.workflow_id ORDER BY version DESC LIMIT 1) AS name,
                COUNT(*) AS versions, SUM(length(body)) AS bytes
         FROM versions v ${by === null ? '' : 'WHERE by = ?'} GROUP BY workflow_id ORDER BY bytes DESC LIMIT 5`,
        ...(by === null ? [] : [by]),
      )
      .toArray()
      .map((r) => ({ workflowId: r.workflow_id, name: r.name, versions: r.versions, bytes: r.bytes }));
  }

  /** Deletes the versions of a workflow kept for `by`'s changes (another caller's are theirs to undo with); how many. */
  async pruneVersions(workflowId: string, by: string): Promise<{ deleted: number; bytes: number }> {
    const { bytes } = this.ctx.storage.sql
      .exec<{ bytes: number | null }>('SELECT SUM(length(body)) AS bytes FROM versions WHERE workflow_id = ? AND by = ?', workflowId, by)
      .one();
    const deleted = this.ctx.storage.sql.exec('DELETE FROM versions WHERE workflow_id = ? AND by = ?', workflowId, by).rowsWritten;
    return { deleted, bytes: bytes ?? 0 };
  }

  /** Drops a version kept for a change that did not happen (n8n refused it and the workflow was put back). */
  async discard(version: number): Promise<void> {
    this.ctx.storage.sql.exec('DELETE FROM versions WHERE version = ?', version);
  }

  /** A workflow's versions, newest first. */
  async list(workflowId: string, limit: number): Promise<VersionRecord[]> {
    return this.ctx.storage.sql
      .exec<Row>(`SELECT ${COLUMNS} FROM versions WHERE workflow_id = ? ORDER BY version DESC LIMIT ?`, workflowId, limit)
      .toArray()
      .map(recordOf);
  }

  /** Every workflow with versions here, the most recently changed first, with its last change (a deleted one's is `delete`). */
  async workflows(limit: number): Promise<(VersionRecord & { versions: number })[]> {
    return this.ctx.storage.sql
      .exec<Row & { versions: number }>(
        `SELECT ${COLUMNS}, (SELECT COUNT(*) FROM versions o WHERE o.workflow_id = v.workflow_id) AS versions
         FROM versions v WHERE version = (SELECT MAX(version) FROM versions l WHERE l.workflow_id = v.workflow_id)
         ORDER BY version DESC LIMIT ?`,
        limit,
      )
      .toArray()
      .map((row) => ({ ...recordOf(row), versions: row.versions }));
  }

  /** One version with the workflow's JSON as kept; null when there is no such version of that workflow. */
  async get(workflowId: string, version: number): Promise<{ record: VersionRecord; workflow: string } | null> {
    const row = this.ctx.storage.sql
      .exec<Row & { body: ArrayBuffer }>(`SELECT ${COLUMNS}, body FROM versions WHERE workflow_id = ? AND version = ?`, workflowId, version)
      .toArray()[0];
    return row ? { record: recordOf(row), workflow: await gunzip(row.body) } : null;
  }

  /**
   * Saves a workflow's test case under its name, replacing one of the same name; or says why it
   * cannot (too large, too many for the workflow or the instance).
   */
  async saveTest(workflowId: string, name: string, definition: string, by: string): Promise<{ saved: true } | { refused: string }> {
    if (definition.length > MAX_TEST_BYTES) {
      return {
        refused: `the test is ${definition.length.toLocaleString('en-US')} characters of JSON; a test holds at most ${MAX_TEST_BYTES.toLocaleString('en-US')} (a smaller payload, fewer expectations)`,
      };
    }
    const count = (where: string, ...values: SqlStorageValue[]) =>
      this.ctx.storage.sql.exec<{ n: number }>(`SELECT COUNT(*) AS n FROM tests ${where}`, ...values).one().n;
    const replaces = count('WHERE workflow_id = ? AND name = ?', workflowId, name) > 0;
    if (!replaces && count('WHERE workflow_id = ?', workflowId) >= MAX_TESTS_PER_WORKFLOW) {
      return {
        refused: `workflow ${workflowId} has ${MAX_TESTS_PER_WORKFLOW} saved tests, as many as a workflow keeps: delete_workflow_test deletes one, or save this one under the name of one it replaces`,
      };
    }
    if (!replaces && count('') >= MAX_TESTS) {
      return { refused: `this n8n's workflows have ${MAX_TESTS.toLocaleString('en-US')} saved tests, as many as are kept: delete_workflow_test deletes some` };
    }
    this.ctx.storage.sql.exec(
      'INSERT INTO tests (workflow_id, name, definition, by, at) VALUES (?, ?, ?, ?, ?) ON CONFLICT (workflow_id, name) DO UPDATE SET definition = excluded.definition, by = excluded.by, at = excluded.at',
      workflowId,
      name,
      definition,
      by,
      Date.now(),
    );
    return { saved: true };
  }

  /** Deletes every test case of a workflow (it was deleted); how many. */
  async deleteTests(workflowId: string): Promise<number> {
    return this.ctx.storage.sql.exec('DELETE FROM tests WHERE workflow_id = ?', workflowId).rowsWritten;
  }

  /** A workflow's saved test cases, by name: their definitions, who saved each and when. */
  async tests(workflowId: string): Promise<StoredTest[]> {
    return this.ctx.storage.sql
      .exec<{ name: string; definition: string; by: string; at: number }>(
        'SELECT name, definition, by, at FROM tests WHERE workflow_id = ? ORDER BY name',
        workflowId,
      )
      .toArray()
      .map((row) => ({ name: row.name, definition: row.definition, by: row.by, at: new Date(row.at).toISOString() }));
  }

  /** Deletes a saved test case; whether there was one. */
  async deleteTest(workflowId: string, name: string): Promise<boolean> {
    return this.ctx.storage.sql.exec('DELETE FROM tests WHERE workflow_id = ? AND name = ?', workflowId, name).rowsWritten > 0;
  }

  /**
   * Takes a workflow's turn to be changed, for `holder` (a call) until `until`, waiting up to
   * `waitUntil` for the call that has it; or who has it still (another change, a test run's activation).
   */
  async takeTurn(
    workflowId: string,
    holder: string,
    owner: string,
    what: string,
    until: number,
    waitUntil: number,
  ): Promise<{ held: 'new' | 'again' } | { busy: Busy }> {
    const outcome = await this.leases.acquire({ name: `workflow:${workflowId}`, holder, owner, what, since: Date.now(), until }, waitUntil);
    return 'taken' in outcome ? { held: outcome.taken } : { busy: busyOf(outcome.inTheWay) };
  }

  /** Ends a call's turn on a workflow. */
  async endTurn(workflowId: string, holder: string): Promise<void> {
    this.leases.release(`workflow:${workflowId}`, holder);
  }

  /**
   * A test run activates a workflow for itself (`activating`), or finds it active for other test runs
   * and runs in their activation: either way it holds a claim on the active state, and the last run to
   * end deactivates it, unless someone set the active state meanwhile. Whether it holds one: a run
   * that finds the workflow active for no test run leaves it alone.
   */
  async claimActivation(workflowId: string, holder: string, owner: string, until: number, activating: boolean): Promise<boolean> {
    const prefix = `activation:${workflowId}:`;
    if (!activating && this.leases.named(prefix).length === 0) return false;
    this.leases.take({ name: `${prefix}${holder}`, holder, owner, what: 'a test run it was activated for', since: Date.now(), until });
    return true;
  }

  /** Ends a test run's claim: whether it stood (no one set the active state since), and how many test runs still hold one. */
  async endActivationClaim(workflowId: string, holder: string): Promise<{ stood: boolean; others: number }> {
    const prefix = `activation:${workflowId}:`;
    const stood = this.leases.release(`${prefix}${holder}`, holder);
    return { stood, others: this.leases.named(prefix).length };
  }

  /** Someone set a workflow's active state: the test runs it was activated for leave it as it is now. */
  async dropActivationClaim(workflowId: string): Promise<void> {
    this.leases.dropAll(`activation:${workflowId}:`);
  }

  /** Begins a run of `owner`'s (a test, a try) unless it has `max` going: then which. */
  async beginRun(holder: string, owner: string, what: string, until: number, max: number): Promise<{ began: true } | { busy: Busy[] }> {
    const going = this.leases.named('run:', owner).filter((lease) => lease.holder !== holder);
    if (going.length >= max) return { busy: going.map(busyOf) };
    this.leases.take({ name: `run:${holder}`, holder, owner, what, since: Date.now(), until });
    return { began: true };
  }

  async endRun(holder: string): Promise<void> {
    this.leases.release(`run:${holder}`, holder);
  }

  /** Drops versions past their age, and leases past their time. */
  private prune({ days }: HistoryLimits): void {
    this.ctx.storage.sql.exec('DELETE FROM versions WHERE at < ?', Date.now() - days * DAY_MS);
    this.leases.prune();
  }

  /** Keeps a workflow's newest `versions` versions. */
  private pruneWorkflow(workflowId: string, versions: number): void {
    this.ctx.storage.sql.exec(
      'DELETE FROM versions WHERE workflow_id = ? AND version NOT IN (SELECT version FROM versions WHERE workflow_id = ? ORDER BY version DESC LIMIT ?)',
      workflowId,
      workflowId,
      versions,
    );
  }
}

const COLUMNS = 'version, workflow_id, name, version_id, active, nodes, by, change, reason, at, bytes';

interface Row extends Record<string, SqlStorageValue> {
  version: number;
  workflow_id: string;
  name: string;
  version_id: string | null;
  active: number;
  nodes: number;
  by: string;
  change: string;
  reason: string;
  at: number;
  bytes: number;
}

const recordOf = (row: Row): VersionRecord => ({
  version: row.version,
  workflowId: row.workflow_id,
  name: row.name,
  versionId: row.version_id,
  active: row.active === 1,
  nodes: row.nodes,
  by: row.by,
  change: row.change as Change,
  reason: row.reason,
  at: new Date(row.at).toISOString(),
  bytes: row.bytes,
});

const gzip = (text: string): Promise<ArrayBuffer> => new Response(new Blob([text]).stream().pipeThrough(new CompressionStream('gzip'))).arrayBuffer();
const gunzip = (bytes: ArrayBuffer): Promise<string> => new Response(new Blob([bytes]).stream().pipeThrough(new DecompressionStream('gzip'))).text();
