import type { JSONRPCMessage, JSONRPCRequest, McpServer } from '@modelcontextprotocol/server';
import type { Principal } from '../../principal';
import { sessionNotFound, toErrorResponse } from '../../protocol/httpError';
import { ErrorCode, isResponse, jsonRpcError, undeliverable, type JsonRpcErrorResponse } from '../../protocol/jsonrpc';
import { authInfoOf } from '../../server/caller';
import type { SessionHost } from '../session';
import { PARKED, QUERY_STREAM_ID, queryReply, queryResponseEvent, serveQueryRequest } from './queryMessages';
import { QueryTransport } from './QueryTransport';

const QUERY_KEY = 'query';

/** A parked query-mode request, and its answer once it came while the Worker was not yet there. */
interface QueryRecord {
  principal: Principal;
  request: JSONRPCRequest;
  reply?: unknown;
}

/**
 * One /mcp/sse query-mode request, on a server that lives only for it, in an object addressed by a
 * throwaway id (queued results find their way back by it). Nothing outlives the request. When the
 * request waits on a queued call, the answer is `parked`: the Worker, which holds the client's
 * stream, picks the answer up over a socket, and the object may sleep until the result comes.
 */
export class QuerySession {
  constructor(private readonly host: SessionHost) {}

  async serve(request: JSONRPCRequest, id: string, principal: Principal): Promise<JSONRPCMessage | JsonRpcErrorResponse | typeof PARKED> {
    let park!: () => void;
    const queued = new Promise<typeof PARKED>((resolve) => (park = () => resolve(PARKED)));
    const server = this.host.server(id, { queued: () => park() });
    const transport = new QueryTransport(authInfoOf(principal));
    await server.connect(transport);
    const answer = transport.initialize('mcp-sse-query').then((initialized) => serveQueryRequest(transport, request, initialized));
    const first = await Promise.race([answer, queued]).catch(async (error: unknown) => {
      await this.end(server);
      throw error;
    });
    if (first !== PARKED) {
      await this.end(server);
      return first;
    }
    await this.host.storage.put(QUERY_KEY, { principal, request } satisfies QueryRecord);
    void answer
      .catch(() => jsonRpcError(request.id, ErrorCode.InternalError, 'Internal error'))
      .then((reply) => this.answer(reply))
      .finally(() => server.close().catch(() => {}));
    return PARKED;
  }

  /** The Worker's socket for a parked query's answer (the answer at once if it is already there). */
  async attach(principal: Principal): Promise<Response> {
    const record = await this.host.storage.get<QueryRecord>(QUERY_KEY);
    if (record?.principal.id !== principal.id) return toErrorResponse(sessionNotFound());
    const client = this.host.sockets.open(QUERY_STREAM_ID);
    if ('reply' in record) await this.answer(record.reply);
    return new Response(null, { status: 101, webSocket: client });
  }

  /** A queued call's answer that came after the instance that queued it was gone (progress has nowhere to go in query mode). */
  async sendLate(message: JSONRPCMessage): Promise<void> {
    const record = await this.host.storage.get<QueryRecord>(QUERY_KEY);
    if (record && isResponse(message)) await this.answer(queryReply(record.request, message));
  }

  /** The client left before its answer: nothing is owed to anyone, a late result is ignored. */
  async clientLeft(): Promise<void> {
    await this.host.storage.deleteAll();
  }

  /**
   * The query's answer: on the Worker's socket if it is there, else kept until it comes for it; one too
   * large to keep is kept as the error saying so, for the client to get instead of silence.
   */
  private async answer(reply: unknown): Promise<void> {
    const record = await this.host.storage.get<QueryRecord>(QUERY_KEY);
    if (!record) return;
    if (this.host.sockets.send(QUERY_STREAM_ID, queryResponseEvent(reply, record.request.id))) {
      this.host.sockets.close(QUERY_STREAM_ID, 'answered');
      await this.host.storage.deleteAll();
    } else {
      await this.host.storage
        .put(QUERY_KEY, { ...record, reply } satisfies QueryRecord)
        .catch((error: unknown) => this.host.storage.put(QUERY_KEY, { ...record, reply: undeliverable(record.request.id, error) } satisfies QueryRecord));
    }
  }

  /** Nothing outlives a query: not the server, nor the object's storage. */
  private async end(server: McpServer): Promise<void> {
    await server.close().catch(() => {});
    await this.host.storage.deleteAll();
  }
}
