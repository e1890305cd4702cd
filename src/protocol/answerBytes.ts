import type { CallToolResult } from '@modelcontextprotocol/server';

/** UTF-8 bytes of a text, counted without encoding it (a surrogate pair: two units, four bytes). */
function utf8Bytes(text: string): number {
  let bytes = text.length;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code > 0x7f) bytes += code > 0x7ff && (code < 0xd800 || code > 0xdfff) ? 2 : 1;
  }
  return bytes;
}

/** Bytes a tool result takes in its JSON-RPC message: UTF-8 JSON, the text escaped, structuredContent beside it. */
export const answerBytes = (result: CallToolResult): number => utf8Bytes(JSON.stringify(result));

/** Bytes a value takes in an answer's text: its JSON, escaped once more as the message carries the text. */
export const bytesInAnswer = (value: unknown): number => utf8Bytes(JSON.stringify(JSON.stringify(value) ?? 'null')) - 2;
