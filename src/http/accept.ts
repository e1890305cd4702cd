import { EventSourceParserStream } from 'eventsource-parser/stream';

/**
 * Streamable HTTP asks clients to accept both JSON and SSE; some real clients (n8n among them) send
 * one type or none. The session object always gets a compliant Accept; `wantsJsonOnly` tells the
 * route to hand such a client plain JSON instead of a stream it did not ask for.
 */
export function normalizeAccept(headers: Headers, method: string): void {
  if (method === 'GET') headers.set('accept', 'text/event-stream');
  else if (method === 'POST') headers.set('accept', 'application/json, text/event-stream');
}

export function wantsJsonOnly(request: Request): boolean {
  const accept = request.headers.get('accept') ?? '';
  return /application\/json/i.test(accept) && !/text\/event-stream/i.test(accept);
}

/** Reads an SSE response to its end and returns its JSON-RPC responses as one JSON body. */
export async function sseToJson(response: Response): Promise<Response> {
  const messages: Record<string, unknown>[] = [];
  const events = response.body!.pipeThrough(new TextDecoderStream()).pipeThrough(new EventSourceParserStream());
  for await (const { data } of events) {
    if (data === '') continue; // the priming event, which only carries an id to resume from
    const message = JSON.parse(data) as Record<string, unknown>;
    if ('result' in message || 'error' in message) messages.push(message);
  }
  const headers = new Headers(response.headers);
  headers.set('content-type', 'application/json');
  headers.delete('content-encoding');
  const body = messages.length === 1 ? messages[0] : messages;
  return new Response(JSON.stringify(body), { status: response.status, headers });
}

/** A browser opening the URL (it asks for HTML, not a stream): it gets the landing page, not the protocol. */
export function wantsHtmlPage(request: Request): boolean {
  const accept = request.headers.get('accept') ?? '';
  return request.method === 'GET' && /text\/html/i.test(accept) && !/text\/event-stream/i.test(accept);
}
