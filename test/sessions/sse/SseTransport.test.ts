import { env } from 'cloudflare:workers';
import { runInDurableObject } from 'cloudflare:test';
import type { JSONRPCMessage, MessageExtraInfo } from '@modelcontextprotocol/server';
import { describe, expect, it } from 'vitest';
import { StreamSockets } from '../../../src/sessions/handoff/StreamSockets';
import { replayInitialize } from '../../../src/sessions/restore';
import { SSE_STREAM_ID, SseTransport } from '../../../src/sessions/sse/SseTransport';
import type { TaskObject } from '../../../src/tasks/TaskObject';
import { parseSse } from '../../support/mcp';

/**
 * Runs `test` with an HTTP+SSE transport on the sockets of a fresh Durable Object, whose stream socket
 * the test holds as the Worker would. A task object's state: a session object would take the socket's
 * close for its own session's end.
 */
const withTransport = <T>(test: (transport: SseTransport, sockets: StreamSockets) => Promise<T>) =>
  runInDurableObject(env.TASKS.get(env.TASKS.newUniqueId()), (_: TaskObject, state) => {
    const sockets = new StreamSockets(state);
    return test(new SseTransport('session-1', sockets), sockets);
  });

/** The Worker's end of the stream: the frames it got, once the object closed it, and the close's reason. */
function workerEnd(socket: WebSocket) {
  socket.accept();
  socket.binaryType = 'arraybuffer';
  let text = '';
  socket.addEventListener('message', (event) => {
    text += new TextDecoder().decode(event.data as ArrayBuffer);
  });
  return new Promise<{ frames: ReturnType<typeof parseSse>; reason: string }>((resolve) =>
    socket.addEventListener('close', ({ reason }) => resolve({ frames: parseSse(text), reason })),
  );
}

const ping = { jsonrpc: '2.0', id: 1, result: {} } as JSONRPCMessage;

describe('the HTTP+SSE transport', () => {
  it('opens the stream with the endpoint event, then sends each server message as a message event', () =>
    withTransport(async (transport, sockets) => {
      const worker = workerEnd(sockets.open(SSE_STREAM_ID));
      transport.announce('/messages?sessionId=session-1');
      await transport.send(ping);
      await transport.send({ jsonrpc: '2.0', method: 'notifications/message', params: { level: 'info', data: 'hi' } });
      sockets.close(SSE_STREAM_ID);
      expect((await worker).frames).toEqual([
        { event: 'endpoint', data: '/messages?sessionId=session-1' },
        { event: 'message', data: JSON.stringify(ping) },
        { event: 'message', data: JSON.stringify({ jsonrpc: '2.0', method: 'notifications/message', params: { level: 'info', data: 'hi' } }) },
      ]);
    }));

  it('does not send the server’s answer to a replayed initialize', () =>
    withTransport(async (transport, sockets) => {
      const worker = workerEnd(sockets.open(SSE_STREAM_ID));
      let replayed: JSONRPCMessage | undefined;
      replayInitialize((message) => (replayed = message), { protocolVersion: '2024-11-05', capabilities: {}, clientInfo: { name: 'c', version: '1' } });
      await transport.send({ jsonrpc: '2.0', id: (replayed as { id: string }).id, result: { protocolVersion: '2024-11-05' } } as JSONRPCMessage);
      await transport.send(ping);
      sockets.close(SSE_STREAM_ID);
      expect((await worker).frames.map((frame) => JSON.parse(frame.data))).toEqual([ping]);
    }));

  it('fails a send once the stream is gone: the session cannot answer any more', () =>
    withTransport(async (transport) => {
      await expect(transport.send(ping)).rejects.toThrow('SSE stream is closed');
    }));

  it('hands each POSTed message to the server with its sender’s auth info', () =>
    withTransport(async (transport) => {
      const received: [JSONRPCMessage, MessageExtraInfo | undefined][] = [];
      transport.onmessage = (message, extra) => received.push([message, extra]);
      const extra = { authInfo: { token: '', clientId: 'key_a', scopes: ['*'] } };
      transport.receive({ jsonrpc: '2.0', id: 2, method: 'ping' }, extra);
      expect(received).toEqual([[{ jsonrpc: '2.0', id: 2, method: 'ping' }, extra]]);
    }));

  it('closes the stream when the server closes, and says so', () =>
    withTransport(async (transport, sockets) => {
      const worker = workerEnd(sockets.open(SSE_STREAM_ID));
      let closed = 0;
      transport.onclose = () => closed++;
      await transport.close();
      expect((await worker).reason).toBe('session closed');
      expect(closed).toBe(1);
    }));
});
