/**
 * How a session object hands a client's SSE stream to the Worker. The object answers an HTTP request
 * with an SSE body as usual; when the stream has nothing left to do but wait (a queued call, the
 * session's GET stream), the object ends that body with this comment, and the Worker, which holds
 * the client's response, goes on with what the object sends over a hibernatable WebSocket. An SSE
 * comment is ignored by clients, so the Worker forwards the body untouched.
 */
export interface Handoff {
  streamId: string;
  /** The last event the body carried; the socket starts after it. */
  after?: string;
}

const NONE = '-';
/** A line of its own at the very end of the body (JSON in `data:` lines never holds a raw newline). */
const PATTERN = /(?:^|\n): continues ([\w-]{1,64}) (\d{16}|-)\n\n$/;
/** Longest tail the pattern can match: room for a UUID stream id and a 16-digit event id. */
export const HANDOFF_TAIL_BYTES = 96;

export const handoffComment = ({ streamId, after }: Handoff): string => `: continues ${streamId} ${after ?? NONE}\n\n`;

/** The handoff a body ended with, or undefined if it ended for good. */
export function handoffOf(tail: string): Handoff | undefined {
  const match = PATTERN.exec(tail);
  if (!match) return undefined;
  const [, streamId, after] = match;
  return after === NONE ? { streamId: streamId! } : { streamId: streamId!, after: after! };
}

/** Headers of the object's socket request, sent only by the Worker. */
export const PRINCIPAL_HEADER = 'x-session-principal';
