import { describe, expect, it } from 'vitest';
import { answerBytes, bytesInAnswer } from '../../src/protocol/answerBytes';

const utf8 = (text: string) => new TextEncoder().encode(text).byteLength;

describe('the size of an answer', () => {
  it('counts a result as its JSON-RPC message carries it: UTF-8, the text escaped, structuredContent beside it', () => {
    const result = { content: [{ type: 'text' as const, text: '"é€😀\u0001' }], structuredContent: { quote: '"é€😀' } };
    expect(answerBytes(result)).toBe(utf8(JSON.stringify(result)));
  });

  it('counts a value as it sits in an answer’s text: its JSON, escaped once more', () => {
    for (const value of [{ quote: '"é€😀' }, ['\\', '\n'], 'plain', 7, null])
      expect(bytesInAnswer(value)).toBe(utf8(JSON.stringify(JSON.stringify(value))) - 2);
  });
});
