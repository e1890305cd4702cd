import { HttpError } from './httpError';
import { ErrorCode, type RequestId } from './jsonrpc';

/**
 * The deepest nesting of objects and arrays a caller's JSON may have. An MCP message carrying an n8n
 * workflow nests about 20 levels (envelope, arguments, workflow, nodes, then parameters 10–15 deep);
 * this leaves room above the workflow tools' own limit (150 levels within a workflow,
 * src/workflows/limits.ts), whose answer names the value that is too deep. Past a few thousand levels
 * the structured clone of an RPC to a session object overflows the stack (the session call failed, and
 * the client was told to retry the same body forever); zod, the SDK and the workflow code also
 * recurse. None of them is handed more than this.
 */
export const MAX_JSON_DEPTH = 200;

const [QUOTE, BACKSLASH, OPEN_BRACKET, CLOSE_BRACKET, OPEN_BRACE, CLOSE_BRACE] = [...'"\\[]{}'].map((c) => c.charCodeAt(0));

/**
 * Whether JSON text nests objects and arrays deeper than `limit`: one pass over the characters, no
 * recursion, brackets inside strings not counted. Exact for valid JSON; invalid JSON is JSON.parse's
 * to refuse.
 */
export function nestsDeeperThan(text: string, limit: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === BACKSLASH) i++;
      else if (c === QUOTE) inString = false;
    } else if (c === QUOTE) {
      inString = true;
    } else if (c === OPEN_BRACKET || c === OPEN_BRACE) {
      if (++depth > limit) return true;
    } else if (c === CLOSE_BRACKET || c === CLOSE_BRACE) {
      depth--;
    }
  }
  return false;
}

/** 400 (-32600) naming the limit when caller JSON nests deeper than MAX_JSON_DEPTH; checked before it is parsed. */
export function assertJsonDepth(text: string, what: string, id: RequestId | null = null): void {
  if (!nestsDeeperThan(text, MAX_JSON_DEPTH)) return;
  throw new HttpError(
    400,
    ErrorCode.InvalidRequest,
    `Invalid Request: ${what} nests objects and arrays deeper than ${MAX_JSON_DEPTH} levels, the limit`,
    {},
    id,
  );
}
