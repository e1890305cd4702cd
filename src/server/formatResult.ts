import { isInputRequiredResult, type CallToolResult } from '@modelcontextprotocol/server';
import { ANSWER_BUDGET_BYTES } from '../config';
import { answerBytes } from '../protocol/answerBytes';
import { rawResultOf, type ToolDefinition } from '../tools/tool';

/**
 * Turns a tool's return value into an MCP tool result (seed 001's MessageFormatter).
 * Strings become text; anything else becomes compact JSON text. With `structured`, an object result
 * is also returned as `structuredContent`, as MCP asks of tools that declare an output schema.
 */
export function formatToolResult(value: unknown, options: { structured?: boolean } = {}): CallToolResult {
  const raw = rawResultOf(value);
  if (raw) return raw;
  // A request for the client's input (MRTR) goes out as it is; the SDK and the task layer know its shape.
  if (isInputRequiredResult(value)) return value as unknown as CallToolResult;
  const text = typeof value === 'string' ? value : (JSON.stringify(value) ?? 'null');
  const result: CallToolResult = { content: [{ type: 'text', text }] };
  if (options.structured && typeof value === 'object' && value !== null && !Array.isArray(value)) {
    result.structuredContent = value as Record<string, unknown>;
  }
  return result;
}

/** The sentence an answer over the budget gets: its size, the budget. */
const overBudget = (bytes: number): string =>
  `The answer is ${bytes.toLocaleString('en-US')} bytes, more than the ${ANSWER_BUDGET_BYTES.toLocaleString('en-US')} one answer may carry here, so it is not sent whole.`;

const READ_LESS = 'Ask for less at a time: a smaller limit, fewer names, one part of it.';

/** Fields of an answer kept when the rest is too large: its ids, names, states, counts (the first 50: well within the budget). */
const shortFields = (value: unknown): Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value) && rawResultOf(value) === undefined
    ? Object.fromEntries(
        Object.entries(value)
          .filter(([, v]) => v === null || typeof v === 'number' || typeof v === 'boolean' || (typeof v === 'string' && v.length <= 200))
          .slice(0, 50),
      )
    : {};

/**
 * A tool's result as the client gets it, never over ANSWER_BUDGET_BYTES (src/config.ts): every result
 * passes here (invokeTool), so none reaches a Durable Object or the client whole when it is too large
 * to be stored. One over the budget becomes the tool's own smaller answer (`tooLarge.smaller`), when it
 * fits, or else the answer's short fields with a sentence naming its size, the budget and how to read
 * the rest. A tool that changed something and answers too much still says it succeeded (a read that
 * could not be answered is an error): an agent must not take a made change for one that was not.
 */
export function toolResult(tool: ToolDefinition, value: unknown): CallToolResult {
  const structured = tool.output !== undefined;
  const result = formatToolResult(value, { structured });
  const bytes = answerBytes(result);
  if (bytes <= ANSWER_BUDGET_BYTES) return result;
  const said = overBudget(bytes);
  const smaller = result.isError ? undefined : tool.tooLarge?.smaller?.(value, said);
  if (smaller !== undefined) {
    const own = formatToolResult(smaller, { structured });
    if (answerBytes(own) <= ANSWER_BUDGET_BYTES) return own;
  }
  const succeeded = result.isError !== true && tool.annotations.readOnlyHint !== true;
  const answerTooLarge = [
    succeeded ? `${tool.name} succeeded: do not call it again for this. Only its answer is too large.` : '',
    said,
    tool.tooLarge?.readTheRest ?? READ_LESS,
  ]
    .filter(Boolean)
    .join(' ');
  const text = JSON.stringify({ ...shortFields(value), answerTooLarge });
  return { ...(succeeded ? {} : { isError: true }), content: [{ type: 'text', text }] };
}

/** Characters of an error message an answer keeps: six bytes each at worst (a control character is sent as \u0001). */
const ERROR_CHARS = Math.floor((ANSWER_BUDGET_BYTES - 1_000) / 6);

/** An error as a tool result the model can read (isError: true), never a protocol error; a message past the budget is cut. */
export function formatError(error: unknown): CallToolResult {
  const message = error instanceof Error ? error.message : String(error);
  const text = message.length > ERROR_CHARS ? `${message.slice(0, ERROR_CHARS)}… (${message.length.toLocaleString('en-US')} characters, cut)` : message;
  return { isError: true, content: [{ type: 'text', text: `Error: ${text}` }] };
}
