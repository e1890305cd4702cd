import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { SSEClientTransport } from '@modelcontextprotocol/sdk/client/sse.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { afterEach, describe, expect, inject, it } from 'vitest';
import { authHeaders, withKey } from './auth';

const baseUrl = inject('baseUrl');
let client: Client | undefined;

afterEach(async () => {
  await client?.close();
  client = undefined;
});

async function connect(transport: Transport): Promise<Client> {
  client = new Client({ name: 'e2e', version: '1.0.0' });
  await client.connect(transport);
  return client;
}

async function listAndCall(c: Client) {
  const { tools } = await c.listTools();
  expect(tools.map((t) => t.name)).toContain('server_info');
  const result = await c.callTool({ name: 'server_info', arguments: {} });
  expect(result.isError).toBeFalsy();
  expect(result.structuredContent).toMatchObject({ name: 'n8n-mcp-edge', version: expect.any(String) });
  expect(await c.ping()).toEqual({});
}

describe('real MCP SDK clients against wrangler dev', () => {
  it('Streamable HTTP: lists tools, calls one, and ends the session with DELETE', async () => {
    const transport = new StreamableHTTPClientTransport(new URL('/mcp', baseUrl), withKey);
    const c = await connect(transport);
    expect(c.getServerVersion()?.name).toBe('n8n-mcp-edge');
    expect(transport.sessionId).toMatch(/^[A-Za-z0-9_-]{43}$/);
    await listAndCall(c);
    const sessionId = transport.sessionId!;
    await transport.terminateSession();
    const after = await fetch(new URL('/mcp', baseUrl), {
      method: 'POST',
      headers: { ...authHeaders, 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-session-id': sessionId },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' }),
    });
    expect(after.status).toBe(404);
  });

  it.each(['/sse', '/mcp/sse'])('HTTP+SSE on %s: lists tools and calls one', async (path) => {
    const c = await connect(new SSEClientTransport(new URL(path, baseUrl), withKey));
    await listAndCall(c);
  });

  it('many sessions at once stay independent', async () => {
    const clients = await Promise.all(
      Array.from({ length: 10 }, async () => {
        const c = new Client({ name: 'e2e-many', version: '1.0.0' });
        await c.connect(new StreamableHTTPClientTransport(new URL('/mcp', baseUrl), withKey));
        return c;
      }),
    );
    const results = await Promise.all(clients.map((c) => c.callTool({ name: 'server_info', arguments: {} })));
    expect(results.every((r) => !r.isError)).toBe(true);
    await Promise.all(clients.map((c) => c.close()));
  });
});

describe('/mcp/sse query mode with a plain HTTP client', () => {
  async function oneShot(params: Record<string, string>) {
    const response = await fetch(new URL(`/mcp/sse?${new URLSearchParams(params)}`, baseUrl), { headers: authHeaders });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/event-stream');
    const text = await response.text(); // resolves only because the server closes the stream
    const [, id, event, data] = /^id: (.*)\nevent: (.*)\ndata: (.*)\n\n$/.exec(text) ?? [];
    return { id, event, message: JSON.parse(data!) };
  }

  it('lists tools with mcp/getServerCapabilities and runs one with mcp/executeTool', async () => {
    const caps = await oneShot({ jsonrpc: '2.0', method: 'mcp/getServerCapabilities', id: 'n8n_req_1' });
    expect(caps).toMatchObject({ id: 'n8n_req_1', event: 'mcpResponse' });
    expect(caps.message.result.tools.map((t: { toolId: string }) => t.toolId)).toContain('server_info');
    const run = await oneShot({
      jsonrpc: '2.0',
      method: 'mcp/executeTool',
      id: 'n8n_req_2',
      params: JSON.stringify({ toolId: 'server_info', inputs: {} }),
    });
    expect(run.message).toMatchObject({ id: 'n8n_req_2', result: { outputs: { name: 'n8n-mcp-edge' } } });
  });
});

describe('streaming through wrangler dev', () => {
  it('delivers the SSE endpoint event before the stream ends (no buffering)', async () => {
    const controller = new AbortController();
    const response = await fetch(new URL('/sse', baseUrl), { headers: authHeaders, signal: controller.signal });
    expect(response.headers.get('content-encoding')).toBe('identity');
    const reader = response.body!.getReader();
    const first = await Promise.race([
      reader.read().then((r) => new TextDecoder().decode(r.value)),
      new Promise<string>((_, reject) => setTimeout(() => reject(new Error('endpoint event was buffered')), 5000)),
    ]);
    expect(first).toMatch(/^event: endpoint\ndata: \/messages\?sessionId=/);
    controller.abort();
  });
});
