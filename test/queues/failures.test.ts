import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { afterFailure, interruptedChange, invalidArguments } from '../../src/queues/failures';
import { defineTool, ToolError, TransientError, type ToolDefinition } from '../../src/tools/tool';

const tool = (checkWith?: string): ToolDefinition =>
  defineTool({
    name: 'create_thing',
    title: 'Create a thing',
    description: 'Changes something outside.',
    input: z.object({ name: z.string() }),
    annotations: { readOnlyHint: false },
    execution: 'queued',
    ...(checkWith ? { checkWith } : {}),
    run: () => 'made',
  });
const textOf = (outcome: ReturnType<typeof interruptedChange>) => {
  expect(outcome).toMatchObject({ kind: 'result', result: { isError: true } });
  return (outcome as { result: { content: { text: string }[] } }).result.content[0]!.text;
};

describe('what a queued call’s failure comes to', () => {
  it('retries a failure that may pass, of a run that had changed nothing', () => {
    expect(afterFailure(tool(), new TransientError('n8n is down'), false)).toEqual({ retry: true });
  });

  it('answers at once, without repeating it, a failure that may pass after the run began its change, naming where to check', () => {
    const after = afterFailure(tool('list_things'), new TransientError('n8n is down'), true);
    expect(after.retry).toBe(false);
    expect(textOf((after as { outcome: ReturnType<typeof interruptedChange> }).outcome)).toBe(
      'Error: n8n is down. create_thing had already sent its change, so whether it was made is unknown; it was not repeated. ' +
        'Check with list_things whether it was made before calling create_thing again.',
    );
  });

  it('answers any other failure at once: a fault fails the same way every time, whether or not a change began', () => {
    for (const began of [false, true]) {
      for (const [error, message] of [
        [new TypeError("Cannot read properties of null (reading 'field')"), "Cannot read properties of null (reading 'field')"],
        [new ToolError('not allowed'), 'not allowed'],
        ['a thrown string', 'a thrown string'],
      ] as const) {
        const after = afterFailure(tool(), error, began);
        expect(after.retry, message).toBe(false);
        expect(textOf((after as { outcome: ReturnType<typeof interruptedChange> }).outcome)).toBe(
          `Error: create_thing failed: ${message}. It was not retried: this fault would happen again.`,
        );
      }
    }
  });

  it('answers a later attempt of a call whose earlier run began its change "outcome unknown", pointing at the tool that shows it', () => {
    expect(textOf(interruptedChange(tool('list_things')))).toBe(
      'Error: An earlier attempt of this create_thing call stopped after it had begun its change, so whether the change was made is unknown; ' +
        'it was not repeated. Check with list_things whether it was made before calling create_thing again.',
    );
    // A tool that names none points at the kind of tool that would.
    expect(textOf(interruptedChange(tool()))).toMatch(/Check with the matching list or get tool whether it was made before calling create_thing again\.$/);
  });

  it('answers arguments the tool does not take naming what is wrong with them', () => {
    const parsed = tool().input.safeParse({ name: 7 });
    expect(parsed.success).toBe(false);
    expect(textOf(invalidArguments(tool(), parsed.error!))).toMatch(/^Error: Invalid arguments for create_thing: .*expected string.*\n.*→ at name$/s);
  });
});
