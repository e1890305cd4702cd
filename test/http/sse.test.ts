import { afterEach, describe, expect, it, vi } from 'vitest';
import { SSE_KEEPALIVE_MS } from '../../src/config';
import { encodeSseEvent, SSE_HEADERS, SseStream } from '../../src/http/sse';
import { parseSse } from '../support/mcp';

const decoder = new TextDecoder();
const text = (bytes: Uint8Array) => decoder.decode(bytes);

/** Reads a stream's chunks one at a time, as text. */
const chunks = (response: Response) => {
  const reader = response.body!.getReader();
  return {
    next: async () => {
      const { done, value } = await reader.read();
      return done ? null : text(value);
    },
    cancel: () => reader.cancel(),
  };
};

afterEach(() => vi.useRealTimers());

describe('encodeSseEvent', () => {
  it('writes a frame a client reads back as it was sent: event, id and data', () => {
    const frame = text(encodeSseEvent({ event: 'message', id: '42', data: '{"jsonrpc":"2.0"}' }));
    expect(frame).toBe('id: 42\nevent: message\ndata: {"jsonrpc":"2.0"}\n\n');
    expect(parseSse(frame)).toEqual([{ event: 'message', id: '42', data: '{"jsonrpc":"2.0"}' }]);
  });

  it('splits data on every kind of line break into data lines, so it reads back whole and can start no field of its own', () => {
    const data = 'first\r\nsecond\rthird\nevent: forged\nid: 666\n\ndata: after a blank line';
    const events = parseSse(text(encodeSseEvent({ event: 'message', data })));
    expect(events).toEqual([{ event: 'message', id: undefined, data: data.replace(/\r\n|\r/g, '\n') }]);
  });

  it('keeps an id on its one line: line breaks in it are dropped, not turned into fields', () => {
    const events = parseSse(text(encodeSseEvent({ id: '7\r\nevent: forged\ndata: injected', data: 'x' })));
    expect(events).toEqual([{ event: undefined, id: '7event: forgeddata: injected', data: 'x' }]);
  });

  it('writes an empty data line for empty data, so the event still reaches the client', () => {
    expect(parseSse(text(encodeSseEvent({ event: 'endpoint', data: '' })))).toEqual([{ event: 'endpoint', id: undefined, data: '' }]);
  });
});

describe('SseStream', () => {
  it('answers with the SSE headers by default, or the status and headers it is given', () => {
    const plain = new SseStream(undefined, { keepalive: false });
    expect(plain.response.status).toBe(200);
    expect(Object.fromEntries(plain.response.headers)).toEqual(Object.fromEntries(new Headers(SSE_HEADERS)));
    const own = new SseStream(undefined, { status: 202, headers: { 'content-type': 'text/event-stream', 'mcp-session-id': 'abc' }, keepalive: false });
    expect(own.response.status).toBe(202);
    expect(own.response.headers.get('mcp-session-id')).toBe('abc');
  });

  it('sends each event as a frame, passes SSE bytes on as they are, and ends the body on close', async () => {
    const stream = new SseStream(undefined, { keepalive: false });
    const read = chunks(stream.response);
    expect(stream.send({ event: 'message', data: 'one' })).toBe(true);
    expect(await read.next()).toBe('event: message\ndata: one\n\n');
    expect(stream.write(new TextEncoder().encode('data: raw\n\n'))).toBe(true);
    expect(await read.next()).toBe('data: raw\n\n');
    stream.close();
    expect(await read.next()).toBeNull();
  });

  it('runs onClose once when the server closes it, and sends nothing after', () => {
    const onClose = vi.fn();
    const stream = new SseStream(onClose, { keepalive: false });
    stream.close();
    stream.close();
    expect(onClose).toHaveBeenCalledTimes(1);
    expect(stream.closed).toBe(true);
    expect(stream.send({ data: 'late' })).toBe(false);
  });

  it('runs onClose once when the client goes away, and then says so to every send', async () => {
    const onClose = vi.fn();
    const stream = new SseStream(onClose, { keepalive: false });
    expect(stream.closed).toBe(false);
    await stream.response.body!.cancel();
    expect(onClose).toHaveBeenCalledTimes(1);
    expect(stream.closed).toBe(true);
    expect(stream.send({ data: 'nobody reads this' })).toBe(false);
    stream.close();
    expect(onClose).toHaveBeenCalledTimes(1);
  });

  it('writes a keepalive comment every SSE_KEEPALIVE_MS from the start, or from keepAlive(), and stops when closed', async () => {
    vi.useFakeTimers();
    const eager = new SseStream();
    const read = chunks(eager.response);
    vi.advanceTimersByTime(SSE_KEEPALIVE_MS);
    expect(await read.next()).toBe(': keepalive\n\n');
    // A comment is no event: a client sees nothing.
    expect(parseSse(': keepalive\n\n')).toEqual([]);
    eager.close();
    vi.advanceTimersByTime(SSE_KEEPALIVE_MS * 3);
    expect(await read.next()).toBeNull();
    expect(vi.getTimerCount()).toBe(0);

    const later = new SseStream(undefined, { keepalive: false });
    const laterRead = chunks(later.response);
    vi.advanceTimersByTime(SSE_KEEPALIVE_MS * 2);
    expect(vi.getTimerCount()).toBe(0);
    later.keepAlive();
    later.keepAlive();
    expect(vi.getTimerCount()).toBe(1);
    vi.advanceTimersByTime(SSE_KEEPALIVE_MS);
    expect(await laterRead.next()).toBe(': keepalive\n\n');
    later.close();
    expect(vi.getTimerCount()).toBe(0);
  });
});
