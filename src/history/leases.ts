/**
 * Leases in a Durable Object's SQLite: a name held by one holder until a time, so that the calls of
 * every isolate that ask the one object take turns. A holder that dies loses its lease when it runs
 * out. Used for a workflow's changes (one at a time), the runs a caller has going, and a test run's
 * claim on the active state it set.
 */

export interface Lease {
  /** What is held: `workflow:<id>`, `run:<call id>`, `activation:<id>`. */
  name: string;
  /** The call that holds it (its id: a call holds again what it holds already). */
  holder: string;
  /** Who the call is made by (a principal's subject). */
  owner: string;
  /** What the call is doing, in words for whoever waits. */
  what: string;
  since: number;
  until: number;
}

/** The lease on a name when another holds it, in words: who, doing what, since and until when. */
export interface Busy {
  owner: string;
  what: string;
  since: string;
  until: string;
}

export const busyOf = (lease: Lease): Busy => ({
  owner: lease.owner,
  what: lease.what,
  since: new Date(lease.since).toISOString(),
  until: new Date(lease.until).toISOString(),
});

export class Leases {
  /** Calls waiting for a name, woken when it is released. */
  private readonly waiting = new Map<string, Set<() => void>>();

  constructor(private readonly sql: SqlStorage) {
    sql.exec(`
      CREATE TABLE IF NOT EXISTS leases (
        name TEXT PRIMARY KEY,
        holder TEXT NOT NULL,
        owner TEXT NOT NULL,
        what TEXT NOT NULL,
        since INTEGER NOT NULL,
        until INTEGER NOT NULL
      );
      CREATE INDEX IF NOT EXISTS leases_by_owner ON leases (owner);
    `);
  }

  /** The live lease on a name; one past its time is no one's. */
  holderOf(name: string): Lease | null {
    return this.sql.exec<Lease & Record<string, SqlStorageValue>>('SELECT * FROM leases WHERE name = ? AND until > ?', name, Date.now()).toArray()[0] ?? null;
  }

  /**
   * Takes a name for `lease.holder` if no one else holds it: `taken` (`again` when the holder held it
   * already: its lease is extended), or the lease in the way.
   */
  take(lease: Lease): { taken: 'new' | 'again' } | { inTheWay: Lease } {
    const held = this.holderOf(lease.name);
    if (held && held.holder !== lease.holder) return { inTheWay: held };
    this.sql.exec(
      'INSERT OR REPLACE INTO leases (name, holder, owner, what, since, until) VALUES (?, ?, ?, ?, ?, ?)',
      lease.name,
      lease.holder,
      lease.owner,
      lease.what,
      held?.since ?? lease.since,
      lease.until,
    );
    return { taken: held ? 'again' : 'new' };
  }

  /** Takes a name, waiting until `waitUntil` (epoch ms) for its holder to release it or run out; as `take` answers. */
  async acquire(lease: Lease, waitUntil: number): Promise<ReturnType<Leases['take']>> {
    for (;;) {
      const outcome = this.take(lease);
      if ('taken' in outcome || Date.now() >= waitUntil) return outcome;
      await this.released(lease.name, Math.min(waitUntil, outcome.inTheWay.until) - Date.now());
    }
  }

  /** Gives a name up, if `holder` holds it; whether it did. */
  release(name: string, holder: string): boolean {
    const released = this.sql.exec('DELETE FROM leases WHERE name = ? AND holder = ?', name, holder).rowsWritten > 0;
    if (released) for (const wake of this.waiting.get(name) ?? []) wake();
    return released;
  }

  /** Gives up every name that starts with `prefix`, whoever holds it. */
  dropAll(prefix: string): void {
    this.sql.exec('DELETE FROM leases WHERE substr(name, 1, ?) = ?', prefix.length, prefix);
  }

  /** The live leases whose names start with `prefix`, of one owner or of any. */
  named(prefix: string, owner?: string): Lease[] {
    return this.sql
      .exec<Lease & Record<string, SqlStorageValue>>(
        `SELECT * FROM leases WHERE until > ? AND substr(name, 1, ?) = ?${owner === undefined ? '' : ' AND owner = ?'}`,
        Date.now(),
        prefix.length,
        prefix,
        ...(owner === undefined ? [] : [owner]),
      )
      .toArray();
  }

  /** Forgets leases past their time. */
  prune(): void {
    this.sql.exec('DELETE FROM leases WHERE until <= ?', Date.now());
  }

  /** Resolves when `name` is released, or after `ms`. */
  private released(name: string, ms: number): Promise<void> {
    return new Promise((resolve) => {
      const waiters = this.waiting.get(name) ?? new Set();
      this.waiting.set(name, waiters);
      const done = () => {
        clearTimeout(timer);
        waiters.delete(done);
        if (waiters.size === 0) this.waiting.delete(name);
        resolve();
      };
      const timer = setTimeout(done, Math.max(0, ms));
      waiters.add(done);
    });
  }
}
