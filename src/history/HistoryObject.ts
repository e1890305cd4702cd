import { DurableObject } from 'cloudflare:workers';
import type { Env } from '../env';

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

export interface Retention {
  /** Versions kept per workflow, newest first. */
  versions: number;
  /** Versions older than this many days are dropped. */
  days: number;
}

/**
 * A stored value of a SQLite-backed Durable Object is at most 2 MB; a workflow's JSON is kept gzipped
 * in one row, so a workflow whose compressed JSON passes this cannot be kept (and is not changed).
 */
export const MAX_KEPT_BYTES = 1_900_000;

const DAY_MS = 86_400_000;

/**
 * The version history of one n8n instance's workflows, as this server changed them, and the test cases
 * saved with them (src/history/history.ts names one object per instance). In the object's SQLite storage: a change and the version it kept are
 * one row, written in one statement, so a version is kept whole or not at all, and a workflow deleted
 * from n8n keeps its history here. Versions are pruned on every write, by count per workflow and by age.
 */
export class HistoryObject extends DurableObject<Env> {
  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
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
   * throw: the caller stops its change on it, and an error crossing RPC would lose its kind).
   */
  async keep(entry: NewVersion, workflowJson: string, retention: Retention): Promise<{ kept: VersionRecord } | { refused: string }> {
    const body = await gzip(workflowJson);
    if (body.byteLength > MAX_KEPT_BYTES) {
      return { refused: `the workflow is too large to keep a version of (${body.byteLength} bytes compressed; the limit is ${MAX_KEPT_BYTES})` };
    }
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
    this.prune(entry.workflowId, retention);
    return { kept: { ...entry, version: row.version, at: new Date(at).toISOString(), bytes: workflowJson.length } };
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

  /** Saves a workflow's test case under its name, replacing one of the same name. */
  async saveTest(workflowId: string, name: string, definition: string, by: string): Promise<void> {
    this.ctx.storage.sql.exec(
      'INSERT INTO tests (workflow_id, name, definition, by, at) VALUES (?, ?, ?, ?, ?) ON CONFLICT (workflow_id, name) DO UPDATE SET definition = excluded.definition, by = excluded.by, at = excluded.at',
      workflowId,
      name,
      definition,
      by,
      Date.now(),
    );
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

  private prune(workflowId: string, { versions, days }: Retention): void {
    this.ctx.storage.sql.exec(
      'DELETE FROM versions WHERE workflow_id = ? AND version NOT IN (SELECT version FROM versions WHERE workflow_id = ? ORDER BY version DESC LIMIT ?)',
      workflowId,
      workflowId,
      versions,
    );
    this.ctx.storage.sql.exec('DELETE FROM versions WHERE at < ?', Date.now() - days * DAY_MS);
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
