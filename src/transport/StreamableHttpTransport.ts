import {
  WebStandardStreamableHTTPServerTransport,
  type HandleRequestOptions,
} from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import type { TransportSendOptions } from '@modelcontextprotocol/sdk/shared/transport.js';
import { isInitializeRequest, type InitializeRequestParams, type JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';

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

/**
 * The SDK's web-standard Streamable HTTP transport for one session id, restorable after the Durable
 * Object holding it is evicted: `restore` marks it initialized and replays the client's initialize
 * into the new SDK server, whose answer to the replay is dropped.
 */
export class StreamableHttpTransport extends WebStandardStreamableHTTPServerTransport {
  private readonly initialize: { params?: InitializeRequestParams };

  constructor(sessionId: string, hooks: StreamableSessionHooks) {
    // The SDK reports a new session before it dispatches the initialize, so its params are caught in handleRequest.
    const initialize: { params?: InitializeRequestParams } = {};
    super({
      sessionIdGenerator: () => sessionId,
      onsessioninitialized: () => hooks.onInitialized({ initialized: true, initializeParams: initialize.params }),
      onsessionclosed: () => hooks.onClosed(),
    });
    this.initialize = initialize;
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

  override handleRequest(request: Request, options?: HandleRequestOptions): Promise<Response> {
    const messages = [options?.parsedBody ?? []].flat();
    const init = messages.find((m) => isInitializeRequest(m));
    if (init && isInitializeRequest(init)) this.initialize.params = init.params;
    return super.handleRequest(request, options);
  }

  override async send(message: JSONRPCMessage, options?: TransportSendOptions): Promise<void> {
    if ('id' in message && message.id === RESTORE_ID) return;
    await super.send(message, options);
  }
}
