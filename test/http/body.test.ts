import { describe, expect, it } from 'vitest';
import { MAX_BODY_BYTES } from '../../src/config';
import { readJsonBody } from '../../src/http/body';
import { HttpError } from '../../src/protocol/httpError';

const json = { 'content-type': 'application/json' };

/** A body with no declared length: it arrives in `pieces` chunks of `size` bytes. */
function streamed(pieces: number, size: number): Request {
  let sent = 0;
  const body = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (sent++ === pieces) return controller.close();
      controller.enqueue(new Uint8Array(size).fill(0x20));
    },
  });
  return new Request('https://x/mcp', { method: 'POST', headers: json, body, duplex: 'half' } as RequestInit);
}

async function statusOf(read: Promise<unknown>): Promise<number> {
  try {
    await read;
    return 200;
  } catch (error) {
    return (error as HttpError).status;
  }
}

describe('readJsonBody', () => {
  it('reads a body with a declared length whole, and one without piece by piece', async () => {
    const text = '{"a":"é"}';
    const length = String(new TextEncoder().encode(text).byteLength);
    const declared = new Request('https://x/mcp', { method: 'POST', headers: { ...json, 'content-length': length }, body: text });
    expect(await readJsonBody(declared)).toBe(text);
    expect(await readJsonBody(streamed(3, 4))).toBe(' '.repeat(12));
  });

  it('refuses a declared length over the limit before reading, and a streamed body once it passes the limit', async () => {
    const huge = new Request('https://x/mcp', { method: 'POST', headers: { ...json, 'content-length': String(MAX_BODY_BYTES + 1) } });
    expect(await statusOf(readJsonBody(huge))).toBe(413);
    expect(await statusOf(readJsonBody(streamed(5, MAX_BODY_BYTES / 4)))).toBe(413);
    expect(await statusOf(readJsonBody(streamed(4, MAX_BODY_BYTES / 4)))).toBe(200);
  });

  it('refuses what is not declared JSON (415) and bytes that are not UTF-8 (400)', async () => {
    expect(await statusOf(readJsonBody(new Request('https://x/mcp', { method: 'POST', body: '{}' })))).toBe(415);
    const latin1 = new Request('https://x/mcp', { method: 'POST', headers: json, body: new Uint8Array([0x7b, 0xe9, 0x7d]) });
    expect(await statusOf(readJsonBody(latin1))).toBe(400);
  });
});
