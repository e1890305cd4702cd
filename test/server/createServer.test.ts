import { env } from 'cloudflare:workers';
import { createMcpHandler, WebStandardStreamableHTTPServerTransport, type McpServer } from '@modelcontextprotocol/server';
import { describe, expect, it } from 'vitest';
import type { Env } from '../../src/env';
import type { Principal } from '../../src/principal';
import { authInfoOf } from '../../src/server/caller';
import { createMcpServer, type ServerSetup, type ToolExecutor } from '../../src/server/createServer';
import { toolsFor } from '../../src/server/registry';
import { wrapRequestHandler } from '../../src/server/sdkInternals';
import { messagesOf } from '../support/mcp';

const everything: Principal = { id: 'key_all', subject: 'key_all', scopes: ['*'] };
const ENVELOPE = { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': {} };

/** What the executor was handed, by tool name; it answers "ran <tool>". */
function recordingExecutor() {
  const calls: { tool: string; args: unknown; caller: Principal; requestId: unknown }[] = [];
  const execute: ToolExecutor = async (tool, args, call) => {
    calls.push({ tool: tool.name, args, caller: call.caller, requestId: call.requestId });
    return { content: [{ type: 'text', text: `ran ${tool.name}` }] };
  };
  return { execute, calls };
}

/** A 2026-07-28 server from the factory, served by the SDK's per-request handler: one request, its one answer. */
function modernServer(setup: Partial<ServerSetup> = {}, serverEnv: Env = env) {
  const { execute, calls } = recordingExecutor();
  const handler = createMcpHandler(() => createMcpServer(serverEnv, { execute, era: 'stateless', ...setup }), { legacy: 'reject' });
  let id = 0;
  const send = async (method: string, params: Record<string, unknown> = {}, caller = everything) => {
    const body = { jsonrpc: '2.0', id: ++id, method, params: { ...params, _meta: ENVELOPE } };
    const name = params.name;
    const request = new Request('https://mcp.example/mcp', {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        'mcp-protocol-version': '2026-07-28',
        'mcp-method': method,
        ...(typeof name === 'string' ? { 'mcp-name': name } : {}),
      },
      body: JSON.stringify(body),
    });
    const [reply] = await messagesOf(await handler.fetch(request, { parsedBody: body, authInfo: authInfoOf(caller) }));
    return reply!;
  };
  return { send, calls };
}

/** A 2025-era server from the factory, connected to the SDK's Streamable HTTP transport: the answer to initialize. */
async function initializeSessionServer(serverEnv: Env = env) {
  const server = createMcpServer(serverEnv, { execute: recordingExecutor().execute, era: 'sessions' });
  const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: () => 'session', keepAliveMs: 0 });
  await server.connect(transport);
  const initialize = {
    jsonrpc: '2.0',
    id: 0,
    method: 'initialize',
    params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'vitest', version: '1' } },
  };
  const response = await transport.handleRequest(
    new Request('https://mcp.example/mcp', {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify(initialize),
    }),
    { authInfo: authInfoOf(everything) },
  );
  const [reply] = await messagesOf(response);
  await server.close();
  return reply!.result;
}

const lists = ['tools', 'resources', 'prompts'] as const;
type JsonObject = { properties?: Record<string, unknown> };

describe('the one server both eras are served from', () => {
  it('announces no list as changing, in either era: a deployment’s lists never change while it runs', async () => {
    const { send } = modernServer();
    const discovered = (await send('server/discover')).result.capabilities;
    const initialized = (await initializeSessionServer()).capabilities;
    for (const capabilities of [discovered, initialized]) {
      expect(capabilities).toMatchObject({ tools: {}, resources: {}, logging: {} });
      for (const list of lists) if (capabilities[list]) expect(capabilities[list].listChanged, list).toBe(false);
    }
  });

  it('introduces itself with its name, version, title and instructions', async () => {
    const initialized = await initializeSessionServer();
    expect(initialized.serverInfo).toMatchObject({ name: 'n8n-mcp-edge', version: expect.any(String), title: expect.any(String) });
    expect(initialized.instructions).toMatch(/^Tools for building n8n workflows/);
  });

  it('walks through the calls a workflow takes, naming only tools the deployment has, with an n8n and without', async () => {
    const withN8n = { ...env, N8N_API_URL: 'https://n8n.example', N8N_API_KEY: 'key' } as Env;
    const withWorkspaces = { ...env, CONNECTION_KEYS: 'k1:x' } as Env;
    for (const deployment of [env, withN8n, withWorkspaces]) {
      const { instructions } = await initializeSessionServer(deployment);
      const named = [...(instructions as string).matchAll(/\b[a-z]+(?:_[a-z]+)+\b/g)].map(([name]) => name!);
      const tools = new Set(toolsFor(deployment).map((t) => t.name));
      for (const name of named) expect(tools, name).toContain(name);
      expect(named).toContain(tools.has('create_workflow') ? 'test_workflow' : 'validate_workflow');
      // Only where each n8n tool takes `instance` do the instructions say how to find its values.
      expect(named.includes('list_instances'), String(deployment === withWorkspaces)).toBe(deployment === withWorkspaces);
    }
  });

  it('lists every tool of the deployment, with the JSON Schemas of its input and output', async () => {
    const { send } = modernServer();
    const listed = (await send('tools/list')).result.tools as { name: string; inputSchema: JsonObject; outputSchema?: JsonObject }[];
    const tools = toolsFor(env);
    // First the registry's, in its order; then any the test entry's pack registers on the SDK server itself.
    expect(listed.slice(0, tools.length).map((t) => t.name)).toEqual(tools.map((t) => t.name));
    for (const tool of tools) {
      const entry = listed.find((t) => t.name === tool.name)!;
      expect(Object.keys(entry.inputSchema.properties ?? {}), tool.name).toEqual(Object.keys(tool.input.shape));
      if (tool.output) expect(Object.keys(entry.outputSchema?.properties ?? {}), tool.name).toEqual(Object.keys(tool.output.shape));
      else expect(entry, tool.name).not.toHaveProperty('outputSchema');
    }
  });

  it('hands a tools/call the SDK has validated to the executor its way of serving gave, with the request’s caller and id', async () => {
    const { send, calls } = modernServer();
    const nodes = [{ node_type: 'ACTION_NODE', subtype: 'n8n-nodes-base.set' }];
    const reply = await send('tools/call', { name: 'get_node_details', arguments: { nodes } });
    expect(reply.result.content).toEqual([{ type: 'text', text: 'ran get_node_details' }]);
    expect(calls).toEqual([
      { tool: 'get_node_details', args: expect.objectContaining({ nodes: [expect.objectContaining(nodes[0])] }), caller: everything, requestId: reply.id },
    ]);
    // Arguments the tool's schema refuses never reach the executor.
    const refused = await send('tools/call', { name: 'get_node_details', arguments: { nodes: 'n8n-nodes-base.set' } });
    expect(refused.result).toMatchObject({ isError: true, content: [{ text: expect.stringMatching(/^Input validation error: .*nodes/) }] });
    expect(calls).toHaveLength(1);
  });

  it('runs the guards before what a way of serving adds: a call outside the caller’s scopes never reaches it', async () => {
    const reached: string[] = [];
    const extend = (server: McpServer) =>
      wrapRequestHandler(server, 'tools/call', (call) => async (request, ctx) => (reached.push(String(request.params?.name)), call(request, ctx)));
    const { send, calls } = modernServer({ extend });
    const narrow: Principal = { id: 'key_narrow', subject: 'key_narrow', scopes: ['workflows:read'] };
    const refused = await send('tools/call', { name: 'get_node_types', arguments: {} }, narrow);
    expect(refused.result).toMatchObject({ isError: true, content: [{ text: expect.stringContaining('needs the scope "nodes:read"') }] });
    expect(reached).toEqual([]);
    expect(calls).toEqual([]);
    await send('tools/call', { name: 'get_node_types', arguments: {} });
    expect(reached).toEqual(['get_node_types']);
    expect(calls.map((c) => c.tool)).toEqual(['get_node_types']);
  });

  it('takes back only the requestState it sealed, when the deployment has a REQUEST_STATE_KEY', async () => {
    const echoed = { name: 'get_node_types', arguments: {}, requestState: 'v1.eyJwIjoxfQ.forged' };
    const sealed = modernServer();
    expect((await sealed.send('tools/call', echoed)).error).toMatchObject({ code: -32602 });
    expect(sealed.calls).toEqual([]);
    // Without a key nothing is sealed, and nothing is checked: the state goes to the handler as it came.
    const unsealed = modernServer({}, { ...env, REQUEST_STATE_KEY: undefined } as Env);
    expect((await unsealed.send('tools/call', echoed)).result.content).toEqual([{ type: 'text', text: 'ran get_node_types' }]);
  });
});
