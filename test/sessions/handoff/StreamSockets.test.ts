import { env } from 'cloudflare:workers';
import { runInDurableObject } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import { encodeSseEvent } from '../../../src/http/sse';
import { StreamSockets } from '../../../src/sessions/handoff/StreamSockets';
import type { TaskObject } from '../../../src/tasks/TaskObject';
import { parseSse } from '../../support/mcp';

/**
 * Runs `test` with StreamSockets on the state of a fresh Durable Object, which also holds the Worker's
 * ends here. A task object's: a session object would take each socket's close for one of its own streams.
 */
const withSockets = <T>(test: (sockets: StreamSockets) => Promise<T>) =>
  runInDurableObject(env.TASKS.get(env.TASKS.newUniqueId()), (_: TaskObject, state) => test(new StreamSockets(state)));

/** The Worker's end of a stream's socket: the binary messages it got, and how it was closed. */
function workerEnd(socket: WebSocket) {
  socket.accept();
  socket.binaryType = 'arraybuffer';
  const messages: Uint8Array[] = [];
  socket.addEventListener('message', (event) => {
    messages.push(new Uint8Array(event.data as ArrayBuffer));
  });
  const closed = new Promise<{ code: number; reason: string }>((resolve) => socket.addEventListener('close', ({ code, reason }) => resolve({ code, reason })));
  const text = () => new TextDecoder().decode(join(messages));
  return { messages, closed, text, frames: () => parseSse(text()) };
}

function join(pieces: Uint8Array[]): Uint8Array {
  const whole = new Uint8Array(pieces.reduce((n, piece) => n + piece.length, 0));
  let at = 0;
  for (const piece of pieces) {
    whole.set(piece, at);
    at += piece.length;
  }
  return whole;
}

const ping = (id: number) => ({ jsonrpc: '2.0', id, method: 'ping' });

describe('the sockets of the streams the Worker holds', () => {
  it('sends each event as an SSE frame on the stream’s socket, and says whether one was open', () =>
    withSockets(async (sockets) => {
      expect(sockets.has('s')).toBe(false);
      expect(sockets.sendMessage('s', ping(1), '0000000000000001')).toBe(false);
      const worker = workerEnd(sockets.open('s'));
      expect(sockets.has('s')).toBe(true);
      expect(sockets.sendMessage('s', ping(2), '0000000000000002')).toBe(true);
      expect(sockets.send('s', { event: 'endpoint', data: '/messages?sessionId=x' })).toBe(true);
      sockets.close('s');
      expect(await worker.closed).toEqual({ code: 1000, reason: 'stream complete' });
      expect(worker.frames()).toEqual([
        { event: 'message', id: '0000000000000002', data: JSON.stringify(ping(2)) },
        { event: 'endpoint', data: '/messages?sessionId=x' },
      ]);
    }));

  it('sends each event once: not one at or before the last the socket carried, nor before the one the Worker already has', () =>
    withSockets(async (sockets) => {
      const worker = workerEnd(sockets.open('s', '0000000000000005'));
      for (const id of [3, 5, 6, 6, 4, 7]) sockets.sendMessage('s', ping(id), String(id).padStart(16, '0'));
      sockets.sendMessage('s', ping(8)); // an event without an id is never a repeat
      sockets.close('s');
      await worker.closed;
      expect(worker.frames().map((frame) => [frame.id, JSON.parse(frame.data).id])).toEqual([
        ['0000000000000006', 6],
        ['0000000000000007', 7],
        [undefined, 8],
      ]);
    }));

  it('keeps streams apart: sends and closes only the stream named, and closes every stream when none is', () =>
    withSockets(async (sockets) => {
      const a = workerEnd(sockets.open('a'));
      const b = workerEnd(sockets.open('b'));
      const c = workerEnd(sockets.open('c'));
      sockets.sendMessage('a', ping(1));
      sockets.close('a', 'answered');
      expect(await a.closed).toEqual({ code: 1000, reason: 'answered' });
      expect(a.frames()).toHaveLength(1);
      expect(sockets.sendMessage('b', ping(2))).toBe(true);
      sockets.close(undefined, 'session ended');
      expect(await b.closed).toEqual({ code: 1000, reason: 'session ended' });
      expect(await c.closed).toEqual({ code: 1000, reason: 'session ended' });
      expect(b.frames().map((frame) => JSON.parse(frame.data).id)).toEqual([2]);
      expect(c.messages).toEqual([]);
    }));

  it('sends a frame larger than one socket message in pieces of at most 64 KB, which join into the frame', () =>
    withSockets(async (sockets) => {
      const worker = workerEnd(sockets.open('s'));
      const big = { jsonrpc: '2.0', id: 1, result: { text: 'é'.repeat(100_000) } }; // 200 KB of UTF-8
      sockets.sendMessage('s', big, '0000000000000001');
      sockets.close('s');
      await worker.closed;
      expect(worker.messages.length).toBe(4);
      expect(worker.messages.every((piece) => piece.length <= 64 * 1024)).toBe(true);
      expect(join(worker.messages)).toEqual(encodeSseEvent({ event: 'message', id: '0000000000000001', data: JSON.stringify(big) }));
    }));
});
