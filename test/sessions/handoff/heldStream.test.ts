import { describe, expect, it } from 'vitest';
import { handoffComment, type Handoff } from '../../../src/sessions/handoff/handoff';
import { holdHandedOff, holdSocketStream } from '../../../src/sessions/handoff/heldStream';
import { openSession, postJson, sessionHeaders, sseReader } from '../../support/mcp';

const encoder = new TextEncoder();
const SSE = { 'content-type': 'text/event-stream', 'mcp-session-id': 'session-x' };

/** An SSE body as a session object writes it: the given chunks, then its end (or `fail`: the object reset mid-answer). */
function objectBody(chunks: string[], fail = false): ReadableStream<Uint8Array> {
  const left = [...chunks];
  return new ReadableStream({
    pull(controller) {
      const chunk = left.shift();
      if (chunk !== undefined) controller.enqueue(encoder.encode(chunk));
      else if (fail) controller.error(new Error('Durable Object reset'));
      else controller.close();
    },
  });
}

/** A socket the session object hands the Worker: its 101, and the object's end, to send frames on and see the close of. */
function objectSocket() {
  const [client, server] = Object.values(new WebSocketPair()) as [WebSocket, WebSocket];
  server.accept();
  const closed = new Promise<string>((resolve) => server.addEventListener('close', ({ reason }) => resolve(reason)));
  return { upgrade: new Response(null, { status: 101, webSocket: client }), server, closed };
}

/** The frame the session object sends in `pieces` binary messages, as StreamSockets does. */
function sendInPieces(server: WebSocket, frame: string, pieces: number) {
  const bytes = encoder.encode(frame);
  const size = Math.ceil(bytes.length / pieces);
  for (let at = 0; at < bytes.length; at += size) server.send(bytes.slice(at, at + size));
}

const message = 'event: message\nid: 0001763876000000\ndata: {"jsonrpc":"2.0","id":1,"result":{}}\n\n';
const later = 'event: message\nid: 0001763876000001\ndata: {"jsonrpc":"2.0","id":2,"result":{"text":"é"}}\n\n';

describe('a client’s SSE stream held in the Worker', () => {
  it('passes a response that is no SSE body through untouched', () => {
    const attach = () => Promise.reject(new Error('no handoff expected'));
    const json = Response.json({ jsonrpc: '2.0', id: 1, result: {} });
    const accepted = new Response(null, { status: 202 });
    expect(holdHandedOff(json, attach)).toBe(json);
    expect(holdHandedOff(accepted, attach)).toBe(accepted);
  });

  it('forwards a body that ended for good as it is, with its status and headers, and ends with it', async () => {
    const attached: Handoff[] = [];
    const held = holdHandedOff(new Response(objectBody([message, later]), { status: 200, headers: SSE }), async (handoff) => {
      attached.push(handoff);
      return objectSocket().upgrade;
    });
    expect(held.status).toBe(200);
    expect(held.headers.get('mcp-session-id')).toBe('session-x');
    expect(await held.text()).toBe(message + later);
    expect(attached).toEqual([]);
  });

  it('follows a body that ends with a handoff: the socket’s frames come after the body, and the stream ends when the socket closes', async () => {
    const socket = objectSocket();
    const attached: Handoff[] = [];
    const comment = handoffComment({ streamId: 'stream-1', after: '0001763876000000' });
    const held = holdHandedOff(new Response(objectBody([message, comment]), { headers: SSE }), async (handoff) => {
      attached.push(handoff);
      queueMicrotask(() => {
        sendInPieces(socket.server, later, 3); // one frame in pieces, joined again
        socket.server.send(': keepalive\n\n'); // a text message
        socket.server.close(1000, 'answered');
      });
      return socket.upgrade;
    });
    expect(await held.text()).toBe(message + comment + later + ': keepalive\n\n');
    expect(attached).toEqual([{ streamId: 'stream-1', after: '0001763876000000' }]);
  });

  it('finds a handoff that came split across the body’s chunks', async () => {
    const socket = objectSocket();
    const attached: Handoff[] = [];
    const body = message + handoffComment({ streamId: crypto.randomUUID() });
    const chunks = body.match(/[\s\S]{1,7}/g)!;
    const held = holdHandedOff(new Response(objectBody(chunks), { headers: SSE }), async (handoff) => {
      attached.push(handoff);
      socket.server.close(1000, 'answered');
      return socket.upgrade;
    });
    expect(await held.text()).toBe(body);
    expect(attached).toEqual([handoffOfBody(body)]);
  });

  it('ends the stream after the body when the object refuses the socket (its session ended meanwhile)', async () => {
    const comment = handoffComment({ streamId: 'stream-1' });
    const held = holdHandedOff(new Response(objectBody([message, comment]), { headers: SSE }), async () => Response.json({}, { status: 404 }));
    expect(await held.text()).toBe(message + comment);
  });

  it('ends the client’s stream cleanly, with what came, when the object’s body fails mid-answer', async () => {
    const held = holdHandedOff(new Response(objectBody([message], true), { headers: SSE }), () => Promise.reject(new Error('no handoff expected')));
    expect(await held.text()).toBe(message);
  });

  it('lets the object go when the client leaves: the socket is closed', async () => {
    const socket = objectSocket();
    let attached!: () => void;
    const attaching = new Promise<void>((resolve) => (attached = resolve));
    const held = holdHandedOff(new Response(objectBody([handoffComment({ streamId: 'stream-1' })]), { headers: SSE }), async () => {
      attached();
      return socket.upgrade;
    });
    const reader = held.body!.getReader();
    await reader.read(); // the handoff comment
    await attaching;
    socket.server.send(later);
    expect(new TextDecoder().decode((await reader.read()).value)).toBe(later); // the socket is followed
    await reader.cancel();
    expect(await socket.closed).toBe('client gone');
  });

  it('lets the object go when the client left while the socket was being opened', async () => {
    const socket = objectSocket();
    let open!: () => void;
    const opened = new Promise<void>((resolve) => (open = resolve));
    const held = holdHandedOff(new Response(objectBody([handoffComment({ streamId: 'stream-1' })]), { headers: SSE }), async () => {
      await opened;
      return socket.upgrade;
    });
    const reader = held.body!.getReader();
    await reader.read();
    await reader.cancel();
    open();
    expect(await socket.closed).toBe('client gone');
  });
});

describe('a client’s SSE stream that is a socket’s frames from its start', () => {
  it('passes the object’s refusal through', () => {
    const refused = Response.json({ error: 'not found' }, { status: 404 });
    expect(holdSocketStream(refused)).toBe(refused);
  });

  it('is an SSE response carrying every frame the socket sends, until the socket closes', async () => {
    const socket = objectSocket();
    const held = holdSocketStream(socket.upgrade);
    expect(held.status).toBe(200);
    expect(held.headers.get('content-type')).toBe('text/event-stream');
    socket.server.send('event: endpoint\ndata: /messages?sessionId=x\n\n');
    sendInPieces(socket.server, later, 2);
    socket.server.close(1000, 'session closed');
    expect(await held.text()).toBe('event: endpoint\ndata: /messages?sessionId=x\n\n' + later);
  });
});

describe('a result larger than one socket message, through the Worker', () => {
  it('sends a result larger than one socket message whole, in pieces the Worker joins', async () => {
    const VERSION = '2025-11-25';
    const sessionId = await openSession(VERSION);
    const text = 'é'.repeat(40_000); // 80 KB of UTF-8, twice in the result: three 64 KB messages
    const params = { name: 'test_queued_echo', arguments: { text } };
    const post = sseReader(await postJson('/mcp', { jsonrpc: '2.0', id: 3, method: 'tools/call', params }, sessionHeaders(sessionId, VERSION)));
    const answer = JSON.parse((await post.next((frame) => frame.data !== '')).data);
    expect(answer.result.structuredContent.echo === text).toBe(true);
    expect(answer.result.content[0].text).toBe(JSON.stringify({ echo: text }));
  });
});

function handoffOfBody(body: string): Handoff {
  const [, streamId] = /: continues (\S+) -\n\n$/.exec(body)!;
  return { streamId: streamId! };
}
