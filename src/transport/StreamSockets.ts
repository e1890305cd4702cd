import { encodeSseEvent } from '../http/sse';

interface Attachment {
  /** The newest event sent on this socket; replays and live sends both skip what it already carried. */
  last?: string;
}

const decoder = new TextDecoder();

/**
 * A session object's side of the client streams the Worker holds: one hibernatable WebSocket per
 * stream, tagged with the stream's id, carrying SSE frames. The object can be evicted while they
 * stay open; it finds them again by tag when it wakes to send.
 */
export class StreamSockets {
  constructor(private readonly ctx: DurableObjectState) {}

  /** Accepts a socket for `streamId` and returns the Worker's end. `after`: the last event the Worker already has. */
  open(streamId: string, after?: string): WebSocket {
    const [client, server] = Object.values(new WebSocketPair()) as [WebSocket, WebSocket];
    this.ctx.acceptWebSocket(server, [streamId]);
    server.serializeAttachment({ ...(after === undefined ? {} : { last: after }) } satisfies Attachment);
    return client;
  }

  has(streamId: string): boolean {
    return this.ctx.getWebSockets(streamId).length > 0;
  }

  /** Sends an event (`message` frame) on the stream's sockets, each event once. False if none is open. */
  sendMessage(streamId: string, message: unknown, eventId?: string): boolean {
    return this.send(streamId, { event: 'message', data: JSON.stringify(message), ...(eventId === undefined ? {} : { id: eventId }) });
  }

  send(streamId: string, event: { event?: string; data: string; id?: string }): boolean {
    const sockets = this.ctx.getWebSockets(streamId);
    const frame = decoder.decode(encodeSseEvent(event));
    for (const socket of sockets) {
      const { last } = (socket.deserializeAttachment() ?? {}) as Attachment;
      if (event.id !== undefined && last !== undefined && event.id <= last) continue;
      try {
        socket.send(frame);
      } catch {
        continue; // closing: the Worker is gone, and webSocketClose tidies up
      }
      if (event.id !== undefined) socket.serializeAttachment({ last: event.id } satisfies Attachment);
    }
    return sockets.length > 0;
  }

  /** Ends the stream: the Worker closes the client's response when its socket closes. */
  close(streamId?: string, reason = 'stream complete'): void {
    for (const socket of streamId === undefined ? this.ctx.getWebSockets() : this.ctx.getWebSockets(streamId)) {
      try {
        socket.close(1000, reason);
      } catch {
        // already closed
      }
    }
  }
}
