/**
 * Server-sent events as a client reads them, for the tests, benchmarks and scripts: parsed by
 * eventsource-parser (the parser the MCP SDK's own clients read our streams with), never by hand.
 */
import { createParser, type EventSourceMessage } from 'eventsource-parser';
import { EventSourceParserStream } from 'eventsource-parser/stream';

/** One event: `event` and `id` when the server sent them, `data` its `data:` lines joined by newlines. */
export type SseFrame = EventSourceMessage;

/** The events of a whole SSE text. Comments (keepalives) are no events; an event the text ends inside of is not one yet. */
export function parseSse(text: string): SseFrame[] {
  const events: SseFrame[] = [];
  createParser({ onEvent: (event) => events.push(event) }).feed(text);
  return events;
}

/** The events of an SSE body as they arrive. */
export function sseFrames(body: ReadableStream<Uint8Array>): ReadableStream<SseFrame> {
  return body.pipeThrough(new TextDecoderStream()).pipeThrough(new EventSourceParserStream());
}
