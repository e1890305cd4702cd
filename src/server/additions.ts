import type { McpServer } from '@modelcontextprotocol/server';
import type { Env } from '../env';
import type { ToolDefinition } from '../tools/tool';

/**
 * What a Worker entry other than src/worker.ts adds to every MCP server it serves: the test entry
 * (test/entry/worker.ts) adds the conformance pack. The production Worker adds nothing, so none of
 * that code is in its bundle (`npm run bundle:check`).
 */
export interface ServerAdditions {
  /** Served beside the deployment's tools, through the same registry and runner (listed, guarded, queued, run as tasks). */
  tools: readonly ToolDefinition[];
  /** Registers more on each server as it is created (resources, prompts, tools on the SDK server itself). */
  install(server: McpServer, env: Env, era: 'sessions' | 'stateless'): void;
}

let additions: ServerAdditions | undefined;

/**
 * Called by an entry module as it loads, before it serves anything. Module state on purpose: the
 * Durable Objects and the queue consumer run in the entry's isolate, so they see it too.
 */
export function addToServer(added: ServerAdditions): void {
  additions = added;
}

/** What the entry added, if anything. */
export function serverAdditions(): ServerAdditions | undefined {
  return additions;
}
