import type { InitializeRequestParams, JSONRPCMessage, McpServer } from '@modelcontextprotocol/server';
import type { Principal } from '../../principal';
import { isInitialize } from '../../protocol/jsonrpc';
import { authInfoOf } from '../../server/caller';
import { replayInitialize } from '../restore';
import type { SessionHost } from '../session';
import { SseTransport } from './SseTransport';

/**
 * An HTTP+SSE session (protocol 2024-11-05: GET /sse, POST /messages) in its object. Its one stream
 * is held by the Worker; the object sends on it over the stream's socket, which outlives an eviction.
 */
export class SseSession {
  readonly kind = 'sse';

  constructor(
    readonly server: McpServer,
    readonly transport: SseTransport,
  ) {}

  /** The session's server; in an instance that woke without it, rebuilt with the client's initialize replayed. */
  static async start(host: SessionHost, sessionId: string): Promise<SseSession> {
    const transport = new SseTransport(sessionId, host.sockets);
    transport.onclose = () => void host.terminate();
    const server = host.server(sessionId);
    await server.connect(transport);
    const record = await host.load();
    if (record?.initializeParams) replayInitialize(transport.onmessage, record.initializeParams);
    return new SseSession(server, transport);
  }

  /** Messages POSTed by the session's client (validated by the Worker), each served with its sender's auth info. */
  async receive(host: SessionHost, messages: JSONRPCMessage[], principal: Principal): Promise<void> {
    const authInfo = authInfoOf(principal);
    for (const message of messages) {
      const record = await host.load();
      // Kept before it is served, so an instance woken later brings its server back to this client.
      if (record && isInitialize(message)) await host.save({ ...record, initialized: true, initializeParams: message.params as InitializeRequestParams });
      this.transport.receive(message, { authInfo });
    }
  }

  /** A queued call's result or progress that came after the instance that queued it was gone: the stream's socket outlived it. */
  async sendLate(message: JSONRPCMessage): Promise<void> {
    await this.transport.send(message).catch(() => {});
  }
}
