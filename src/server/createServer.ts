import { McpServer, type CallToolResult } from '@modelcontextprotocol/server';
import { CfWorkerJsonSchemaValidator } from '@modelcontextprotocol/server/validators/cf-worker';
import { guardResources } from './resourceAccess';
import { guardTools } from './toolAccess';
import { installCatalogResources, NODE_SPEC_RESOURCES } from '../catalog/resources';
import { SERVER_NAME, SERVER_TITLE, SERVER_VERSION } from '../config';
import type { Env } from '../env';
import { callRequestOf, type CallRequest } from './runTool';
import type { ToolDefinition } from '../tools/tool';
import { convertedOnce } from './convertedOnce';
import { requestStateCodec } from './requestState';
import { toolsFor } from './registry';
import { serverAdditions } from './additions';
import { installView } from './view';

/**
 * A deployment's tools, resources and prompts never change while it runs (configuration decides them),
 * so no list is announced as changing: the SDK would otherwise advertise listChanged, and 2026-07-28
 * clients would hold subscriptions/listen streams waiting for notifications that never come.
 */
function declareStaticLists(server: McpServer): void {
  const capabilities = server.server.getCapabilities();
  for (const list of ['tools', 'resources', 'prompts'] as const) {
    if (capabilities[list]) server.server.registerCapabilities({ [list]: { ...capabilities[list], listChanged: false } });
  }
}

/**
 * What clients show the model before any tool: the few calls a workflow takes, in order, with the tools
 * this deployment has (without an n8n, validate_workflow checks a workflow before it is imported).
 */
function instructionsFor(tools: readonly ToolDefinition[]): string {
  const look =
    'search_nodes finds the node types; get_node_details describes the ones you will use, several in one call (parameters, ' +
    'an example, what each puts out and what it does with no items); get_guide says how expressions are written' +
    (tools.some((t) => t.name === 'search_templates')
      ? `; search_templates finds a published workflow to start from, get_template gives it whole${tools.some((t) => t.name === 'create_workflow') ? ', ready for create_workflow' : ''}`
      : '');
  if (!tools.some((t) => t.name === 'create_workflow'))
    return `Tools for building n8n workflows. To build one in few calls: ${look}; validate_workflow checks the workflow before it is imported into n8n.`;
  return (
    `Tools for building n8n workflows and managing an n8n instance. To build one in few calls: ${look}; create_workflow ` +
    'with activate: true validates, saves and switches it on in one call (refused with the findings to fix, so no ' +
    'validate_workflow is needed first); test_workflow with cases runs several payloads and says what each answer held; ' +
    'edit_workflow fixes it in steps.' +
    // Where workspaces are on, each n8n tool takes `instance`: an agent with several n8n connections must know their names.
    (tools.some((t) => t.name === 'create_workflow' && 'instance' in t.input.shape)
      ? ' Your n8n instances: list_instances names them; each n8n tool acts on the default one unless its instance argument names another.'
      : '')
  );
}

/** Runs a validated tools/call: directly, through the queue, or as a task (the caller of createMcpServer decides). */
export type ToolExecutor = (tool: ToolDefinition, args: unknown, call: CallRequest) => Promise<CallToolResult>;

export interface ServerSetup {
  execute: ToolExecutor;
  /** A 2025-era session's server, or a 2026-07-28 request's. */
  era: 'sessions' | 'stateless';
  /** What a way of serving adds to the tools (the 2026-07-28 leg: the tasks extension), installed inside the guards, which run first. */
  extend?: (server: McpServer, tools: readonly ToolDefinition[]) => void;
}

/**
 * The one MCP server definition both protocol eras are served from: a 2025-era session's object
 * connects it to its transport, and a 2026-07-28 request gets a fresh one in the Worker. The SDK
 * answers the protocol (initialize or server/discover, ping, listing, tools/call validation, logging);
 * the caller each request carries (src/server/caller.ts) decides which tools it lists and runs.
 */
export function createMcpServer(env: Env, { execute, era, extend }: ServerSetup): McpServer {
  const stateCodec = requestStateCodec(env);
  const tools = toolsFor(env);
  const server = new McpServer(
    { name: SERVER_NAME, version: SERVER_VERSION, title: SERVER_TITLE },
    {
      capabilities: { logging: {} },
      instructions: instructionsFor(tools),
      // Ajv compiles schemas with `new Function`, which Workers forbid.
      jsonSchemaValidator: new CfWorkerJsonSchemaValidator(),
      ...(stateCodec ? { requestState: { verify: stateCodec.verify } } : {}),
    },
  );
  for (const tool of tools) {
    server.registerTool(
      tool.name,
      {
        title: tool.title,
        description: tool.description,
        inputSchema: convertedOnce(tool.input),
        ...(tool.output ? { outputSchema: convertedOnce(tool.output) } : {}),
        annotations: tool.annotations,
      },
      (args: unknown, ctx) => execute(tool, args, callRequestOf(ctx)),
    );
  }
  extend?.(server, tools);
  guardTools(server, env, tools);
  guardResources(server, { ...NODE_SPEC_RESOURCES, registered: installCatalogResources(server, env) });
  installView(server, env, tools);
  serverAdditions()?.install(server, env, era);
  declareStaticLists(server);
  return server;
}
