import { SSE_KEEPALIVE_MS } from '../config';

/**
 * Headers that make SSE reach the client as it is written: no caching or transformation by proxies,
 * no nginx-style buffering, and no compression (`identity` also stops `wrangler dev` from buffering).
 */
export const SSE_HEADERS: Readonly<Record<string, string>> = {
  'Content-Type': 'text/event-stream',
  'Cache-Control': 'no-cache, no-transform',
  'X-Accel-Buffering': 'no',
  'Content-Encoding': 'identity',
};

export interface SseEvent {
  event?: string;
  data: string;
  id?: string;
}

const encoder = new TextEncoder();

/** One SSE frame. Multi-line data is split into several `data:` lines, as the SSE format requires. */
export function encodeSseEvent({ event, data, id }: SseEvent): Uint8Array {
  let frame = '';
  if (id !== undefined) frame += `id: ${id.replace(/[\r\n]/g, '')}\n`;
  if (event !== undefined) frame += `event: ${event}\n`;
  for (const line of data.split(/\r\n|\r|\n/)) frame += `data: ${line}\n`;
  return encoder.encode(frame + '\n');
}

const KEEPALIVE = encoder.encode(': keepalive\n\n');

export interface SseStreamOptions {
  /** Status and headers of the response (SSE_HEADERS by default). */
  status?: number;
  headers?: HeadersInit;
  /** Start the keepalive comments at once (default), or later with `keepAlive()`. */
  keepalive?: boolean;
}

/**
 * A server-held SSE response body. `send` returns false once the client has gone away;
 * `onClose` runs once, whether the client disconnected or the server closed the stream.
 */
export class SseStream {
  readonly response: Response;
  private controller!: ReadableStreamDefaultController<Uint8Array>;
  private keepalive: ReturnType<typeof setInterval> | undefined;
  private done = false;

  constructor(
    private readonly onClose: () => void = () => {},
    { status = 200, headers = SSE_HEADERS, keepalive = true }: SseStreamOptions = {},
  ) {
    const body = new ReadableStream<Uint8Array>({
      start: (controller) => {
        this.controller = controller;
      },
      cancel: () => this.finish(),
    });
    this.response = new Response(body, { status, headers });
    if (keepalive) this.keepAlive();
  }

  /** Comments every SSE_KEEPALIVE_MS, so proxies do not cut a quiet stream (Cloudflare's edge after 100 s). */
  keepAlive(): void {
    this.keepalive ??= setInterval(() => this.write(KEEPALIVE), SSE_KEEPALIVE_MS);
  }

  get closed(): boolean {
    return this.done;
  }

  send(event: SseEvent): boolean {
    return this.write(encodeSseEvent(event));
  }

  /** Bytes that are already SSE (whole frames, or a body being forwarded). */
  write(chunk: Uint8Array): boolean {
    if (this.done) return false;
    try {
      this.controller.enqueue(chunk);
      return true;
    } catch {
      this.finish();
      return false;
    }
  }

  close(): void {
    if (this.done) return;
    try {
      this.controller.close();
    } catch {
      // already errored or cancelled by the client
    }
    this.finish();
  }

  private finish(): void {
    if (this.done) return;
    this.done = true;
    clearInterval(this.keepalive);
    this.onClose();
  }
}
