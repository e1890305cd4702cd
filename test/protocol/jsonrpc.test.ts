import type { JSONRPCMessage } from '@modelcontextprotocol/server';
import { describe, expect, it } from 'vitest';
import { isCancellation, isInitialize, isRequest, isResponse, jsonRpcError } from '../../src/protocol/jsonrpc';

const request = { jsonrpc: '2.0', id: 1, method: 'tools/list' } as const;
const initialize = {
  jsonrpc: '2.0',
  id: 0,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'c', version: '1' } },
};
const notification = { jsonrpc: '2.0', method: 'notifications/initialized' } as const;
const result = { jsonrpc: '2.0', id: 1, result: {} } as const;
const error = { jsonrpc: '2.0', id: 1, error: { code: -32601, message: 'Method not found' } } as const;
const cancellation = { jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 3, reason: 'user' } } as const;

/** Which of the four predicates hold for a message, in order: request, response, initialize, cancellation. */
const kinds = (m: unknown) => [isRequest, isResponse, isInitialize, isCancellation].map((is) => is(m as JSONRPCMessage));

describe('what kind a message is', () => {
  it('tells requests, notifications and responses apart by their members', () => {
    expect(kinds(request)).toEqual([true, false, false, false]);
    expect(kinds(notification)).toEqual([false, false, false, false]);
    expect(kinds(result)).toEqual([false, true, false, false]);
    expect(kinds(error)).toEqual([false, true, false, false]);
  });

  it('knows an initialize only as a request: a notification of that name is not one', () => {
    expect(kinds(initialize)).toEqual([true, false, true, false]);
    expect(isInitialize({ jsonrpc: '2.0', method: 'initialize' } as JSONRPCMessage)).toBe(false);
  });

  it('knows a cancellation only as a notification that names the request it cancels', () => {
    expect(kinds(cancellation)).toEqual([false, false, false, true]);
    // The request id 0 is an id like any other.
    expect(isCancellation({ ...cancellation, params: { requestId: 0 } } as JSONRPCMessage)).toBe(true);
    expect(isCancellation({ jsonrpc: '2.0', method: 'notifications/cancelled', params: {} } as JSONRPCMessage)).toBe(false);
    expect(isCancellation({ jsonrpc: '2.0', method: 'notifications/cancelled' } as JSONRPCMessage)).toBe(false);
    // Sent as a request (with an id), it is not the notification and cancels nothing.
    expect(isCancellation({ ...cancellation, id: 9 } as JSONRPCMessage)).toBe(false);
  });
});

describe('jsonRpcError', () => {
  it('builds the error answer with the id it is given, or null', () => {
    expect(jsonRpcError(7, -32602, 'Invalid params')).toEqual({ jsonrpc: '2.0', id: 7, error: { code: -32602, message: 'Invalid params' } });
    expect(jsonRpcError(null, -32700, 'Parse error')).toEqual({ jsonrpc: '2.0', id: null, error: { code: -32700, message: 'Parse error' } });
  });

  it('carries data only when there is some: no data member at all otherwise', () => {
    expect(jsonRpcError('a', -32000, 'failed', { tool: 'x' }).error).toEqual({ code: -32000, message: 'failed', data: { tool: 'x' } });
    expect(jsonRpcError('a', -32000, 'failed', null).error).toEqual({ code: -32000, message: 'failed', data: null });
    expect(Object.keys(jsonRpcError('a', -32000, 'failed').error)).toEqual(['code', 'message']);
  });
});
