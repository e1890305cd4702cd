/**
 * The two failures a tool's run may end in, defined below the product core because the n8n client
 * (src/n8n) throws them too; tool authors import them from src/tools/tool.ts.
 */

/** A tool's deliberate error answer (bad input it could not have known, a refusal): never retried. */
export class ToolError extends Error {
  override name = 'ToolError';
}

/**
 * A failure that may pass on a later attempt: the service was down, overloaded or slow (n8n's 5xx and
 * 429, a network failure, a time-out). The queue retries such a call where repeating it is harmless:
 * when the failed run had not begun to change anything (ToolContext.beginSideEffect).
 */
export class TransientError extends Error {
  override name = 'TransientError';
}
