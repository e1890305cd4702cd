import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { CfWorkerJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/cfworker';
import type { Principal } from '../auth/principal';
import { allows } from '../auth/scopes';
import { guardTools } from '../auth/toolAccess';
import { installCatalogResources } from '../catalog/resources';
import { SERVER_NAME, SERVER_TITLE, SERVER_VERSION } from '../config';
import type { Env } from '../env';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { toolContext, type Extra, type LogFilter } from '../execution/runTool';
import type { ToolContext, ToolDefinition } from '../tools/tool';
import { installConformancePack } from '../tools/conformance/pack';
import { toolsFor } from '../tools/registry';

const INSTRUCTIONS =
  'Tools for building n8n workflows: look up the nodes that exist and what they take, and manage an n8n instance.';

/** Runs a validated tools/call: directly, or through the queue (the session object decides). */
export type ToolExecutor = (tool: ToolDefinition, args: unknown, extra: Extra, context: ToolContext) => Promise<CallToolResult>;

/**
 * One SDK server per session: the SDK answers initialize, ping, tools/list, tools/call validation and
 * logging; `caller` (who sent the request being served) decides which tools it lists and runs.
 */
export function createMcpServer(env: Env, sessionId: string, execute: ToolExecutor, caller: () => Principal): McpServer {
  const server = new McpServer(
    { name: SERVER_NAME, version: SERVER_VERSION, title: SERVER_TITLE },
    {
      capabilities: { logging: {} },
      instructions: INSTRUCTIONS,
      // Ajv compiles schemas with `new Function`, which Workers forbid.
      jsonSchemaValidator: new CfWorkerJsonSchemaValidator(),
    },
  );
  // The SDK keeps each session's logging/setLevel choice but only applies it to its own sendLoggingMessage.
  const isIgnored: LogFilter = (level, id) =>
    (server.server as unknown as { isMessageIgnored(level: string, id?: string): boolean }).isMessageIgnored(level, id);
  const tools = toolsFor(env);
  for (const tool of tools) {
    server.registerTool(
      tool.name,
      {
        title: tool.title,
        description: tool.description,
        inputSchema: tool.input,
        ...(tool.output ? { outputSchema: tool.output } : {}),
        annotations: tool.annotations,
      },
      (args: unknown, extra) => execute(tool, args, extra, toolContext(env, sessionId, extra, isIgnored)),
    );
  }
  guardTools(server, env, tools, caller);
  // The node-spec resources are the knowledge tools' catalog: the same scope.
  if (allows(caller().scopes, 'nodes:read')) installCatalogResources(server, env);
  if (env.CONFORMANCE_PACK === 'on') installConformancePack(server);
  return server;
}
