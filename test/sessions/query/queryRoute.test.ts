import { describe, expect, it } from 'vitest';
import { call, parseSse } from '../../support/mcp';

async function query(params: Record<string, string>) {
  const response = await call(`/mcp/sse?${new URLSearchParams(params)}`);
  expect(response.status).toBe(200);
  expect(response.headers.get('content-type')).toBe('text/event-stream');
  const events = parseSse(await response.text()); // the stream closes after one event
  expect(events).toHaveLength(1);
  expect(events[0]!.event).toBe('mcpResponse');
  return { event: events[0]!, message: JSON.parse(events[0]!.data) };
}

describe('/mcp/sse query mode (seed 004)', () => {
  it('answers mcp/getServerCapabilities with capabilities and tools carrying toolId', async () => {
    const { event, message } = await query({ jsonrpc: '2.0', method: 'mcp/getServerCapabilities', id: 'n8n_req_1' });
    expect(event.id).toBe('n8n_req_1');
    expect(message).toMatchObject({ jsonrpc: '2.0', id: 'n8n_req_1', result: { capabilities: { tools: {} } } });
    expect(message.result.tools).toContainEqual(expect.objectContaining({ toolId: 'server_info', name: 'server_info' }));
  });

  it('runs mcp/executeTool and returns outputs', async () => {
    const { message } = await query({
      jsonrpc: '2.0',
      method: 'mcp/executeTool',
      id: '2',
      params: JSON.stringify({ toolId: 'server_info', inputs: {} }),
    });
    expect(message.id).toBe(2);
    expect(message.result.outputs).toMatchObject({ name: 'n8n-mcp-edge', transports: expect.any(Array) });
  });

  it('serves the standard methods', async () => {
    expect((await query({ method: 'ping', id: '1' })).message).toEqual({ jsonrpc: '2.0', id: 1, result: {} });
    const list = await query({ method: 'tools/list', id: '2' });
    expect(list.message.result.tools.map((t: { name: string }) => t.name)).toContain('server_info');
    const init = await query({
      method: 'initialize',
      id: '3',
      params: JSON.stringify({ protocolVersion: '2024-11-05', capabilities: {}, clientInfo: { name: 'n8n', version: '1' } }),
    });
    expect(init.message.result.serverInfo.name).toBe('n8n-mcp-edge');
    const called = await query({ method: 'tools/call', id: '4', params: JSON.stringify({ name: 'server_info', arguments: {} }) });
    expect(called.message.result.structuredContent.name).toBe('n8n-mcp-edge');
  });

  it('answers errors as JSON-RPC error events', async () => {
    expect((await query({ method: 'no/such', id: '5' })).message.error.code).toBe(-32601);
    expect((await query({ method: 'mcp/executeTool', id: '6', params: '{"inputs":{}}' })).message.error).toMatchObject({
      code: -32602,
      message: expect.stringMatching(/toolId/),
    });
    const unknownTool = (await query({ method: 'mcp/executeTool', id: '7', params: '{"toolId":"nope"}' })).message;
    expect(JSON.stringify(unknownTool.error)).toMatch(/nope/);
    expect((await query({ method: 'ping', id: '8', jsonrpc: '1.0' })).message.error.code).toBe(-32600);
    expect((await query({ method: '', id: '9' })).message.error.code).toBe(-32600);
  });

  it('refuses an oversized query with an error event', async () => {
    const { message } = await query({ method: 'ping', id: '1', params: JSON.stringify({ pad: 'x'.repeat(70_000) }) });
    expect(message.error).toMatchObject({ code: -32600, message: expect.stringMatching(/query longer/) });
  });
});
