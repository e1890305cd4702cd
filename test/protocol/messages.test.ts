import { describe, expect, it } from 'vitest';
import { HttpError } from '../../src/http/errors';
import { ErrorCode } from '../../src/protocol/jsonrpc';
import {
  extractToolCallInfo,
  getRequestId,
  isListToolsRequest,
  isToolCall,
  MAX_BATCH_MESSAGES,
  parse,
} from '../../src/protocol/messages';

function parseError(body: string): HttpError {
  try {
    parse(body);
  } catch (error) {
    if (error instanceof HttpError) return error;
    throw error;
  }
  throw new Error(`expected ${body} to be rejected`);
}

describe('MessageParser.parse', () => {
  it('accepts a request, a notification, a response and a batch', () => {
    expect(parse('{"jsonrpc":"2.0","id":1,"method":"ping"}')).toEqual({
      batch: false,
      messages: [{ jsonrpc: '2.0', id: 1, method: 'ping' }],
    });
    expect(parse('{"jsonrpc":"2.0","method":"notifications/initialized"}').messages[0]).not.toHaveProperty('id');
    expect(parse('{"jsonrpc":"2.0","id":"a","result":{}}').messages).toHaveLength(1);
    expect(parse('[{"jsonrpc":"2.0","id":1,"method":"ping"},{"jsonrpc":"2.0","method":"x"}]')).toMatchObject({
      batch: true,
      messages: [{ id: 1 }, { method: 'x' }],
    });
  });

  it.each([
    ['{not json', ErrorCode.ParseError, /not valid JSON/],
    ['', ErrorCode.ParseError, /not valid JSON/],
    ['42', ErrorCode.InvalidRequest, /got number/],
    ['"ping"', ErrorCode.InvalidRequest, /got string/],
    ['null', ErrorCode.InvalidRequest, /got null/],
    ['[]', ErrorCode.InvalidRequest, /empty batch/],
    ['[1]', ErrorCode.InvalidRequest, /batch item 0/],
    ['{"id":1,"method":"ping"}', ErrorCode.InvalidRequest, /"jsonrpc" must be "2.0"/],
    ['{"jsonrpc":"1.0","id":1,"method":"ping"}', ErrorCode.InvalidRequest, /"jsonrpc" must be "2.0"/],
    ['{"jsonrpc":"2.0","id":1}', ErrorCode.InvalidRequest, /missing "method"/],
    ['{"jsonrpc":"2.0","id":1,"method":7}', ErrorCode.InvalidRequest, /"method" must be a non-empty string/],
    ['{"jsonrpc":"2.0","id":1.5,"method":"ping"}', ErrorCode.InvalidRequest, /"id" must be a string or a safe integer/],
    ['{"jsonrpc":"2.0","id":9007199254740992,"method":"ping"}', ErrorCode.InvalidRequest, /"id" must be a string or a safe integer/],
    ['{"jsonrpc":"2.0","id":1,"method":"ping","params":[1]}', ErrorCode.InvalidRequest, /"params" must be an object/],
  ])('rejects %s with %i', (body, code, message) => {
    const error = parseError(body);
    expect(error.status).toBe(400);
    expect(error.code).toBe(code);
    expect(error.message).toMatch(message);
  });

  it('takes a batch of up to MAX_BATCH_MESSAGES messages, and refuses a larger one naming the limit', () => {
    const batch = (n: number) => JSON.stringify(Array.from({ length: n }, (_, i) => ({ jsonrpc: '2.0', id: i, method: 'ping' })));
    expect(parse(batch(MAX_BATCH_MESSAGES)).messages).toHaveLength(MAX_BATCH_MESSAGES);
    expect(parseError(batch(MAX_BATCH_MESSAGES + 1)).toJSON()).toEqual({
      jsonrpc: '2.0',
      id: null,
      error: { code: ErrorCode.InvalidRequest, message: `Invalid Request: a batch of ${MAX_BATCH_MESSAGES + 1} messages; the limit is ${MAX_BATCH_MESSAGES}` },
    });
  });

  it('keeps the request id in the error when it can be read', () => {
    expect(parseError('{"jsonrpc":"2.0","id":9,"method":""}').toJSON()).toMatchObject({ id: 9, error: { code: -32600 } });
  });

  it('answers with a null id when the id is not one it accepts (found by the fuzzer: 2^53)', () => {
    expect(parseError('{"id":9007199254740992}').toJSON()).toMatchObject({ id: null, error: { code: -32600 } });
  });
});

describe('MessageParser helpers', () => {
  const call = parse('{"jsonrpc":"2.0","id":"c1","method":"tools/call","params":{"name":"t","arguments":{"a":1}}}')
    .messages[0]!;
  const list = parse('{"jsonrpc":"2.0","id":2,"method":"tools/list"}').messages[0]!;
  const note = parse('{"jsonrpc":"2.0","method":"tools/call"}').messages[0]!;

  it('identifies tool calls and list requests', () => {
    expect([isToolCall(call), isToolCall(list), isToolCall(note)]).toEqual([true, false, false]);
    expect([isListToolsRequest(list), isListToolsRequest(call)]).toEqual([true, false]);
  });

  it('reads ids and tool call info', () => {
    expect(getRequestId(call)).toBe('c1');
    expect(getRequestId(note)).toBeUndefined();
    expect(extractToolCallInfo(call)).toEqual({ toolName: 't', arguments: { a: 1 } });
    expect(extractToolCallInfo(list)).toBeUndefined();
    const noArgs = parse('{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"t"}}').messages[0]!;
    expect(extractToolCallInfo(noArgs)).toEqual({ toolName: 't', arguments: {} });
  });

  it('rejects malformed params of known methods with -32602, keeping the id', () => {
    const error = parseError('{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"t","arguments":[1]}}');
    expect(error.toJSON()).toMatchObject({ id: 1, error: { code: ErrorCode.InvalidParams, message: /tools\/call: arguments/ } });
    expect(parse('{"jsonrpc":"2.0","id":1,"method":"vendor/custom","params":{"anything":[1]}}').messages).toHaveLength(1);
  });
});
