import { MAX_HEADER_BYTES } from '../config';
import { HttpError } from '../protocol/httpError';
import { ErrorCode } from '../protocol/jsonrpc';

/** 431 when the request's headers, names and values together, exceed MAX_HEADER_BYTES. */
export function assertHeaderSize(request: Request): void {
  let size = 0;
  for (const [name, value] of request.headers) size += name.length + value.length + 4;
  if (size > MAX_HEADER_BYTES) {
    throw new HttpError(431, ErrorCode.InvalidRequest, `Request Header Fields Too Large: the limit is ${MAX_HEADER_BYTES} bytes`);
  }
}
