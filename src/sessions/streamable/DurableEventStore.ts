import type { EventStore, JSONRPCMessage } from '@modelcontextprotocol/server';

interface StoredEvent {
  /** The SSE stream the event was sent on: a POST's stream, or the SDK's standalone GET stream. */
  s: string;
  m: JSONRPCMessage;
}

export interface EventStoreOptions {
  /** Whether a client could ever ask for this event again; events nobody can resume to are not written. */
  resumable?: (streamId: string, message: JSONRPCMessage) => boolean;
  /** Called once an event is stored: a stream held over a socket is sent it there. */
  onStored?: (streamId: string, eventId: string, message: JSONRPCMessage) => void;
  clock?: () => number;
}

const PREFIX = 'event:';
/** A client can resume a stream this long after an event; older events are pruned. */
export const EVENT_RETENTION_MS = 10 * 60_000;
const PRUNE_EVERY_MS = 60_000;
/** Storage deletes take at most 128 keys at once. */
const DELETE_BATCH = 128;

/**
 * The SDK's EventStore on Durable Object storage, so a client that lost its SSE stream — to the
 * network, or because the session object was evicted — resumes it with `Last-Event-ID`.
 *
 * Event ids are microsecond timestamps (16 digits, made strictly increasing), so they sort by time
 * under one prefix, stay unique across evictions without a stored counter, and pruning is a key range.
 */
export class DurableEventStore implements EventStore {
  /** The newest id issued, read back from storage once per instance. */
  private last: number | undefined;
  private prunedAt = 0;

  private readonly resumable: NonNullable<EventStoreOptions['resumable']>;
  private readonly onStored: NonNullable<EventStoreOptions['onStored']>;
  private readonly clock: () => number;

  constructor(
    private readonly storage: DurableObjectStorage,
    { resumable = () => true, onStored = () => {}, clock = Date.now }: EventStoreOptions = {},
  ) {
    this.resumable = resumable;
    this.onStored = onStored;
    this.clock = clock;
  }

  async storeEvent(streamId: string, message: JSONRPCMessage): Promise<string> {
    const now = this.clock();
    this.last ??= await this.newestStored();
    const seq = Math.max(this.last + 1, now * 1000);
    this.last = seq;
    const id = String(seq).padStart(16, '0');
    if (!this.resumable(streamId, message)) return id;
    await this.storage.put<StoredEvent>(PREFIX + id, { s: streamId, m: message });
    this.onStored(streamId, id, message);
    if (now - this.prunedAt > PRUNE_EVERY_MS) await this.prune(now);
    return id;
  }

  async getStreamIdForEventId(eventId: string): Promise<string | undefined> {
    if (!/^\d{16}$/.test(eventId)) return undefined;
    return (await this.storage.get<StoredEvent>(PREFIX + eventId))?.s;
  }

  async replayEventsAfter(lastEventId: string, { send }: { send: (eventId: string, message: JSONRPCMessage) => Promise<void> }): Promise<string> {
    const streamId = await this.getStreamIdForEventId(lastEventId);
    if (streamId === undefined) throw new Error(`Unknown event id ${lastEventId}`);
    for (const [id, message] of await this.eventsOn(streamId, lastEventId)) await send(id, message);
    return streamId;
  }

  /** The stored messages of one stream after an event id (all of them without one), oldest first. */
  async eventsOn(streamId: string, after?: string): Promise<[string, JSONRPCMessage][]> {
    const later = await this.storage.list<StoredEvent>({ prefix: PREFIX, ...(after ? { start: PREFIX + after } : {}) });
    const events: [string, JSONRPCMessage][] = [];
    for (const [key, event] of later) {
      const id = key.slice(PREFIX.length);
      // Priming events (`{}`, no JSON-RPC) only hand the client a cursor; replaying one would be noise.
      if (id === after || event.s !== streamId || !('jsonrpc' in event.m)) continue;
      events.push([id, event.m]);
    }
    return events;
  }

  /** The clock alone could repeat an id: a new instance may start within the same millisecond. */
  private async newestStored(): Promise<number> {
    const [newest] = (await this.storage.list({ prefix: PREFIX, reverse: true, limit: 1 })).keys();
    return newest === undefined ? 0 : Number(newest.slice(PREFIX.length));
  }

  /** Deletes events older than the retention window. */
  private async prune(now: number): Promise<void> {
    this.prunedAt = now;
    const end = PREFIX + String((now - EVENT_RETENTION_MS) * 1000).padStart(16, '0');
    const old = [...(await this.storage.list({ prefix: PREFIX, end })).keys()];
    for (let i = 0; i < old.length; i += DELETE_BATCH) await this.storage.delete(old.slice(i, i + DELETE_BATCH));
  }
}
