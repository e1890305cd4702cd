import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage, MessageExtraInfo } from '@modelcontextprotocol/sdk/types.js';
import { SseStream } from '../http/sse';

/**
 * The 2024-11-05 HTTP+SSE server transport on web-standard streams (the SDK only has a Node one).
 * The GET stream opens with an `endpoint` event naming where to POST; every server message is a
 * `message` event on that stream; POSTed client messages arrive through `receive`.
 */
export class LegacySseTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage, extra?: MessageExtraInfo) => void;
  private readonly stream: SseStream;

  constructor(
    readonly sessionId: string,
    private readonly endpoint: string,
  ) {
    this.stream = new SseStream(() => this.onclose?.());
  }

  /** The streaming response to hand back for the GET. */
  get response(): Response {
    return this.stream.response;
  }

  get isOpen(): boolean {
    return !this.stream.closed;
  }

  async start(): Promise<void> {
    this.stream.send({ event: 'endpoint', data: this.endpoint });
  }

  receive(message: JSONRPCMessage, extra?: MessageExtraInfo): void {
    this.onmessage?.(message, extra);
  }

  async send(message: JSONRPCMessage): Promise<void> {
    if (!this.stream.send({ event: 'message', data: JSON.stringify(message) })) {
      throw new Error('SSE stream is closed');
    }
  }

  async close(): Promise<void> {
    this.stream.close();
  }
}
