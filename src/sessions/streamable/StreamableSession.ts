import type { JSONRPCMessage, McpServer } from '@modelcontextprotocol/server';
import type { Principal } from '../../principal';
import { sessionNotFound, toErrorResponse } from '../../protocol/httpError';
import { authInfoOf, principalIn } from '../../server/caller';
import { STANDALONE_STREAM_ID } from '../../server/sdkInternals';
import type { PendingCall } from '../PendingCalls';
import { newRecord, type SessionHost } from '../session';
import { DurableEventStore } from './DurableEventStore';
import { StreamableHttpTransport } from './StreamableHttpTransport';

/**
 * A Streamable HTTP session (the 2025 era's POST/GET/DELETE /mcp) in its object: the SDK server on
 * the restorable transport (StreamableHttpTransport). Each request is handed to the SDK with its
 * caller's auth info; the server itself keeps no caller.
 */
export class StreamableSession {
  readonly kind = 'streamable-http';

  constructor(
    readonly server: McpServer,
    readonly transport: StreamableHttpTransport,
  ) {}

  /** The session's server and transport; in an instance that woke without them, rebuilt from the record and the pending calls. */
  static async start(host: SessionHost, sessionId: string): Promise<StreamableSession> {
    const transport = new StreamableHttpTransport(sessionId, host.storage, host.sockets, {
      // A new session's record names the principal whose initialize made it.
      onInitialized: async (state, creator) =>
        host.save({ ...((await host.load()) ?? newRecord(host.env, sessionId, 'streamable-http', principalIn(creator))), ...state }),
      onClosed: () => host.terminate(),
      waitingOnQueue: () => host.pending.waitingRequestIds(),
    });
    const server = host.server(sessionId, {
      streamOf: (requestId) => transport.streamOf(requestId),
      queued: (streamId) => {
        if (streamId !== undefined) transport.parkIfWaiting(streamId);
      },
    });
    await server.connect(transport);
    const record = await host.load();
    if (record) transport.restore(sessionId, record);
    // Queued calls an evicted instance left pending are answered on their streams when they finish.
    for (const call of await host.pending.list()) if (call.streamId !== undefined) transport.adopt(call.requestId, call.streamId);
    return new StreamableSession(server, transport);
  }

  /** One HTTP request of the session's client; `parsedBody`: its messages, validated by the Worker. */
  handle(request: Request, principal: Principal, parsedBody?: unknown): Promise<Response> {
    return this.transport.handleRequest(request, { authInfo: authInfoOf(principal), ...(parsedBody === undefined ? {} : { parsedBody }) });
  }

  /** A queued call's result or progress that came after the instance that queued it was gone: on the call's stream, and kept for a resume. */
  async sendLate({ requestId, streamId }: PendingCall & { streamId: string }, message: JSONRPCMessage): Promise<void> {
    this.transport.adopt(requestId, streamId);
    await this.transport.send(message, { relatedRequestId: requestId });
  }
}

/**
 * Opens the Worker's socket for a handed-off stream (src/sessions/handoff): what the stream missed
 * since the handoff first, then what comes. A request stream with nothing left to answer ends at once.
 */
export async function attachStream(
  host: SessionHost,
  live: StreamableSession | undefined,
  streamId: string,
  after: string | undefined,
  principal: Principal,
): Promise<Response> {
  const record = await host.load();
  if (record?.transport !== 'streamable-http' || record.principal?.id !== principal.id) return toErrorResponse(sessionNotFound());
  const client = host.sockets.open(streamId, after);
  for (const [id, message] of await new DurableEventStore(host.storage).eventsOn(streamId, after)) host.sockets.sendMessage(streamId, message, id);
  if (streamId !== STANDALONE_STREAM_ID && !(await stillAnswering(host, live, streamId))) host.sockets.close(streamId);
  return new Response(null, { status: 101, webSocket: client });
}

/** Whether a request stream still owes an answer: a queued call on it, or a request this instance serves. */
async function stillAnswering(host: SessionHost, live: StreamableSession | undefined, streamId: string): Promise<boolean> {
  if (live?.transport.isAnswering(streamId)) return true;
  return (await host.pending.list()).some((call) => call.streamId === streamId);
}
