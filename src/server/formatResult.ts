import { isInputRequiredResult, type CallToolResult } from '@modelcontextprotocol/server';
import { rawResultOf } from '../tools/tool';

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

/** An error as a tool result the model can read (isError: true), never a protocol error. */
export function formatError(error: unknown): CallToolResult {
  const message = error instanceof Error ? error.message : String(error);
  return { isError: true, content: [{ type: 'text', text: `Error: ${message}` }] };
}
