import type { CallToolResult, InputRequiredResult, ToolAnnotations } from '@modelcontextprotocol/server';
import type { z } from 'zod';
import type { Principal } from '../principal';
import type { Scope } from '../auth/scopes';
import type { Env } from '../env';

/** Where a tool runs: inside the session object, or through the tool-call queue. */
export type ExecutionPolicy = 'direct' | 'queued';

export interface ToolContext {
  env: Env;
  /** This call's id, unique: what the call holds while it runs (a workflow's turn, a run's slot) is held under it. */
  callId: string;
  /** Who called, as the Worker authenticated them: what a tool may show depends on their scopes too. */
  caller: Principal;
  /** The 2025-era session the call belongs to; a 2026-07-28 request has none. */
  sessionId?: string;
  /** Aborts when the call is cancelled; a queued or 2026-07-28 call's also at its deadline. */
  signal: AbortSignal;
  /** Epoch ms by which the call must be answered: clean-up a tool owes (test_workflow's) has to fit before it. */
  deadline: number;
  /**
   * The client's answers to input requests this call made before (MRTR): on a 2026-07-28 retry, or a
   * task's next run. A tool asks with `return inputRequired({ inputRequests })`.
   */
  inputResponses?: Record<string, unknown>;
  /** Sends notifications/progress when the client asked for it (a progressToken); otherwise does nothing. */
  progress(progress: number, total?: number, message?: string): Promise<void>;
  /** Sends a notifications/message log entry, subject to the client's logging/setLevel. */
  log(level: 'debug' | 'info' | 'notice' | 'warning' | 'error', data: unknown): Promise<void>;
  /**
   * Call before the first request that changes something outside (creates, updates, deletes, runs):
   * a queued call records it with the object that owes its answer, so that a later attempt (the queue's
   * retry after a failure, its redelivery after a crash) answers "outcome unknown" instead of making the
   * change twice. Throws a ToolError, and nothing should be changed, when the call was answered
   * meanwhile (cancelled, timed out). Direct calls are never repeated: it does nothing there.
   */
  beginSideEffect(): Promise<void>;
}

export interface ToolDefinition<In extends z.ZodObject = z.ZodObject> {
  /** `^[a-zA-Z0-9_-]{1,64}$`: what Claude and n8n accept. */
  name: string;
  title: string;
  description: string;
  input: In;
  /** When set, results carry `structuredContent` matching it, plus the same JSON as text. */
  output?: z.ZodObject;
  annotations: ToolAnnotations;
  execution: ExecutionPolicy;
  /**
   * The workflow view (src/view) can draw this tool's call: hosts that render MCP Apps show it beside
   * the answer (src/server/view.ts). The answer itself is the same for every client.
   */
  view?: true;
  /** What a caller needs to see and call it (src/auth/scopes.ts); unset: any authenticated caller. */
  scope?: Scope;
  /** Scopes needed besides `scope` (test_workflow runs a workflow and reads its execution). */
  alsoNeeds?: readonly Scope[];
  /** A tighter per-caller rate limit for this tool than the Worker's per-request one. */
  rateLimiter?: (env: Env) => RateLimit | undefined;
  /**
   * A tool that changes something outside: the tool that shows whether a call of it whose outcome is
   * unknown (the service failed, or the run stopped, after the change was sent) made its change.
   */
  checkWith?: string;
  /**
   * An answer over the answer budget (ANSWER_BUDGET_BYTES, src/config.ts) is replaced
   * (src/server/formatResult.ts): `readTheRest` says how to read it in parts, in the answer that
   * replaces it; `smaller`, given what the tool returned and the sentence naming its size and the
   * budget, makes a smaller answer of the tool's own (a workflow's nodes summarised), used when it fits.
   */
  tooLarge?: { readTheRest: string; smaller?(value: unknown, said: string): unknown };
  /** Deadline of a queued call; default from TOOL_TIMEOUT_SECONDS, else 120 s. */
  timeoutMs?: number;
  /**
   * Whether a call with these arguments (undefined: not at hand) runs a workflow in n8n and waits for it,
   * seconds to minutes: it is consumed from a queue of its own, so no short call waits behind it
   * (src/queues/consumer.ts), and counted among its caller's runs (RUNS_PER_CALLER, src/tools/n8n/turns.ts).
   */
  runsLong?: (args: Record<string, unknown> | undefined) => boolean;
  /**
   * A queued tool runs as a task for a 2026-07-28 client that declares the tasks extension, and where
   * its request arrived for any other. "required": only as a task; other clients get -32021.
   */
  taskSupport?: 'optional' | 'required';
  /**
   * What the call needs from the client before it can be queued at all: an input request to answer
   * in a synchronous round first (MRTR), or undefined when nothing is missing. Checked where the
   * request arrives, before a task is made.
   */
  inputFirst?(args: z.output<In>, inputResponses: Record<string, unknown>): InputRequiredResult | undefined;
  /**
   * Returns data (formatted by MessageFormatter) or a `rawResult(...)`. Throw a ToolError for an answer
   * the caller should see as an error, a TransientError for a failure that may pass (a queued call
   * retries it unless it had begun its side effect); anything else is a fault, answered at once.
   */
  run(args: z.output<In>, ctx: ToolContext): unknown;
}

/**
 * A refusal an agent acts on field by field (what failed, the findings): an isError result whose text
 * is JSON, where a ToolError's is a sentence.
 */
export const refusal = (details: Record<string, unknown>) => rawResult({ isError: true, content: [{ type: 'text', text: JSON.stringify(details) }] });

export { ToolError, TransientError } from '../lib/errors';

const TOOL_NAME = /^[a-zA-Z0-9_-]{1,64}$/;

/** Checks a definition once, when its module loads, so a bad name never reaches a client. */
export function defineTool<In extends z.ZodObject>(tool: ToolDefinition<In>): ToolDefinition {
  if (!TOOL_NAME.test(tool.name)) throw new Error(`Invalid tool name "${tool.name}": must match ${TOOL_NAME}`);
  // Past the answer budget an answer loses its structuredContent (src/server/formatResult.ts): a change's
  // answer, which must still say it succeeded, would then fail the SDK's check of the output schema.
  if (tool.output && tool.annotations.readOnlyHint !== true)
    throw new Error(`Tool "${tool.name}" declares an output schema, so it must be read-only (readOnlyHint)`);
  return tool as unknown as ToolDefinition;
}

const RAW = Symbol('rawToolResult');
type RawResult = { [RAW]: CallToolResult };

/** Lets a tool return a full MCP result (images, several content blocks) that is passed on unchanged. */
export const rawResult = (result: CallToolResult): RawResult => ({ [RAW]: result });

/** The full MCP result a tool returned with `rawResult`, if it did. */
export const rawResultOf = (value: unknown): CallToolResult | undefined =>
  typeof value === 'object' && value !== null && RAW in value ? (value as RawResult)[RAW] : undefined;
