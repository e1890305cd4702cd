import type { JSONRPCMessage, MessageExtraInfo, Transport } from '@modelcontextprotocol/server';
import { isRestoreReply } from '../restore';
import type { StreamSockets } from '../handoff/StreamSockets';

/** The tag of an HTTP+SSE session's one stream socket. */
export const SSE_STREAM_ID = 'sse';

/**
 * The 2024-11-05 HTTP+SSE server transport. The Worker holds the client's GET stream; this object
 * sends it frames over the stream's hibernatable socket: first the `endpoint` event naming where to
 * POST, then every server message as a `message` event. POSTed client messages arrive through
 * `receive`, each with its sender's auth info.
 */
export class SseTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage, extra?: MessageExtraInfo) => void;

  constructor(
    readonly sessionId: string,
    private readonly sockets: StreamSockets,
  ) {}

  async start(): Promise<void> {}

  /** The stream's first event, sent once when the session opens. */
  announce(endpoint: string): void {
    this.sockets.send(SSE_STREAM_ID, { event: 'endpoint', data: endpoint });
  }

  receive(message: JSONRPCMessage, extra: MessageExtraInfo): void {
    this.onmessage?.(message, extra);
  }

  async send(message: JSONRPCMessage): Promise<void> {
    if (isRestoreReply(message)) return;
    if (!this.sockets.sendMessage(SSE_STREAM_ID, message)) throw new Error('SSE stream is closed');
  }

  async close(): Promise<void> {
    this.sockets.close(SSE_STREAM_ID, 'session closed');
    this.onclose?.();
  }
}
