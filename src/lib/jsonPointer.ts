/**
 * JSON Pointers (RFC 6901), the paths edit_workflow's setParameter takes and its answers and diffs give:
 * `/a/0/b`, with `~1` for a `/` inside a name and `~0` for a `~`.
 */
import { own } from './ownKeys';

/** A name as one token of a pointer. */
export const escapeToken = (name: string): string => name.replaceAll('~', '~0').replaceAll('/', '~1');

/** The names a pointer goes through, unescaped (`/a~1b/0` → `a/b`, `0`); the pointer must start with `/`. */
export const pointerTokens = (pointer: string): string[] =>
  pointer
    .slice(1)
    .split('/')
    .map((t) => t.replaceAll('~1', '/').replaceAll('~0', '~'));

/** The value a pointer names inside `value` (own members and list entries only), or undefined. "" is the value itself. */
export function valueAt(value: unknown, pointer: string): unknown {
  if (pointer === '') return value;
  let here = value;
  for (const token of pointerTokens(pointer)) {
    if (Array.isArray(here)) here = /^(0|[1-9]\d*)$/.test(token) ? here[Number(token)] : undefined;
    else if (typeof here === 'object' && here !== null) here = own(here, token);
    else return undefined;
  }
  return here;
}
