import { describe, expect, it } from 'vitest';
import { HttpError } from '../../src/protocol/httpError';
import { ErrorCode } from '../../src/protocol/jsonrpc';
import { extractToolCallInfo, isToolCall, MAX_BATCH_MESSAGES, parse, parseMessages, parseRequest } from '../../src/protocol/messages';

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
    ['{"jsonrpc":"2.0","id":1,"method":7}', ErrorCode.InvalidRequest, /"method" must be a string/],
    ['{"jsonrpc":"2.0","id":1.5,"method":"ping"}', ErrorCode.InvalidRequest, /"id" must be a string or a safe integer/],
    ['{"jsonrpc":"2.0","id":9007199254740992,"method":"ping"}', ErrorCode.InvalidRequest, /"id" must be a string or a safe integer/],
    ['{"jsonrpc":"2.0","id":1,"method":"ping","params":[1]}', ErrorCode.InvalidRequest, /"params" must be an object/],
    ['{"jsonrpc":"2.0","id":1,"method":"tools/call","params":"x"}', ErrorCode.InvalidRequest, /"params" must be an object/],
    ['{"jsonrpc":"2.0","id":1,"method":"ping","extra":1}', ErrorCode.InvalidRequest, /unexpected member "extra"/],
    ['{"jsonrpc":"2.0","id":null,"error":{"code":1,"message":"x"}}', ErrorCode.InvalidRequest, /"id" must be a string or a safe integer/],
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
    expect(parseError('{"jsonrpc":"2.0","id":9,"method":"ping","params":5}').toJSON()).toMatchObject({ id: 9, error: { code: -32600 } });
  });

  it('answers with a null id when the id is not one it accepts (found by the fuzzer: 2^53)', () => {
    expect(parseError('{"id":9007199254740992}').toJSON()).toMatchObject({ id: null, error: { code: -32600 } });
  });
});

describe('MessageParser helpers', () => {
  const call = parse('{"jsonrpc":"2.0","id":"c1","method":"tools/call","params":{"name":"t","arguments":{"a":1}}}').messages[0]!;
  const list = parse('{"jsonrpc":"2.0","id":2,"method":"tools/list"}').messages[0]!;
  const note = parse('{"jsonrpc":"2.0","method":"tools/call"}').messages[0]!;

  it('identifies tool calls', () => {
    expect([isToolCall(call), isToolCall(list), isToolCall(note)]).toEqual([true, false, false]);
  });

  it('reads tool call info', () => {
    expect(extractToolCallInfo(call)).toEqual({ toolName: 't', arguments: { a: 1 } });
    expect(extractToolCallInfo(list)).toBeUndefined();
    const noArgs = parse('{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"t"}}').messages[0]!;
    expect(extractToolCallInfo(noArgs)).toEqual({ toolName: 't', arguments: {} });
  });

  it('rejects malformed params of known methods with -32602, keeping the id', () => {
    const error = parseError('{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"t","arguments":[1]}}');
    expect(error.toJSON()).toMatchObject({
      id: 1,
      error: { code: ErrorCode.InvalidParams, message: 'Invalid params for tools/call: arguments: Invalid input: expected record, received array' },
    });
    expect(parseError('{"jsonrpc":"2.0","id":2,"method":"initialize"}').toJSON()).toMatchObject({
      id: 2,
      error: { code: ErrorCode.InvalidParams, message: /^Invalid params for initialize: params: / },
    });
    expect(parse('{"jsonrpc":"2.0","id":1,"method":"vendor/custom","params":{"anything":[1]}}').messages).toHaveLength(1);
  });

  it("refuses a batch by its first malformed message (-32600) before any request's bad params (-32602)", () => {
    const badParams = { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 3 } };
    const refusal = (value: unknown) => {
      try {
        parseMessages(value);
      } catch (error) {
        return (error as HttpError).toJSON();
      }
      throw new Error('accepted');
    };
    expect(refusal([{ jsonrpc: '2.0', id: 1, method: 'ping' }, badParams])).toMatchObject({
      id: 2,
      error: { code: ErrorCode.InvalidParams, message: /^Invalid params for tools\/call: name: / },
    });
    expect(refusal([badParams, { jsonrpc: '1.0', id: 3, method: 'ping' }])).toMatchObject({ id: 3, error: { code: ErrorCode.InvalidRequest } });
  });

  it('passes messages on as they came, params members no schema names included', () => {
    const body = { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 't', arguments: {}, vendorHint: { x: 1 } } };
    expect(parseMessages(body).messages[0]).toBe(body);
  });
});

describe('parseRequest (query mode)', () => {
  it('names the member that is wrong or missing', () => {
    const refusal = (candidate: Parameters<typeof parseRequest>[0]) => {
      try {
        parseRequest(candidate);
      } catch (error) {
        return (error as HttpError).toJSON();
      }
      throw new Error('expected a refusal');
    };
    expect(refusal({ jsonrpc: '1.0', id: 1, method: 'ping' }).error).toEqual({ code: -32600, message: 'Invalid Request: bad or missing "jsonrpc"' });
    expect(refusal({ jsonrpc: '2.0', method: 'ping' })).toMatchObject({ id: null, error: { message: 'Invalid Request: bad or missing "id"' } });
    expect(refusal({ jsonrpc: '2.0', id: 3 })).toMatchObject({ id: 3, error: { message: 'Invalid Request: bad or missing "method"' } });
    expect(refusal({ jsonrpc: '2.0', id: 4, method: 'ping', params: [1] })).toMatchObject({
      id: 4,
      error: { code: -32602, message: 'Invalid Request: bad or missing "params"' },
    });
    expect(refusal({ jsonrpc: '2.0', id: 4, method: 'tools/call', params: {} })).toMatchObject({
      id: 4,
      error: { code: -32602, message: /^Invalid params for tools\/call: name: / },
    });
    expect(parseRequest({ jsonrpc: '2.0', id: 5, method: 'ping' })).toEqual({ jsonrpc: '2.0', id: 5, method: 'ping' });
  });
});
