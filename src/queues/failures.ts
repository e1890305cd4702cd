import { z } from 'zod';
import { formatError } from '../server/formatResult';
import type { TaskOutcome } from '../tasks/task';
import { TransientError, type ToolDefinition } from '../tools/tool';

/**
 * What a queued call's failure comes to. Repeating a call is only right when it cannot do harm and
 * may help: a failure that may pass (TransientError: n8n down, overloaded, slow) of a run that had not
 * begun to change anything is retried (the queue's backoff, then its dead-letter answer). Everything
 * else is answered at once: a fault (a bug, an argument the tool cannot take) fails the same way every
 * time, and a run that had begun its change may have made it — doing it again could create a second
 * workflow or run one twice.
 */
export type AfterFailure = { retry: true } | { retry: false; outcome: TaskOutcome };

const answer = (message: string): TaskOutcome => ({ kind: 'result', result: formatError(new Error(message)) });

const checkFirst = (tool: ToolDefinition) =>
  `it was not repeated. Check with ${tool.checkWith ?? 'the matching list or get tool'} whether it was made before calling ${tool.name} again.`;

export function afterFailure(tool: ToolDefinition, error: unknown, sideEffectBegan: boolean): AfterFailure {
  const message = error instanceof Error ? error.message : String(error);
  if (error instanceof TransientError) {
    if (!sideEffectBegan) return { retry: true };
    return { retry: false, outcome: answer(`${message}. ${tool.name} had already sent its change, so whether it was made is unknown; ${checkFirst(tool)}`) };
  }
  return { retry: false, outcome: answer(`${tool.name} failed: ${message}. It was not retried: this fault would happen again.`) };
}

/** A later attempt of a call whose earlier run began its change and then stopped (its consumer died, or its answer was lost). */
export const interruptedChange = (tool: ToolDefinition): TaskOutcome =>
  answer(`An earlier attempt of this ${tool.name} call stopped after it had begun its change, so whether the change was made is unknown; ${checkFirst(tool)}`);

/** Arguments in a message that the tool does not take (a producer of another version): the same every time. */
export const invalidArguments = (tool: ToolDefinition, error: z.ZodError): TaskOutcome =>
  answer(`Invalid arguments for ${tool.name}: ${z.prettifyError(error)}`);
