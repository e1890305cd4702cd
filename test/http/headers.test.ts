import { describe, expect, it } from 'vitest';
import { MAX_HEADER_BYTES } from '../../src/config';
import { assertHeaderSize } from '../../src/http/headers';
import { HttpError } from '../../src/protocol/httpError';
import { call } from '../support/mcp';

/** A GET whose headers come to exactly `bytes` as assertHeaderSize counts them: name, value and 4 (": " and CRLF) each. */
function requestOf(bytes: number, names = ['x-pad']): Request {
  const overhead = names.reduce((sum, name) => sum + name.length + 4, 0);
  const each = Math.floor((bytes - overhead) / names.length);
  const headers = new Headers();
  names.forEach((name, i) => headers.set(name, 'v'.repeat(i === 0 ? bytes - overhead - each * (names.length - 1) : each)));
  return new Request('https://mcp.example/mcp', { headers });
}

const refusal = (request: Request) => {
  try {
    assertHeaderSize(request);
    return null;
  } catch (error) {
    return error;
  }
};

describe('assertHeaderSize', () => {
  it('lets headers of exactly MAX_HEADER_BYTES through, and refuses one byte more with 431', () => {
    expect(refusal(requestOf(MAX_HEADER_BYTES))).toBeNull();
    const refused = refusal(requestOf(MAX_HEADER_BYTES + 1));
    expect(refused).toBeInstanceOf(HttpError);
    expect(refused).toMatchObject({ status: 431, code: -32600, message: `Request Header Fields Too Large: the limit is ${MAX_HEADER_BYTES} bytes` });
  });

  it('counts names and the bytes around each header, not only values: many small headers add up', () => {
    const names = Array.from({ length: 400 }, (_, i) => `x-header-number-${i}`);
    // The values alone are well under the limit; with their names and separators the whole is just over.
    const many = requestOf(MAX_HEADER_BYTES + 1, names);
    const values = [...many.headers.values()].reduce((sum, value) => sum + value.length, 0);
    expect(values).toBeLessThan(MAX_HEADER_BYTES / 2);
    expect(refusal(many)).toMatchObject({ status: 431 });
    expect(refusal(requestOf(MAX_HEADER_BYTES, names))).toBeNull();
  });
});

describe('header limits', () => {
  it('answers 431 to headers over 16 KiB, before authentication', async () => {
    const response = await call('/mcp', { method: 'POST', headers: { 'x-pad': 'x'.repeat(17 * 1024) } });
    expect(response.status).toBe(431);
    expect(await response.json()).toMatchObject({ error: { message: expect.stringMatching(/Header Fields Too Large/) } });
    // Without a credential too: the size is checked before anyone is asked who they are (a 401 otherwise).
    const anonymous = await call('/mcp', { method: 'POST', headers: { authorization: '', 'x-pad': 'x'.repeat(17 * 1024) } });
    expect(anonymous.status).toBe(431);
  });
});
