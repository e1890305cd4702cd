import {
  WebStandardStreamableHTTPServerTransport,
  type HandleRequestOptions,
} from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import type { TransportSendOptions } from '@modelcontextprotocol/sdk/shared/transport.js';
import {
  isInitializeRequest,
  isJSONRPCErrorResponse,
  isJSONRPCRequest,
  isJSONRPCResultResponse,
  type InitializeRequestParams,
  type JSONRPCMessage,
  type RequestId,
} from '@modelcontextprotocol/sdk/types.js';
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
  /** The client's initialize was accepted: persist this before the answer goes out. */
  onInitialized(state: StreamableSessionState): Promise<void>;
  /** The client sent DELETE. */
  onClosed(): Promise<void>;
  /** Requests whose answer is a queued call's: nothing in this object is working on them. */
  waitingOnQueue(): ReadonlySet<RequestId>;
}

/** The SDK's id for the standalone GET stream, which stays open for server notifications. */
export const STANDALONE_STREAM_ID = '_GET_stream';
/** Suggested to clients (SSE `retry`) for reconnecting a stream that dropped. */
const RETRY_INTERVAL_MS = 1000;

/** The SDK's private request ↔ stream bookkeeping, which resumption after eviction has to rebuild. */
interface StreamBookkeeping {
  _requestToStreamMapping: Map<RequestId, string>;
  _requestResponseMap: Map<RequestId, JSONRPCMessage>;
  _streamMapping: Map<string, { cleanup(): void; controller?: ReadableStreamDefaultController<Uint8Array> }>;
  _resumableStreams: Set<string>;
  writeSSEEvent(controller: ReadableStreamDefaultController<Uint8Array>, encoder: TextEncoder, message: JSONRPCMessage, eventId?: string): boolean;
}

const encoder = new TextEncoder();

const isCancellation = (message: JSONRPCMessage): message is JSONRPCMessage & { params: { requestId: RequestId } } =>
  'method' in message && message.method === 'notifications/cancelled' && !('id' in message) && typeof message.params?.requestId !== 'undefined';

/**
 * The SDK's web-standard Streamable HTTP transport for one session id, restorable after the Durable
 * Object holding it is evicted: `restore` marks it initialized and replays the client's initialize
 * into the new SDK server, whose answer to the replay is dropped. Every SSE event is kept in the
 * object's storage, so a client resumes a dropped stream with `Last-Event-ID`, and a queued call
 * still pending when the object was evicted is answered on its stream (`adopt`).
 *
 * No stream stays open in the object while it only waits: the session's GET stream at once, and a
 * POST stream once all it still owes are queued calls, are handed to the Worker (`park`, src/transport/
 * handoff.ts), and their later events go out over the stream's hibernatable socket.
 */
export class StreamableHttpTransport extends WebStandardStreamableHTTPServerTransport {
  private readonly initialize: { params?: InitializeRequestParams };
  private readonly events: DurableEventStore;
  /** The last event id each SDK stream carried in its HTTP body, where a socket picks up after a park. */
  private readonly written = new WeakMap<ReadableStreamDefaultController<Uint8Array>, string>();
  /** Requests the client cancelled while they were being answered: owed no answer, and sent none (until the id is used again). */
  private readonly cancelled = new Set<RequestId>();

  constructor(
    sessionId: string,
    storage: DurableObjectStorage,
    private readonly sockets: StreamSockets,
    private readonly hooks: StreamableSessionHooks,
  ) {
    // The SDK reports a new session before it dispatches the initialize, so its params are caught in handleRequest.
    const initialize: { params?: InitializeRequestParams } = {};
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
      onsessioninitialized: () => hooks.onInitialized({ initialized: true, initializeParams: initialize.params }),
      onsessionclosed: () => hooks.onClosed(),
    });
    this.initialize = initialize;
    this.events = events;
    self.transport = this;
    const write = this.bookkeeping.writeSSEEvent.bind(this);
    this.bookkeeping.writeSSEEvent = (controller, encoder, message, eventId) => {
      const written = write(controller, encoder, message, eventId);
      if (written && eventId !== undefined) this.written.set(controller, eventId);
      return written;
    };
  }

  /**
   * Hands a stream to the Worker: its HTTP body ends with the handoff comment, and what the stream
   * still carries is kept in the event store and sent on its socket. The SDK is left as after a
   * client disconnect on a resumable stream, so it answers the stream's requests into the store.
   */
  private park(streamId: string): void {
    const stream = this.bookkeeping._streamMapping.get(streamId);
    if (!stream?.controller) return;
    this.bookkeeping._resumableStreams.add(streamId);
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
    const { _requestToStreamMapping: requests, _requestResponseMap: answered } = this.bookkeeping;
    return [...requests].filter(([id, stream]) => stream === streamId && !answered.has(id)).map(([id]) => id);
  }

  /** Whether a request is still being answered on the stream. */
  isAnswering(streamId: string): boolean {
    return this.unansweredOn(streamId).length > 0;
  }

  /**
   * Whether a client could resume to this event. Not so for the one response of a stream that carries
   * a single request and gave the client no event id before (no priming event, no progress): the
   * client has everything once it arrives, and had no cursor to come back with before. That is every
   * plain request of a pre-2025-11-25 client, which then costs no storage write.
   */
  private resumable(streamId: string, message: JSONRPCMessage): boolean {
    if (!isJSONRPCResultResponse(message) && !isJSONRPCErrorResponse(message)) return true;
    if (this.bookkeeping._resumableStreams.has(streamId) || this.sockets.has(streamId)) return true;
    return [...this.bookkeeping._requestToStreamMapping.values()].filter((id) => id === streamId).length > 1;
  }

  /** The SSE stream a request is being answered on (undefined for JSON responses). */
  streamOf(requestId: RequestId): string | undefined {
    return this.bookkeeping._requestToStreamMapping.get(requestId);
  }

  /**
   * Takes over a request an evicted instance was answering on `streamId`: its response (or progress)
   * goes to the stream if the client resumed it, and into the event store for a later resume if not.
   */
  adopt(requestId: RequestId, streamId: string): void {
    this.bookkeeping._requestToStreamMapping.set(requestId, streamId);
    this.bookkeeping._resumableStreams.add(streamId);
  }

  private get bookkeeping(): StreamBookkeeping {
    return this as unknown as StreamBookkeeping;
  }

  /** Call after the SDK server is connected: the replay goes through its `onmessage`. */
  restore(sessionId: string, state: StreamableSessionState): void {
    if (!state.initialized) return;
    this.sessionId = sessionId;
    // The SDK keeps this flag private; without it every request would be "Server not initialized".
    (this as unknown as { _initialized: boolean })._initialized = true;
    if (state.initializeParams) replayInitialize(this.onmessage, state.initializeParams);
  }

  override async handleRequest(request: Request, options?: HandleRequestOptions): Promise<Response> {
    const messages = [options?.parsedBody ?? []].flat();
    const init = messages.find((m) => isInitializeRequest(m));
    if (init && isInitializeRequest(init)) this.initialize.params = init.params;
    const lastEventId = request.headers.get('last-event-id');
    if (request.method === 'GET' && !lastEventId && this.sockets.has(STANDALONE_STREAM_ID)) {
      // The SDK's own rule, which it can no longer see once the stream is parked.
      return Response.json({ jsonrpc: '2.0', error: { code: -32000, message: 'Conflict: Only one SSE stream is allowed per session' }, id: null }, { status: 409 });
    }
    for (const message of messages as JSONRPCMessage[]) if (isJSONRPCRequest(message)) this.cancelled.delete(message.id);
    const response = await super.handleRequest(request, options);
    // After the SDK has taken the body's requests in, so a request and its own cancellation may share it.
    for (const message of messages as JSONRPCMessage[]) if (isCancellation(message)) this.settleCancelled(message.params.requestId);
    if (request.method !== 'GET' || !response.ok) return response;
    if (!lastEventId) {
      this.park(STANDALONE_STREAM_ID);
      return response;
    }
    const streamId = await this.events.getStreamIdForEventId(lastEventId);
    if (streamId === undefined) return response;
    // A resumed request stream with nothing left to answer ends once replayed; one still waiting is parked.
    if (streamId === STANDALONE_STREAM_ID || this.isAnswering(streamId)) this.park(streamId);
    else this.bookkeeping._streamMapping.get(streamId)?.cleanup();
    return response;
  }

  /**
   * The client cancelled a request: it gets no answer (MCP), so its stream waits for none. It leaves
   * the stream's bookkeeping, and the stream ends now if everything else on it is answered, wherever it
   * is held. Before, a batch holding a request and its own cancellation never ended.
   */
  private settleCancelled(requestId: RequestId): void {
    const streamId = this.streamOf(requestId);
    if (streamId === undefined || this.bookkeeping._requestResponseMap.has(requestId)) return;
    this.cancelled.add(requestId);
    this.bookkeeping._requestToStreamMapping.delete(requestId);
    if (this.isAnswering(streamId)) return;
    // As the SDK ends a stream whose last answer went out.
    for (const [id, stream] of [...this.bookkeeping._requestToStreamMapping]) {
      if (stream !== streamId) continue;
      this.bookkeeping._requestResponseMap.delete(id);
      this.bookkeeping._requestToStreamMapping.delete(id);
    }
    this.bookkeeping._resumableStreams.delete(streamId);
    this.bookkeeping._streamMapping.get(streamId)?.cleanup();
    this.sockets.close(streamId, 'answered');
  }

  override async send(message: JSONRPCMessage, options?: TransportSendOptions): Promise<void> {
    if (isRestoreReply(message)) return;
    const isResponse = isJSONRPCResultResponse(message) || isJSONRPCErrorResponse(message);
    // An answer the handler produced before it saw its cancellation: the client asked for none.
    if (isResponse && message.id !== undefined && this.cancelled.delete(message.id)) return;
    const requestId = isResponse ? message.id : options?.relatedRequestId;
    const streamId = requestId === undefined ? undefined : this.streamOf(requestId);
    await super.send(message, options);
    if (!isResponse || streamId === undefined) return;
    if (!this.isAnswering(streamId)) this.sockets.close(streamId);
    else this.parkIfWaiting(streamId);
  }

  /** Closes a request's stream, wherever it is held (the SDK's own, or the Worker's over a socket). */
  override closeSSEStream(requestId: RequestId): void {
    const streamId = this.streamOf(requestId);
    super.closeSSEStream(requestId);
    if (streamId !== undefined) this.sockets.close(streamId, 'closed by the server');
  }
}
