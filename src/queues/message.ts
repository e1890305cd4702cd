import { z } from 'zod';
import type { Principal } from '../principal';

/** Who asked: the principal the Worker authenticated, whose scopes decide what a tool may show. */
const CallerSchema = z.object({ id: z.string().min(1), subject: z.string().min(1), scopes: z.array(z.string()).readonly(), workspace: z.string().optional() });

const owner = {
  sessionId: z.string().min(1).optional(),
  taskId: z.string().min(1).optional(),
};

const call = {
  callId: z.string().min(1),
  tool: z.string().min(1),
  /** Epoch ms after which the session or task has already answered with a timeout. */
  deadline: z.number().int().positive(),
  progressToken: z.union([z.string(), z.number()]).optional(),
  /** A task's answers to the input requests of its earlier runs (MRTR inside a task). */
  inputResponses: z.record(z.string(), z.unknown()).optional(),
};
const args = z.record(z.string(), z.unknown());

const V2 = z.object({
  v: z.literal(2),
  ...owner,
  ...call,
  arguments: args.optional(),
  /**
   * Instead of `arguments` (and `inputResponses`): they were too large for a message, and the object
   * that owes the answer holds them (src/queues/callStorage.ts); the consumer asks it.
   */
  inputStored: z.literal(true).optional(),
  caller: CallerSchema,
});

/**
 * v1 named the caller by id only. One still in the queue when v2 is deployed runs as a caller with no
 * scopes: a tool never needs scopes to run (they were checked where the call arrived), only to show
 * more, so such a call gets the narrowest answer (no user data), not a wider one.
 */
const V1 = z
  .object({ v: z.literal(1), ...owner, ...call, arguments: args, caller: z.string().min(1) })
  .transform(({ caller, ...rest }): z.output<typeof V2> => ({ ...rest, v: 2, caller: { id: caller, subject: caller, scopes: [] } satisfies Principal }));

/**
 * A queued tool call, as a session's object or a task's object sends it to the "tool-calls" queue.
 * Versioned: a consumer deployed apart from the producer refuses a shape it does not know instead of
 * guessing. It answers to exactly one of a 2025-era session and a 2026-07-28 task.
 */
export const ToolCallMessageSchema = z
  .union([V2, V1])
  .refine((m) => (m.sessionId === undefined) !== (m.taskId === undefined), { message: 'exactly one of sessionId and taskId' })
  .refine((m) => (m.arguments !== undefined) !== (m.inputStored === true), { message: 'exactly one of arguments and inputStored' });

/** What producers send (always the newest version) and the consumer reads (any version, made the newest). */
export type ToolCallMessage = z.output<typeof V2>;

/** The caller as it travels (queue messages, task records): the principal's fields, its workspace with them, nothing else of the request. */
export const callerOf = ({ id, subject, scopes, workspace }: Principal): Principal => ({
  id,
  subject,
  scopes,
  ...(workspace === undefined ? {} : { workspace }),
});
