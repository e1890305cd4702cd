import { encodeSseEvent, type SseEvent } from '../../http/sse';

interface Attachment {
  /** The newest event sent on this socket; replays and live sends both skip what it already carried. */
  last?: string;
}

/** Frames go out in binary messages of at most this size; the Worker writes them one after another. */
const MAX_MESSAGE_BYTES = 64 * 1024;

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

  send(streamId: string, event: SseEvent): boolean {
    const sockets = this.ctx.getWebSockets(streamId);
    const frame = encodeSseEvent(event);
    for (const socket of sockets) {
      const { last } = (socket.deserializeAttachment() ?? {}) as Attachment;
      if (event.id !== undefined && last !== undefined && event.id <= last) continue;
      try {
        // In pieces, so a large result (a big workflow) stays under the platform's message size limit.
        for (let at = 0; at < frame.length; at += MAX_MESSAGE_BYTES) socket.send(frame.slice(at, at + MAX_MESSAGE_BYTES).buffer);
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
