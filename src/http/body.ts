import { MAX_BODY_BYTES } from '../config';
import { HttpError } from '../protocol/httpError';
import { ErrorCode } from '../protocol/jsonrpc';

/** Reads a JSON request body: 415 unless it is declared JSON, 413 past `maxBytes` (declared or actual; MAX_BODY_BYTES unless a route takes less). */
export async function readJsonBody(request: Request, maxBytes = MAX_BODY_BYTES): Promise<string> {
  const type = request.headers.get('content-type') ?? '';
  if (!/^application\/json\s*(;|$)/i.test(type)) {
    throw new HttpError(415, ErrorCode.InvalidRequest, 'Unsupported Media Type: Content-Type must be application/json');
  }
  const declared = request.headers.get('content-length');
  if (Number(declared) > maxBytes) throw tooLarge(maxBytes);
  // A declared length bounds the body on the wire, so it is read in one go; otherwise piece by piece.
  const bytes = declared === null ? await readBounded(request.body, maxBytes) : new Uint8Array(await request.arrayBuffer());
  if (bytes.byteLength > maxBytes) throw tooLarge(maxBytes);
  try {
    return new TextDecoder('utf-8', { fatal: true, ignoreBOM: false }).decode(bytes);
  } catch {
    throw new HttpError(400, ErrorCode.ParseError, 'Parse error: body is not valid UTF-8');
  }
}

/** The body's bytes, given up on as soon as they pass `maxBytes`. */
async function readBounded(body: ReadableStream<Uint8Array> | null, maxBytes: number): Promise<Uint8Array> {
  if (!body) return new Uint8Array();
  const reader = body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > maxBytes) {
      await reader.cancel();
      throw tooLarge(maxBytes);
    }
    chunks.push(value);
  }
  const bytes = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return bytes;
}

const tooLarge = (maxBytes: number) => new HttpError(413, ErrorCode.InvalidRequest, `Payload Too Large: the body limit is ${maxBytes} bytes`);
