import { HANDOFF_TAIL_BYTES, handoffOf, type Handoff } from './handoff';
import { SseStream, type SseStreamOptions } from '../../http/sse';

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/**
 * A client's SSE stream held here, in the Worker, so no session object stays awake for it: the
 * object's own SSE body is forwarded as it comes, and if it ends with a handoff
 * (src/sessions/handoff/handoff.ts), `attach` opens the stream's socket and its frames follow. Every SSE
 * body goes through here, not only those that may hand off: when the object is reset mid-answer, the
 * client's stream then ends cleanly (the runtime failed a passed-through body's request outright, a
 * 500 the load harness found under faults).
 */
export function holdHandedOff(response: Response, attach: (handoff: Handoff) => Promise<Response>): Response {
  if (!response.body || !response.headers.get('content-type')?.startsWith('text/event-stream')) return response;
  const relay = new SocketRelay({ status: response.status, headers: response.headers, keepalive: false });
  const forward = async (body: ReadableStream<Uint8Array>) => {
    const reader = body.getReader();
    let tail: Uint8Array = new Uint8Array(0);
    for (let read = await reader.read(); !read.done; read = await reader.read()) {
      if (!relay.stream.write(read.value)) return void (await reader.cancel());
      tail = lastBytes(tail, read.value);
    }
    const handoff = handoffOf(decoder.decode(tail));
    if (!handoff) return relay.stream.close();
    relay.follow(await attach(handoff));
  };
  forward(response.body).catch(() => relay.stream.close());
  return relay.stream.response;
}

/** A client's SSE stream that is, from its start, the frames of a session object's socket (`upgrade`: the object's 101). */
export function holdSocketStream(upgrade: Response): Response {
  if (!upgrade.webSocket) return upgrade;
  const relay = new SocketRelay();
  relay.follow(upgrade);
  return relay.stream.response;
}

/** An SSE stream fed by a socket: each message is SSE text; the stream ends when the socket closes, and the other way round. */
export class SocketRelay {
  readonly stream: SseStream;
  private socket: WebSocket | undefined;

  constructor(options?: SseStreamOptions) {
    this.stream = new SseStream(() => this.closeSocket(), options);
  }

  follow(upgrade: Response): void {
    const socket = upgrade.webSocket;
    // The object refused (its session ended meanwhile): the client resumes or starts again.
    if (!socket) return this.stream.close();
    this.socket = socket;
    socket.accept();
    // The client left while the socket was being opened: nobody reads what the object would send on it.
    if (this.stream.closed) return this.closeSocket();
    // The object sends frames as binary pieces; without this they would arrive as Blobs (standard binaryType).
    socket.binaryType = 'arraybuffer';
    this.stream.keepAlive();
    socket.addEventListener('message', (event) => {
      const frame = typeof event.data === 'string' ? encoder.encode(event.data) : new Uint8Array(event.data);
      if (!this.stream.write(frame)) this.closeSocket();
    });
    socket.addEventListener('close', () => this.stream.close());
    socket.addEventListener('error', () => this.stream.close());
  }

  private closeSocket(): void {
    try {
      this.socket?.close(1000, 'client gone');
    } catch {
      // already closed
    }
  }
}

function lastBytes(tail: Uint8Array, chunk: Uint8Array): Uint8Array {
  if (chunk.length >= HANDOFF_TAIL_BYTES) return chunk.slice(chunk.length - HANDOFF_TAIL_BYTES);
  const joined = new Uint8Array(tail.length + chunk.length);
  joined.set(tail);
  joined.set(chunk, tail.length);
  return joined.slice(Math.max(0, joined.length - HANDOFF_TAIL_BYTES));
}
