import { env } from 'cloudflare:workers';
import { runInDurableObject } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import { Leases, type Lease } from '../../src/history/leases';

/** Leases over the SQLite of a history object of their own. */
const inObject = <T>(work: (leases: Leases) => Promise<T> | T) =>
  runInDurableObject(env.HISTORY.get(env.HISTORY.newUniqueId()), (_instance, state) => work(new Leases(state.storage.sql)));
const lease = (name: string, holder: string, ms = 30_000, owner = 'key_a'): Lease => ({
  name,
  holder,
  owner,
  what: `${holder}'s work`,
  since: Date.now(),
  until: Date.now() + ms,
});

describe('Leases', () => {
  it('gives a name to one holder at a time, again to the one that has it, and says who is in the way', () =>
    inObject((leases) => {
      expect(leases.take(lease('workflow:1', 'a'))).toEqual({ taken: 'new' });
      expect(leases.take(lease('workflow:1', 'a'))).toEqual({ taken: 'again' });
      expect(leases.take(lease('workflow:1', 'b'))).toEqual({ inTheWay: expect.objectContaining({ holder: 'a', what: "a's work" }) });
      expect(leases.take(lease('workflow:2', 'b'))).toEqual({ taken: 'new' });
    }));

  it('frees a name past its time, and on release by its holder only', () =>
    inObject((leases) => {
      leases.take(lease('workflow:1', 'a', -1));
      expect(leases.holderOf('workflow:1')).toBeNull();
      expect(leases.take(lease('workflow:1', 'b'))).toEqual({ taken: 'new' });
      expect(leases.release('workflow:1', 'a')).toBe(false);
      expect(leases.release('workflow:1', 'b')).toBe(true);
      expect(leases.holderOf('workflow:1')).toBeNull();
    }));

  it('wakes a waiter when the name is released, and gives up at its own time', () =>
    inObject(async (leases) => {
      leases.take(lease('workflow:1', 'a'));
      const waiting = leases.acquire(lease('workflow:1', 'b'), Date.now() + 10_000);
      setTimeout(() => leases.release('workflow:1', 'a'), 100);
      expect(await waiting).toEqual({ taken: 'new' });
      const started = Date.now();
      expect(await leases.acquire(lease('workflow:1', 'c'), Date.now() + 300)).toEqual({ inTheWay: expect.objectContaining({ holder: 'b' }) });
      expect(Date.now() - started).toBeGreaterThanOrEqual(290);
    }));

  it('lists and drops the live leases under a prefix, by owner', () =>
    inObject((leases) => {
      leases.take(lease('run:1', '1', 30_000, 'key_a'));
      leases.take(lease('run:2', '2', 30_000, 'key_b'));
      leases.take(lease('run:3', '3', -1, 'key_a'));
      expect(leases.named('run:', 'key_a').map((l) => l.name)).toEqual(['run:1']);
      expect(leases.named('run:').map((l) => l.name)).toEqual(['run:1', 'run:2']);
      leases.dropAll('run:');
      expect(leases.named('run:')).toEqual([]);
    }));
});
