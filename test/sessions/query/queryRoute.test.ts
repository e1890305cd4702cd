import { describe, expect, it } from 'vitest';
import { queryMode as query } from '../../support/mcp';

describe('/mcp/sse query mode (seed 004)', () => {
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
});
