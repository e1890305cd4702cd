import { afterEach, describe, expect, it, vi } from 'vitest';
import { HttpError, sessionNotFound, toErrorResponse } from '../../src/protocol/httpError';
import { ErrorCode } from '../../src/protocol/jsonrpc';
import { call, ErrorBodySchema } from '../support/mcp';

afterEach(() => vi.restoreAllMocks());

describe('toErrorResponse', () => {
  it('answers an HttpError with its status, its headers and a JSON-RPC error body carrying its id', async () => {
    const response = toErrorResponse(new HttpError(429, ErrorCode.InvalidRequest, 'Too Many Requests', { 'Retry-After': '60' }, 'req-7'));
    expect(response.status).toBe(429);
    expect(response.headers.get('retry-after')).toBe('60');
    expect(response.headers.get('content-type')).toMatch(/^application\/json/);
    const body = await response.json();
    expect(body).toEqual({ jsonrpc: '2.0', id: 'req-7', error: { code: -32600, message: 'Too Many Requests' } });
    expect(ErrorBodySchema.safeParse(body).success).toBe(true);
  });

  it('gives the null id JSON-RPC asks for when the request’s own is not known', async () => {
    const body = await toErrorResponse(new HttpError(400, ErrorCode.ParseError, 'Parse error')).json();
    expect(body).toEqual({ jsonrpc: '2.0', id: null, error: { code: -32700, message: 'Parse error' } });
  });

  it('answers anything else 500 Internal error, telling the caller nothing of it and the log what it was', async () => {
    const logged: string[] = [];
    vi.spyOn(console, 'error').mockImplementation((line: unknown) => void logged.push(String(line)));
    const response = toErrorResponse(new TypeError('secret internals at line 3'));
    expect(response.status).toBe(500);
    const text = await response.text();
    expect(JSON.parse(text)).toEqual({ jsonrpc: '2.0', id: null, error: { code: -32603, message: 'Internal error' } });
    expect(text).not.toContain('secret internals');
    expect(logged.map((line) => JSON.parse(line))).toEqual([{ level: 'error', message: 'unhandled error', error: 'TypeError: secret internals at line 3' }]);
  });

  it('answers a thrown value that is no Error at all the same way', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    const response = toErrorResponse('a string');
    expect([response.status, await response.json()]).toEqual([500, { jsonrpc: '2.0', id: null, error: { code: -32603, message: 'Internal error' } }]);
  });
});

describe('HttpError', () => {
  it('is an Error that names itself and serializes to its JSON-RPC body', () => {
    const error = new HttpError(404, ErrorCode.InvalidRequest, 'Not Found');
    expect(error).toBeInstanceOf(Error);
    expect(String(error)).toBe('HttpError: Not Found');
    expect(JSON.parse(JSON.stringify(error))).toEqual({ jsonrpc: '2.0', id: null, error: { code: -32600, message: 'Not Found' } });
  });
});

describe('sessionNotFound', () => {
  it('is the 404 a client starts a new session on, and the Worker answers an unknown session with it', async () => {
    const error = sessionNotFound();
    expect(error).toMatchObject({ status: 404, code: ErrorCode.InvalidRequest });
    const answered = await call('/mcp', {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-session-id': 'A'.repeat(43) },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' }),
    });
    expect(answered.status).toBe(404);
    expect(await answered.json()).toEqual(error.toJSON());
  });
});
