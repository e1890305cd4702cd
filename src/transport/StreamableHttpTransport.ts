import {
  WebStandardStreamableHTTPServerTransport,
  type HandleRequestOptions,
} from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import type { TransportSendOptions } from '@modelcontextprotocol/sdk/shared/transport.js';
import {
  isInitializeRequest,
  isJSONRPCErrorResponse,
  isJSONRPCResultResponse,
  type InitializeRequestParams,
  type JSONRPCMessage,
  type RequestId,
} from '@modelcontextprotocol/sdk/types.js';
import { DurableEventStore } from './DurableEventStore';

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
}

const RESTORE_ID = '__restore_initialize__';
/** The SDK's id for the standalone GET stream, which stays open for server notifications. */
const STANDALONE_STREAM_ID = '_GET_stream';
/** Suggested to clients (SSE `retry`) for reconnecting a stream that dropped. */
const RETRY_INTERVAL_MS = 1000;

/** The SDK's private request ↔ stream bookkeeping, which resumption after eviction has to rebuild. */
interface StreamBookkeeping {
  _requestToStreamMapping: Map<RequestId, string>;
  _streamMapping: Map<string, { cleanup(): void }>;
  _resumableStreams: Set<string>;
}

/**
 * The SDK's web-standard Streamable HTTP transport for one session id, restorable after the Durable
 * Object holding it is evicted: `restore` marks it initialized and replays the client's initialize
 * into the new SDK server, whose answer to the replay is dropped. Every SSE event is kept in the
 * object's storage, so a client resumes a dropped stream with `Last-Event-ID`, and a queued call
 * still pending when the object was evicted is answered on its stream (`adopt`).
 */
export class StreamableHttpTransport extends WebStandardStreamableHTTPServerTransport {
  private readonly initialize: { params?: InitializeRequestParams };
  private readonly events: DurableEventStore;

  constructor(sessionId: string, storage: DurableObjectStorage, hooks: StreamableSessionHooks) {
    // The SDK reports a new session before it dispatches the initialize, so its params are caught in handleRequest.
    const initialize: { params?: InitializeRequestParams } = {};
    // The store asks the transport, which does not exist yet while super() runs.
    const self: { transport?: StreamableHttpTransport } = {};
    const events = new DurableEventStore(storage, (streamId, message) => self.transport!.resumable(streamId, message));
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
  }

  /**
   * Whether a client could resume to this event. Not so for the one response of a stream that carries
   * a single request and gave the client no event id before (no priming event, no progress): the
   * client has everything once it arrives, and had no cursor to come back with before. That is every
   * plain request of a pre-2025-11-25 client, which then costs no storage write.
   */
  private resumable(streamId: string, message: JSONRPCMessage): boolean {
    if (!isJSONRPCResultResponse(message) && !isJSONRPCErrorResponse(message)) return true;
    if (this.bookkeeping._resumableStreams.has(streamId)) return true;
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

  /**
   * After a resumed request stream is replayed, closes it if no request is left to answer on it:
   * the SDK would keep it open for good, and the client waits for it to end.
   */
  private async closeIfAnswered(lastEventId: string): Promise<void> {
    const streamId = await this.events.getStreamIdForEventId(lastEventId);
    if (streamId === undefined || streamId === STANDALONE_STREAM_ID) return;
    const stillAnswering = [...this.bookkeeping._requestToStreamMapping.values()].includes(streamId);
    if (!stillAnswering) this.bookkeeping._streamMapping.get(streamId)?.cleanup();
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
    if (state.initializeParams) {
      this.onmessage?.({ jsonrpc: '2.0', id: RESTORE_ID, method: 'initialize', params: state.initializeParams });
    }
  }

  override async handleRequest(request: Request, options?: HandleRequestOptions): Promise<Response> {
    const messages = [options?.parsedBody ?? []].flat();
    const init = messages.find((m) => isInitializeRequest(m));
    if (init && isInitializeRequest(init)) this.initialize.params = init.params;
    const response = await super.handleRequest(request, options);
    const lastEventId = request.headers.get('last-event-id');
    if (request.method === 'GET' && lastEventId && response.ok) await this.closeIfAnswered(lastEventId);
    return response;
  }

  override async send(message: JSONRPCMessage, options?: TransportSendOptions): Promise<void> {
    if ('id' in message && message.id === RESTORE_ID) return;
    await super.send(message, options);
  }
}
