import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { afterEach, describe, expect, inject, it } from 'vitest';
import { authHeaders, withKey } from './auth';

/**
 * The 2026-07-28 era through the MCP SDK's 2.x client in modern mode (it probes with server/discover),
 * against `wrangler dev`: no session, the tools, a queued n8n tool as a task (against the fake n8n),
 * the catalog resources; and what the Worker does to modern requests that are wrong.
 */
const baseUrl = inject('baseUrl');
const TASKS = 'io.modelcontextprotocol/tasks';
let client: Client | undefined;

afterEach(async () => {
  await client?.close();
  client = undefined;
});

async function connectModern(capabilities: Record<string, unknown> = {}): Promise<Client> {
  client = new Client({ name: 'e2e-modern', version: '1.0.0' }, { capabilities, versionNegotiation: { mode: 'auto' } });
  await client.connect(new StreamableHTTPClientTransport(new URL('/mcp', baseUrl), withKey));
  return client;
}

let nextId = 1;

/** One 2026-07-28 request as a modern client sends it; resolves with its result. */
async function modernRequest(method: string, params: Record<string, unknown>, capabilities: Record<string, unknown>): Promise<Record<string, unknown>> {
  const name = params.name ?? params.taskId;
  const response = await fetch(new URL('/mcp', baseUrl), {
    method: 'POST',
    headers: {
      ...authHeaders,
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': '2026-07-28',
      'mcp-method': method,
      ...(typeof name === 'string' ? { 'mcp-name': name } : {}),
    },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: nextId++,
      method,
      params: { ...params, _meta: { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': capabilities } },
    }),
  });
  const body = (await response.json()) as { result?: Record<string, unknown>; error?: unknown };
  if (!body.result) throw new Error(`${method}: ${JSON.stringify(body.error)}`);
  return body.result;
}

describe('the 2.x SDK client in modern mode', () => {
  it('negotiates 2026-07-28 with no session, lists tools and calls one', async () => {
    const c = await connectModern();
    expect(c.getProtocolEra()).toBe('modern');
    expect(c.getNegotiatedProtocolVersion()).toBe('2026-07-28');
    const { tools } = await c.listTools();
    expect(tools.map((t) => t.name)).toEqual(expect.arrayContaining(['server_info', 'search_nodes', 'list_workflows']));
    const info = await c.callTool({ name: 'server_info', arguments: {} });
    expect(info.isError).toBeFalsy();
    expect(info.structuredContent).toMatchObject({ name: 'n8n-mcp-edge' });
    const search = await c.callTool({ name: 'search_nodes', arguments: { query: 'slack', max_results: 3 } });
    expect(JSON.stringify(search.content)).toContain('slack');
  });

  it('reads the node catalog as resources', async () => {
    const c = await connectModern();
    const { resourceTemplates } = await c.listResourceTemplates();
    expect(resourceTemplates.map((t) => t.uriTemplate)).toContain('node-spec://{node_type}/{+subtype}');
    const read = await c.readResource({ uri: 'node-spec://FLOW_NODE/n8n-nodes-base.if' });
    expect(JSON.parse((read.contents[0] as { text: string }).text)).toMatchObject({ node_type: expect.any(String) });
  });

  // The 2.x client has no tasks extension yet (it refuses a `task` result), so the task is driven with
  // the requests a tasks-aware client sends: the same envelope and routing headers.
  it('runs a queued n8n tool as a task for a client that declares the tasks extension, and polls it to its result', async () => {
    const capabilities = { extensions: { [TASKS]: {} } };
    const created = await modernRequest('tools/call', { name: 'list_workflows', arguments: {} }, capabilities);
    expect(created).toMatchObject({ resultType: 'task', status: 'working', taskId: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/) });
    let task = created;
    for (let i = 0; i < 50 && task.status === 'working'; i++) {
      await new Promise((resolve) => setTimeout(resolve, 200));
      task = await modernRequest('tasks/get', { taskId: created.taskId }, capabilities);
    }
    expect(task).toMatchObject({ status: 'completed', result: { content: [expect.objectContaining({ type: 'text' })] } });
    expect((task.result as { isError?: boolean }).isError).toBeFalsy();
  });

  it('runs the same tool where the request arrived for a client without the extension', async () => {
    const c = await connectModern();
    const result = await c.callTool({ name: 'list_workflows', arguments: {} });
    expect(result.isError).toBeFalsy();
    expect(result).not.toHaveProperty('taskId');
  });
});

describe('modern requests the Worker refuses', () => {
  const meta = { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': {} };
  const post = (headers: Record<string, string>, body: unknown) =>
    fetch(new URL('/mcp', baseUrl), {
      method: 'POST',
      headers: {
        ...headers,
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        'mcp-protocol-version': '2026-07-28',
        'mcp-method': 'tools/list',
      },
      body: JSON.stringify(body),
    });

  it('needs the same credential as the 2025 era', async () => {
    const response = await post({}, { jsonrpc: '2.0', id: 1, method: 'tools/list', params: { _meta: meta } });
    expect(response.status).toBe(401);
  });

  it('never mints a session, and refuses a session id on a modern request as HeaderMismatch', async () => {
    const plain = await post(authHeaders, { jsonrpc: '2.0', id: 1, method: 'tools/list', params: { _meta: meta } });
    expect(plain.status).toBe(200);
    expect(plain.headers.get('mcp-session-id')).toBeNull();
    const mixed = await post({ ...authHeaders, 'mcp-session-id': 'a'.repeat(43) }, { jsonrpc: '2.0', id: 2, method: 'tools/list', params: { _meta: meta } });
    expect(mixed.status).toBe(400);
    expect(await mixed.json()).toMatchObject({ id: 2, error: { code: -32020 } });
  });
});
