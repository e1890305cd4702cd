import { env } from 'cloudflare:workers';
import { runInDurableObject } from 'cloudflare:test';
import type { JSONRPCMessage } from '@modelcontextprotocol/server';
import { describe, expect, it } from 'vitest';
import type { SessionObject } from '../../../src/sessions/SessionObject';
import { DurableEventStore, EVENT_RETENTION_MS } from '../../../src/sessions/streamable/DurableEventStore';

/** Runs `test` against the storage of a fresh, otherwise unused session object. */
const withStorage = (test: (storage: DurableObjectStorage) => Promise<void>) =>
  runInDurableObject(env.SESSIONS.get(env.SESSIONS.newUniqueId()), async (_: SessionObject, state) => {
    try {
      await test(state.storage);
    } finally {
      await state.storage.deleteAll();
    }
  });

const ping = (id: number): JSONRPCMessage => ({ jsonrpc: '2.0', id, method: 'ping' });

async function replay(store: DurableEventStore, after: string) {
  const sent: [string, JSONRPCMessage][] = [];
  const streamId = await store.replayEventsAfter(after, { send: async (id, message) => void sent.push([id, message]) });
  return { streamId, sent };
}

describe('DurableEventStore', () => {
  it('replays only the later events of the same stream, in order, without priming events', () =>
    withStorage(async (storage) => {
      const store = new DurableEventStore(storage);
      const first = await store.storeEvent('a', {} as JSONRPCMessage); // a priming event
      await store.storeEvent('b', ping(1));
      const second = await store.storeEvent('a', ping(2));
      await store.storeEvent('a', {} as JSONRPCMessage);
      const third = await store.storeEvent('a', ping(3));
      expect(await replay(store, first)).toEqual({
        streamId: 'a',
        sent: [
          [second, ping(2)],
          [third, ping(3)],
        ],
      });
      expect(await replay(store, second)).toEqual({ streamId: 'a', sent: [[third, ping(3)]] });
    }));

  it('issues increasing ids, also from a new instance (after eviction) in the same millisecond', () =>
    withStorage(async (storage) => {
      const ids = [];
      for (let i = 0; i < 5; i++) ids.push(await new DurableEventStore(storage).storeEvent('s', ping(i)));
      expect([...ids].sort()).toEqual(ids);
      expect(new Set(ids).size).toBe(5);
    }));

  it('knows the stream of its own ids only', () =>
    withStorage(async (storage) => {
      const store = new DurableEventStore(storage);
      const id = await store.storeEvent('s', ping(1));
      expect(await store.getStreamIdForEventId(id)).toBe('s');
      expect(await store.getStreamIdForEventId('0000000000000001')).toBeUndefined();
      expect(await store.getStreamIdForEventId('event:x')).toBeUndefined();
      await expect(replay(store, '0000000000000001')).rejects.toThrow(/Unknown event id/);
    }));

  it('prunes events older than the retention window', () =>
    withStorage(async (storage) => {
      let now = Date.now();
      const store = new DurableEventStore(storage, { clock: () => now });
      const old = await store.storeEvent('s', ping(1));
      now += EVENT_RETENTION_MS + 60_001;
      const recent = await store.storeEvent('s', ping(2));
      expect(await store.getStreamIdForEventId(old)).toBeUndefined();
      expect(await store.getStreamIdForEventId(recent)).toBe('s');
      expect([...(await storage.list({ prefix: 'event:' })).keys()]).toEqual([`event:${recent}`]);
    }));
});
