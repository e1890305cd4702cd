import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { HttpError } from '../../src/protocol/httpError';
import { JSONRPCMessageSchema } from '@modelcontextprotocol/core';
import { ErrorCode } from '../../src/protocol/jsonrpc';
import { parse } from '../../src/protocol/messages';
import { body, RUNS } from '../support/fuzz';
import { ErrorBodySchema } from '../support/mcp';

const CODES: number[] = [ErrorCode.ParseError, ErrorCode.InvalidRequest, ErrorCode.InvalidParams];
/** Bodies tried, so each test can show it ran as many as its name says. */
let tried = 0;

/** parse() either returns valid messages or throws a HttpError that is a well-formed JSON-RPC error. */
function holds(text: string) {
  tried++;
  try {
    const { messages } = parse(text);
    expect(messages.length).toBeGreaterThan(0);
    for (const message of messages) expect(JSONRPCMessageSchema.safeParse(message).success).toBe(true);
  } catch (error) {
    expect(error).toBeInstanceOf(HttpError);
    const { status, code } = error as HttpError;
    expect(status).toBe(400);
    expect(CODES).toContain(code);
    expect(ErrorBodySchema.safeParse((error as HttpError).toJSON()).success).toBe(true);
  }
}

describe('MessageParser.parse, property-based', () => {
  it(`answers any body with valid messages or a well-formed 400 JSON-RPC error (${RUNS} bodies)`, ({ task }) => {
    tried = 0;
    fc.assert(fc.property(body, holds), { numRuns: RUNS });
    expect(tried).toBe(RUNS);
    task.meta.inputs = tried;
  });

  const deep = Math.max(20, Math.round(RUNS / 10));
  it(`survives nesting far deeper than any message needs (${deep} depths up to 200,000)`, ({ task }) => {
    tried = 0;
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 200_000 }), fc.constantFrom('[', '{"a":'), (depth, open) => {
        const close = open === '[' ? ']' : '}';
        holds(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"x","arguments":{"a":${open.repeat(depth)}1${close.repeat(depth)}}}}`);
      }),
      { numRuns: deep },
    );
    task.meta.inputs = tried;
  });
});
