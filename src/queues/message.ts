import { z } from 'zod';

/**
 * A queued tool call, as the session object sends it to the "tool-calls" queue. Versioned: a consumer
 * deployed apart from the producer refuses a shape it does not know instead of guessing.
 */
export const ToolCallMessageSchema = z.object({
  v: z.literal(1),
  sessionId: z.string().min(1),
  callId: z.string().min(1),
  tool: z.string().min(1),
  arguments: z.record(z.string(), z.unknown()),
  /** Who asked; filled by access control (issue on auth) — "anonymous" until then. */
  caller: z.string().min(1),
  /** Epoch ms after which the session has already answered with a timeout. */
  deadline: z.number().int().positive(),
  progressToken: z.union([z.string(), z.number()]).optional(),
});

export type ToolCallMessage = z.infer<typeof ToolCallMessageSchema>;
