import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ANSWER_BUDGET_BYTES } from '../../src/config';
import { answerBytes } from '../../src/protocol/answerBytes';
import { formatError, formatToolResult, toolResult } from '../../src/server/formatResult';
import { defineTool, rawResult, type ToolDefinition } from '../../src/tools/tool';

describe('MessageFormatter', () => {
  it('formats strings as text and values as compact JSON', () => {
    expect(formatToolResult('hello')).toEqual({ content: [{ type: 'text', text: 'hello' }] });
    expect(formatToolResult({ a: [1, 2] })).toEqual({ content: [{ type: 'text', text: '{"a":[1,2]}' }] });
    expect(formatToolResult(undefined)).toEqual({ content: [{ type: 'text', text: 'null' }] });
  });

  it('adds structuredContent for objects only when asked', () => {
    expect(formatToolResult({ a: 1 }, { structured: true })).toEqual({
      content: [{ type: 'text', text: '{"a":1}' }],
      structuredContent: { a: 1 },
    });
    expect(formatToolResult([1], { structured: true })).not.toHaveProperty('structuredContent');
  });

  it('passes raw results through and leaves look-alike data alone', () => {
    const raw = { content: [{ type: 'image' as const, data: 'AA==', mimeType: 'image/png' }] };
    expect(formatToolResult(rawResult(raw))).toBe(raw);
    const lookalike = { content: [{ type: 'text', text: 'data, not a result' }] };
    expect(formatToolResult(lookalike).content[0]).toEqual({ type: 'text', text: JSON.stringify(lookalike) });
  });

  it('formats errors as isError results', () => {
    expect(formatError(new Error('City not found'))).toEqual({
      isError: true,
      content: [{ type: 'text', text: 'Error: City not found' }],
    });
    expect(formatError('plain')).toMatchObject({ isError: true, content: [{ text: 'Error: plain' }] });
  });
});

const probe = (overrides: Partial<ToolDefinition> = {}): ToolDefinition =>
  defineTool({
    name: 'budget_probe',
    title: 'Budget probe',
    description: 'A tool for the answer budget tests.',
    input: z.object({}),
    annotations: { readOnlyHint: true },
    execution: 'direct',
    run: () => null,
    ...overrides,
  });

/** A value whose answer is over the budget (ASCII, one long field), and its size as the answers name it. */
const over = () => ({ id: 'w1', name: 'Big', active: false, pad: 'x'.repeat(ANSWER_BUDGET_BYTES) });
const overSize = answerBytes(formatToolResult(over())).toLocaleString('en-US');

describe('the answer budget', () => {
  it('leaves every answer within the budget as it is', () => {
    const value = { id: 'w1', pad: 'x'.repeat(ANSWER_BUDGET_BYTES - 100) };
    const result = toolResult(probe(), value);
    expect(result).toEqual(formatToolResult(value));
    expect(answerBytes(result)).toBeLessThanOrEqual(ANSWER_BUDGET_BYTES);
  });

  it('answers a read past the budget with an error naming its size, the budget and how to read the rest, keeping its short fields', () => {
    const result = toolResult(probe({ tooLarge: { readTheRest: 'Read it a node at a time.' } }), over());
    expect(result.isError).toBe(true);
    const answer = JSON.parse((result.content[0] as { text: string }).text);
    expect(answer).toEqual({ id: 'w1', name: 'Big', active: false, answerTooLarge: expect.any(String) });
    expect(answer.answerTooLarge).toBe(
      `The answer is ${overSize} bytes, more than the ${ANSWER_BUDGET_BYTES.toLocaleString('en-US')} one answer may carry here, so it is not sent whole. Read it a node at a time.`,
    );
    expect(answerBytes(result)).toBeLessThan(ANSWER_BUDGET_BYTES);
  });

  it('keeps the first 50 short fields of an answer made of many: the answer replacing it stays within the budget', () => {
    const many = Object.fromEntries(Array.from({ length: 20_000 }, (_, i) => [`field${i}`, 'v'.repeat(100)]));
    const cut = toolResult(probe(), many);
    expect(Object.keys(JSON.parse((cut.content[0] as { text: string }).text))).toEqual([...Object.keys(many).slice(0, 50), 'answerTooLarge']);
  });

  it('says a change succeeded when only its answer is past the budget: never an error', () => {
    const changes = probe({ annotations: { readOnlyHint: false } });
    const result = toolResult(changes, over());
    expect(result.isError).toBeUndefined();
    expect(JSON.parse((result.content[0] as { text: string }).text)).toMatchObject({
      id: 'w1',
      answerTooLarge: expect.stringMatching(/^budget_probe succeeded: do not call it again for this\. Only its answer is too large\. The answer is/),
    });
    // An error it answered stays an error.
    expect(toolResult(changes, rawResult({ isError: true, content: [{ type: 'text', text: 'x'.repeat(ANSWER_BUDGET_BYTES) }] })).isError).toBe(true);
  });

  it("answers a tool's own smaller answer when it fits, and the short fields when it does not", () => {
    const seen: string[] = [];
    const smaller = (fits: boolean) =>
      probe({
        tooLarge: {
          readTheRest: 'Read it in parts.',
          smaller: (value, said) => (
            seen.push(said),
            { id: (value as { id: string }).id, note: said, ...(fits ? {} : { pad: 'y'.repeat(ANSWER_BUDGET_BYTES) }) }
          ),
        },
      });
    const own = toolResult(smaller(true), over());
    expect(own.isError).toBeUndefined();
    expect(JSON.parse((own.content[0] as { text: string }).text)).toEqual({ id: 'w1', note: seen[0] });
    expect(seen[0]).toMatch(new RegExp(`^The answer is ${overSize} bytes`));
    expect(JSON.parse((toolResult(smaller(false), over()).content[0] as { text: string }).text)).toMatchObject({
      answerTooLarge: expect.stringMatching(/Read it in parts\.$/),
    });
  });

  it('cuts an error message past the budget', () => {
    const result = formatError(new Error('\u0001'.repeat(ANSWER_BUDGET_BYTES)));
    expect(answerBytes(result)).toBeLessThanOrEqual(ANSWER_BUDGET_BYTES);
    expect((result.content[0] as { text: string }).text).toMatch(new RegExp(`… \\(${ANSWER_BUDGET_BYTES.toLocaleString('en-US')} characters, cut\\)$`));
  });
});
