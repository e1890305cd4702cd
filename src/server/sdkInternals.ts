import type {
  JSONRPCMessage,
  JSONRPCRequest,
  McpServer,
  RequestId,
  ServerContext,
  WebStandardStreamableHTTPServerTransport,
} from '@modelcontextprotocol/server';

/**
 * Every place this server reaches into the MCP SDK's private state, each behind a typed accessor
 * (test/server/sdkInternals.test.ts names each one, on a real SDK instance, so an SDK upgrade that
 * renames or drops one fails there by name). Two needs: checks that run before the SDK's own
 * handlers (it has no hook for them), and a Streamable HTTP session that outlives the object holding
 * it (the SDK keeps a session's streams and its initialized flag in memory only).
 */

/** A request handler as the SDK keeps it: the raw request in, the result out. */
export type RequestHandler = (request: JSONRPCRequest, ctx: ServerContext) => Promise<Record<string, unknown>>;

/** `Server._requestHandlers`: the handlers by method, each already wrapped in the SDK's params validation. */
export function requestHandlers(server: McpServer): Map<string, RequestHandler> {
  return privateField<Map<string, RequestHandler>>(server.server, '_requestHandlers', 'McpServer.server', isMap);
}

/**
 * Puts a layer around a handler the SDK has registered (its tool handlers exist once a tool is
 * registered). The SDK has no hook for checks that must run before its own (scopes, tasks), so the
 * layer goes into its private handler map; `wrap` gets the SDK's handler to call on.
 */
export function wrapRequestHandler(server: McpServer, method: string, wrap: (inner: RequestHandler) => RequestHandler): void {
  const handlers = requestHandlers(server);
  const inner = handlers.get(method);
  if (!inner) throw new Error(`no ${method} handler to wrap: register the tools first`);
  handlers.set(method, wrap(inner));
}

/** `_standaloneSseStreamId`: the SDK's id for a session's GET stream, under which the event store files that stream's events. */
export const STANDALONE_STREAM_ID = '_GET_stream';

/** One SSE stream the transport is writing: its body's controller, and `cleanup`, which ends the body (and its keep-alive timer). */
interface OpenStream {
  controller?: ReadableStreamDefaultController<Uint8Array>;
  cleanup(): void;
}

/** The Streamable HTTP transport's private request ↔ stream bookkeeping, which resuming a session after eviction reads and rebuilds. */
export interface StreamBookkeeping {
  /** `_streamMapping`: the SSE streams the transport is writing, by stream id. */
  readonly streams: Map<string, OpenStream>;
  /** `_requestToStreamMapping`: the stream each request is answered on, until all on that stream are answered. */
  readonly requestStreams: Map<RequestId, string>;
  /** `_requestResponseMap`: answers already sent, held until every request of their stream has one. */
  readonly answers: Map<RequestId, JSONRPCMessage>;
  /** Sets `_initialized`, the flag without which every request is "Server not initialized" (set only by an initialize it handled itself). */
  markInitialized(): void;
  /** Calls `written` after `writeSSEEvent` put an event with an id into a stream's body. */
  onEventWritten(written: (controller: ReadableStreamDefaultController<Uint8Array>, eventId: string) => void): void;
}

type WriteSseEvent = (controller: ReadableStreamDefaultController<Uint8Array>, encoder: TextEncoder, message: JSONRPCMessage, eventId?: string) => boolean;

/**
 * Typed access to a transport's private bookkeeping. Each field is looked up when used, and a field
 * this SDK version lacks (or keeps as something else) throws, naming it.
 */
export function streamBookkeeping(transport: WebStandardStreamableHTTPServerTransport): StreamBookkeeping {
  const field = <T>(name: string, check: (value: unknown) => boolean) => privateField<T>(transport, name, 'WebStandardStreamableHTTPServerTransport', check);
  const fields = transport as unknown as { _initialized: boolean; writeSSEEvent: WriteSseEvent };
  return {
    get streams() {
      return field<Map<string, OpenStream>>('_streamMapping', isMap);
    },
    get requestStreams() {
      return field<Map<RequestId, string>>('_requestToStreamMapping', isMap);
    },
    get answers() {
      return field<Map<RequestId, JSONRPCMessage>>('_requestResponseMap', isMap);
    },
    markInitialized() {
      field<boolean>('_initialized', (value) => typeof value === 'boolean');
      fields._initialized = true;
    },
    onEventWritten(written) {
      const write = field<WriteSseEvent>('writeSSEEvent', (value) => typeof value === 'function');
      fields.writeSSEEvent = (controller, encoder, message, eventId) => {
        const ok = write.call(transport, controller, encoder, message, eventId);
        if (ok && eventId !== undefined) written(controller, eventId);
        return ok;
      };
    },
  };
}

const isMap = (value: unknown): boolean => value instanceof Map;

function privateField<T>(owner: object, name: string, ownerName: string, check: (value: unknown) => boolean): T {
  // Reflect.get: the SDK's fields are own properties, writeSSEEvent is on the prototype.
  const value: unknown = Reflect.get(owner, name);
  if (!check(value)) throw new Error(`MCP SDK changed: ${ownerName} has no ${name} of the expected kind (src/server/sdkInternals.ts)`);
  return value as T;
}
