import {
  WebStandardStreamableHTTPServerTransport,
  type AuthInfo,
  type HandleRequestOptions,
  type InitializeRequestParams,
  type JSONRPCMessage,
  type RequestId,
  type TransportSendOptions,
} from '@modelcontextprotocol/server';
import { SSE_KEEPALIVE_MS } from '../../config';
import { HttpError, toErrorResponse } from '../../protocol/httpError';
import { ErrorCode, isCancellation, isInitialize, isRequest, isResponse, undeliverable } from '../../protocol/jsonrpc';
import { STANDALONE_STREAM_ID, streamBookkeeping, type StreamBookkeeping } from '../../server/sdkInternals';
import { DurableEventStore } from './DurableEventStore';
import { handoffComment } from '../handoff/handoff';
import { isRestoreReply, replayInitialize } from '../restore';
import type { StreamSockets } from '../handoff/StreamSockets';

/** What an evicted session object needs to carry its Streamable HTTP session on. */
export interface StreamableSessionState {
  initialized: boolean;
  /** Replayed into a fresh SDK server, restoring protocol version and client capabilities. */
  initializeParams?: InitializeRequestParams;
}

export interface StreamableSessionHooks {
  /** The client's initialize was accepted: persist this before the answer goes out. `creator`: the initialize's auth info. */
  onInitialized(state: StreamableSessionState, creator: AuthInfo | undefined): Promise<void>;
  /** The client sent DELETE. */
  onClosed(): Promise<void>;
  /** Requests whose answer is a queued call's: nothing in this object is working on them. */
  waitingOnQueue(): ReadonlySet<RequestId>;
}

/** The initialize being handled, caught for `onsessioninitialized`, which the SDK calls with the session id alone. */
interface Initialize {
  params?: InitializeRequestParams;
  authInfo?: AuthInfo;
}

/** Suggested to clients (SSE `retry`) for reconnecting a stream that dropped. */
const RETRY_INTERVAL_MS = 1000;

const encoder = new TextEncoder();

/**
 * The SDK's web-standard Streamable HTTP transport for one session id, restorable after the Durable
 * Object holding it is evicted: `restore` marks it initialized and replays the client's initialize
 * into the new SDK server, whose answer to the replay is dropped. Every SSE event is kept in the
 * object's storage, so a client resumes a dropped stream with `Last-Event-ID`, and a queued call
 * still pending when the object was evicted is answered on its stream (`adopt`).
 *
 * No stream stays open in the object while it only waits: the session's GET stream at once, and a
 * POST stream once all it still owes are queued calls, are handed to the Worker (`park`,
 * src/sessions/handoff/handoff.ts), and their later events go out over the stream's hibernatable socket.
 * The SDK's keep-alive timer runs only on a stream whose body this object is still writing (it is
 * awake for that request anyway); parking a stream ends its body and clears its timer, and the
 * Worker keeps the held stream alive, so a timer never keeps a waiting object from hibernating.
 */
export class StreamableHttpTransport extends WebStandardStreamableHTTPServerTransport {
  private readonly initialize: Initialize;
  private readonly events: DurableEventStore;
  private readonly bookkeeping: StreamBookkeeping;
  /** The last event id each SDK stream carried in its HTTP body, where a socket picks up after a park. */
  private readonly written = new WeakMap<ReadableStreamDefaultController<Uint8Array>, string>();
  /** Streams whose client holds an event id to resume from: every later event on them is kept. */
  private readonly cursors = new Set<string>();
  /** Requests the client cancelled while they were being answered: owed no answer, and sent none (until the id is used again). */
  private readonly cancelled = new Set<RequestId>();

  constructor(
    sessionId: string,
    storage: DurableObjectStorage,
    private readonly sockets: StreamSockets,
    private readonly hooks: StreamableSessionHooks,
  ) {
    // The SDK reports a new session before it dispatches the initialize, so the initialize is caught in handleRequest.
    const initialize: Initialize = {};
    // The store asks the transport, which does not exist yet while super() runs.
    const self: { transport?: StreamableHttpTransport } = {};
    const events = new DurableEventStore(storage, {
      resumable: (streamId, message) => self.transport!.resumable(streamId, message),
      onStored: (streamId, eventId, message) => {
        if ('jsonrpc' in message) sockets.sendMessage(streamId, message, eventId);
      },
    });
    super({
      sessionIdGenerator: () => sessionId,
      eventStore: events,
      retryInterval: RETRY_INTERVAL_MS,
      keepAliveMs: SSE_KEEPALIVE_MS,
      onsessioninitialized: () => hooks.onInitialized({ initialized: true, initializeParams: initialize.params }, initialize.authInfo),
      onsessionclosed: () => hooks.onClosed(),
    });
    this.initialize = initialize;
    this.events = events;
    self.transport = this;
    this.bookkeeping = streamBookkeeping(this);
    this.bookkeeping.onEventWritten((controller, eventId) => this.written.set(controller, eventId));
  }

  /**
   * Hands a stream to the Worker: its HTTP body ends with the handoff comment, and what the stream
   * still carries is kept in the event store and sent on its socket. The SDK is left as after a
   * client disconnect, so it answers the stream's requests into the store.
   */
  private park(streamId: string): void {
    const stream = this.bookkeeping.streams.get(streamId);
    if (!stream?.controller) return;
    this.cursors.add(streamId);
    const after = this.written.get(stream.controller);
    stream.controller.enqueue(encoder.encode(handoffComment({ streamId, ...(after === undefined ? {} : { after }) })));
    stream.cleanup();
  }

  /** Parks a POST stream once every request it still answers waits on a queued call. */
  parkIfWaiting(streamId: string): void {
    if (streamId === STANDALONE_STREAM_ID) return;
    const waiting = this.hooks.waitingOnQueue();
    const unanswered = this.unansweredOn(streamId);
    if (unanswered.length > 0 && unanswered.every((id) => waiting.has(id))) this.park(streamId);
  }

  private unansweredOn(streamId: string): RequestId[] {
    const { requestStreams, answers } = this.bookkeeping;
    return [...requestStreams].filter(([id, stream]) => stream === streamId && !answers.has(id)).map(([id]) => id);
  }

  /** Whether a request is still being answered on the stream. */
  isAnswering(streamId: string): boolean {
    return this.unansweredOn(streamId).length > 0;
  }

  /**
   * Whether a client could resume to this event. Not so for the one response of a stream that carries
   * a single request and gave the client no event id before (no priming event, no progress): the
   * client has everything once it arrives, and had no cursor to come back with before. That is every
   * plain request of a pre-2025-11-25 client, which then costs no storage write. Any other event
   * (a priming event, a notification) hands the client a cursor on its stream.
   */
  private resumable(streamId: string, message: JSONRPCMessage): boolean {
    if (!isResponse(message)) {
      this.cursors.add(streamId);
      return true;
    }
    if (this.cursors.has(streamId) || this.sockets.has(streamId)) return true;
    return [...this.bookkeeping.requestStreams.values()].filter((id) => id === streamId).length > 1;
  }

  /** The SSE stream a request is being answered on (undefined for JSON responses). */
  streamOf(requestId: RequestId): string | undefined {
    return this.bookkeeping.requestStreams.get(requestId);
  }

  /**
   * Takes over a request an evicted instance was answering on `streamId`: its response (or progress)
   * goes to the stream if the client resumed it, and into the event store for a later resume if not.
   */
  adopt(requestId: RequestId, streamId: string): void {
    this.bookkeeping.requestStreams.set(requestId, streamId);
    this.cursors.add(streamId);
  }

  /** Call after the SDK server is connected: the replay goes through its `onmessage`. */
  restore(sessionId: string, state: StreamableSessionState): void {
    if (!state.initialized) return;
    this.sessionId = sessionId;
    this.bookkeeping.markInitialized();
    if (state.initializeParams) replayInitialize(this.onmessage, state.initializeParams);
  }

  /** `parsedBody`: the messages the Worker validated (src/protocol/messages.ts); they are only looked at here, not validated again. */
  override async handleRequest(request: Request, options?: HandleRequestOptions): Promise<Response> {
    const messages = [options?.parsedBody ?? []].flat() as JSONRPCMessage[];
    const init = messages.find(isInitialize);
    if (init) Object.assign(this.initialize, { params: init.params as InitializeRequestParams, authInfo: options?.authInfo });
    const lastEventId = request.headers.get('last-event-id');
    if (request.method === 'GET' && !lastEventId && this.sockets.has(STANDALONE_STREAM_ID)) {
      // The SDK's own rule, which it can no longer see once the stream is parked.
      return toErrorResponse(new HttpError(409, ErrorCode.TransportRefused, 'Conflict: Only one SSE stream is allowed per session'));
    }
    for (const message of messages) if (isRequest(message)) this.cancelled.delete(message.id);
    const response = await super.handleRequest(request, options);
    // After the SDK has taken the body's requests in, so a request and its own cancellation may share it.
    for (const message of messages) if (isCancellation(message)) this.settleCancelled(message.params.requestId);
    if (request.method !== 'GET' || !response.ok) return response;
    if (!lastEventId) {
      this.park(STANDALONE_STREAM_ID);
      return response;
    }
    const streamId = await this.events.getStreamIdForEventId(lastEventId);
    if (streamId === undefined) return response;
    // The resume itself proves the client holds a cursor on the stream.
    this.cursors.add(streamId);
    // A resumed request stream with nothing left to answer ends once replayed; one still waiting is parked.
    if (streamId === STANDALONE_STREAM_ID || this.isAnswering(streamId)) this.park(streamId);
    else this.bookkeeping.streams.get(streamId)?.cleanup();
    return response;
  }

  /**
   * The client cancelled a request: it gets no answer (MCP), so its stream waits for none. It leaves
   * the stream's bookkeeping, and the stream ends now if everything else on it is answered, wherever it
   * is held. Before, a batch holding a request and its own cancellation never ended.
   */
  private settleCancelled(requestId: RequestId): void {
    const streamId = this.streamOf(requestId);
    const { requestStreams, answers, streams } = this.bookkeeping;
    if (streamId === undefined || answers.has(requestId)) return;
    this.cancelled.add(requestId);
    requestStreams.delete(requestId);
    if (this.isAnswering(streamId)) return;
    // As the SDK ends a stream whose last answer went out.
    for (const [id, stream] of [...requestStreams]) {
      if (stream !== streamId) continue;
      answers.delete(id);
      requestStreams.delete(id);
    }
    this.cursors.delete(streamId);
    streams.get(streamId)?.cleanup();
    this.sockets.close(streamId, 'answered');
  }

  override async send(message: JSONRPCMessage, options?: TransportSendOptions): Promise<void> {
    if (isRestoreReply(message)) return;
    const response = isResponse(message);
    // An answer the handler produced before it saw its cancellation: the client asked for none.
    if (response && message.id !== undefined && this.cancelled.delete(message.id)) return;
    const requestId = response ? message.id : options?.relatedRequestId;
    const streamId = requestId === undefined ? undefined : this.streamOf(requestId);
    try {
      await super.send(message, options);
    } catch (error) {
      // An answer the event store refused (too large to keep) would leave its client waiting for ever.
      if (!response) throw error;
      await super.send(undeliverable(message.id ?? null, error) as JSONRPCMessage, options);
    }
    if (!response || streamId === undefined) return;
    if (this.isAnswering(streamId)) return this.parkIfWaiting(streamId);
    this.cursors.delete(streamId);
    this.sockets.close(streamId);
  }

  /** Closes a request's stream, wherever it is held (the SDK's own, or the Worker's over a socket). */
  override closeSSEStream(requestId: RequestId): void {
    const streamId = this.streamOf(requestId);
    super.closeSSEStream(requestId);
    if (streamId !== undefined) this.sockets.close(streamId, 'closed by the server');
  }
}
