import { describe, expect, it } from 'vitest';
import { formatError, formatToolResult } from '../../src/server/formatResult';
import { rawResult } from '../../src/tools/tool';

describe('MessageFormatter', () => {
  it('formats strings as text and values as compact JSON', () => {
    expect(formatToolResult('hello')).toEqual({ content: [{ type: 'text', text: 'hello' }] });
    expect(formatToolResult({ a: [1, 2] })).toEqual({ content: [{ type: 'text', text: '{"a":[1,2]}' }] });
    expect(formatToolResult(undefined)).toEqual({ content: [{ type: 'text', text: 'null' }] });
  });

  it('adds structuredContent for objects only when asked', () => {
    expect(formatToolResult({ a: 1 }, { structured: true })).toEqual({
      content: [{ type: 'text', text: '{"a":1}' }],
      structuredContent: { a: 1 },
    });
    expect(formatToolResult([1], { structured: true })).not.toHaveProperty('structuredContent');
  });

  it('passes raw results through and leaves look-alike data alone', () => {
    const raw = { content: [{ type: 'image' as const, data: 'AA==', mimeType: 'image/png' }] };
    expect(formatToolResult(rawResult(raw))).toBe(raw);
    const lookalike = { content: [{ type: 'text', text: 'data, not a result' }] };
    expect(formatToolResult(lookalike).content[0]).toEqual({ type: 'text', text: JSON.stringify(lookalike) });
  });

  it('formats errors as isError results', () => {
    expect(formatError(new Error('City not found'))).toEqual({
      isError: true,
      content: [{ type: 'text', text: 'Error: City not found' }],
    });
    expect(formatError('plain')).toMatchObject({ isError: true, content: [{ text: 'Error: plain' }] });
  });
});
