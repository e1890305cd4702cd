import type { McpServer, RequestId } from '@modelcontextprotocol/server';
import type { Principal } from '../principal';
import { idleTtlMs } from '../config';
import type { Env } from '../env';
import type { TransportKind } from './kinds';
import type { PendingCalls } from './PendingCalls';
import type { StreamSockets } from './handoff/StreamSockets';
import type { StreamableSessionState } from './streamable/StreamableHttpTransport';

/** Everything needed to carry a session on after eviction; kept under one storage key. */
export interface SessionRecord extends StreamableSessionState {
  id: string;
  transport: TransportKind;
  /** Who created the session: the only principal it answers (src/auth). */
  principal: Principal;
  createdAt: number;
  /** Idle deadline; the alarm closes the session when it passes. */
  expiresAt: number;
}

export function newRecord(env: Env, id: string, transport: TransportKind, principal: Principal): SessionRecord {
  const now = Date.now();
  return { id, transport, principal, createdAt: now, expiresAt: now + idleTtlMs(env), initialized: false };
}

/** What a session's transport tells the object about its queued tool calls. */
export interface QueueHooks {
  /** The stream a request is answered on, recorded with its queued call so the answer finds it after an eviction. */
  streamOf?(requestId: RequestId): string | undefined;
  /** A call was handed to the queue: nothing in the object works on it any more. */
  queued?(streamId: string | undefined): void;
}

/**
 * What each kind of session (streamable/StreamableSession, sse/SseSession, query/QuerySession) gets
 * from the Durable Object that holds it (SessionObject): its storage and the sockets of the streams
 * the Worker holds, the pending queued calls, the session record, and SDK servers whose queued tool
 * calls the object sends and answers.
 */
export interface SessionHost {
  readonly env: Env;
  readonly storage: DurableObjectStorage;
  readonly sockets: StreamSockets;
  readonly pending: PendingCalls;
  /** An SDK server for the session (or query) `id`: direct tools run in the object, queued ones go to the queue. */
  server(id: string, hooks?: QueueHooks): McpServer;
  /** The session record (cached after the first read); null when there is none. */
  load(): Promise<SessionRecord | null>;
  save(record: SessionRecord): Promise<void>;
  /** Ends the session: closes its streams and forgets everything it stored. */
  terminate(): Promise<void>;
}
