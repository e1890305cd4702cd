import { z } from 'zod';

/**
 * A queued tool call, as a session's object or a task's object sends it to the "tool-calls" queue.
 * Versioned: a consumer deployed apart from the producer refuses a shape it does not know instead of
 * guessing. It answers to exactly one of a 2025-era session and a 2026-07-28 task.
 */
export const ToolCallMessageSchema = z
  .object({
    v: z.literal(1),
    sessionId: z.string().min(1).optional(),
    taskId: z.string().min(1).optional(),
    callId: z.string().min(1),
    tool: z.string().min(1),
    arguments: z.record(z.string(), z.unknown()),
    /** Who asked (the principal's id). */
    caller: z.string().min(1),
    /** Epoch ms after which the session or task has already answered with a timeout. */
    deadline: z.number().int().positive(),
    progressToken: z.union([z.string(), z.number()]).optional(),
    /** A task's answers to the input requests of its earlier runs (MRTR inside a task). */
    inputResponses: z.record(z.string(), z.unknown()).optional(),
  })
  .refine((m) => (m.sessionId === undefined) !== (m.taskId === undefined), { message: 'exactly one of sessionId and taskId' });

export type ToolCallMessage = z.infer<typeof ToolCallMessageSchema>;
