import type { ToolAnnotations } from '@modelcontextprotocol/server';
import { z } from 'zod';
import { N8nClient, type N8nConnection } from '../../n8n/client';
import { callerWorkspace, connectionIn } from '../../workspaces/connectionFor';
import { CONNECTION_NAME } from '../../workspaces/workspaces';
import { defineTool, type ToolContext, type ToolDefinition } from '../tool';
import { nodeGate } from './nodeGate';
import { asRun } from './turns';

/** What MCP's annotations should say of each kind of n8n call (all of them reach an outside service). */
export const READS: ToolAnnotations = { readOnlyHint: true, idempotentHint: true, openWorldHint: true };
export const CREATES: ToolAnnotations = { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true };
/** Replaces what is there (update, set tags): the same call twice leaves the same state. */
export const REPLACES: ToolAnnotations = { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: true };
/** Deleting twice leaves the same state (the second answers not found). */
export const DELETES: ToolAnnotations = { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: true };
/** Activation and the like: changes state, harmlessly repeatable. */
export const TOGGLES: ToolAnnotations = { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: true };

/** The paging n8n's list endpoints offer. */
export const paging = {
  limit: z.number().int().min(1).max(250).optional().describe('Items per page (n8n default 100, at most 250)'),
  cursor: z.string().optional().describe('The nextCursor of the previous page'),
};

/** An n8n tool's context: the call's, and the n8n connection it acts on (its history is that connection's). */
export interface N8nToolContext extends ToolContext {
  connection: N8nConnection;
}

interface N8nToolDefinition<In extends z.ZodObject> extends Omit<ToolDefinition<In>, 'execution' | 'run'> {
  run(args: z.output<In>, n8n: N8nClient, ctx: N8nToolContext): unknown;
}

/** The argument every n8n tool takes where workspaces are on (CONNECTION_KEYS set): which of the workspace's n8n connections. */
export const instanceArgument = {
  instance: z
    .string()
    .regex(CONNECTION_NAME)
    .optional()
    .describe("Which of your n8n connections to act on (list_instances names them); default: your workspace's default one"),
};

/**
 * An n8n management tool: queued by default (it calls an external service), given a client for the
 * caller's n8n connection (the one its `instance` names, else its default: src/workspaces/connectionFor.ts)
 * with the call's deadline as its signal and the caller's node gate; a tool that is not read-only says
 * so before its first request that changes n8n (ToolContext.beginSideEffect); a call that runs long is
 * one of its caller's runs, refused past RUNS_PER_CALLER (asRun).
 */
export function n8nTool<In extends z.ZodObject>(tool: N8nToolDefinition<In>): ToolDefinition {
  return defineTool<In>({
    ...tool,
    execution: 'queued',
    async run(args, toolCtx) {
      const { instance } = args as { instance?: string };
      const workspace = await callerWorkspace(toolCtx.env, toolCtx.caller);
      const ctx: N8nToolContext = { ...toolCtx, connection: await connectionIn(toolCtx.env, workspace, instance) };
      const client = new N8nClient(
        ctx.connection,
        nodeGate(ctx.caller, ctx.env, workspace),
        ctx.signal,
        tool.annotations.readOnlyHint ? undefined : ctx.beginSideEffect,
      );
      const run = async () => tool.run(args, client, ctx);
      if (!tool.runsLong?.(args)) return run();
      const id = (args as { id?: unknown }).id;
      return asRun(ctx, `${tool.name}${typeof id === 'string' ? ` on workflow ${id}` : ''}`, run);
    },
  });
}

/** A list page as n8n returns it. */
export interface Page<T> {
  data: T[];
  nextCursor?: string | null;
}

/** A page for the agent: the items under their own name, and the cursor only when there is a next page. */
export function page<T, U>(name: string, { data, nextCursor }: Page<T>, map: (item: T) => U): Record<string, unknown> {
  return { [name]: data.map(map), ...(nextCursor ? { nextCursor } : {}) };
}
