import { describe, expect, it } from 'vitest';
import { createKey } from '../support/keys';
import { call } from '../support/mcp';
import { modern } from '../support/modern';

/** The 2026-07-28 era on POST /mcp, through the real Worker in workerd. */
describe('MCP 2026-07-28 on /mcp', () => {
  it('answers server/discover with the supported version, the capabilities and the tasks extension, and no session', async () => {
    const { status, headers, body } = await modern('server/discover');
    expect(status).toBe(200);
    expect(headers.get('mcp-session-id')).toBeNull();
    expect(body.result.supportedVersions).toContain('2026-07-28');
    expect(body.result.capabilities).toMatchObject({ tools: {}, extensions: { 'io.modelcontextprotocol/tasks': {} } });
    expect(body.result._meta['io.modelcontextprotocol/serverInfo']).toMatchObject({ name: 'n8n-mcp-edge' });
  });

  it('serves the same tools as the 2025 era, with cache hints on the listing', async () => {
    const { body } = await modern('tools/list');
    expect(body.result.tools.map((t: { name: string }) => t.name)).toEqual(expect.arrayContaining(['server_info', 'search_nodes', 'validate_workflow']));
    expect(body.result).toMatchObject({ resultType: 'complete', ttlMs: expect.any(Number), cacheScope: expect.stringMatching(/public|private/) });
    const info = await modern('tools/call', { name: 'server_info', arguments: {} });
    expect(info.body.result.structuredContent.protocolVersions).toEqual(expect.arrayContaining(['2026-07-28', '2025-11-25']));
  });

  it('holds a modern caller to the same credential and scopes as a session', async () => {
    const anonymous = await modern('tools/list', {}, { headers: { authorization: '' } });
    expect(anonymous.status).toBe(401);
    const { key } = await createKey(['workflows:read']);
    const narrow = { headers: { authorization: `Bearer ${key}` } };
    const listed = await modern('tools/list', {}, narrow);
    expect(listed.body.result.tools.map((t: { name: string }) => t.name)).not.toContain('get_node_types');
    const refused = await modern('tools/call', { name: 'get_node_types', arguments: {} }, narrow);
    expect(refused.body.result).toMatchObject({ isError: true, content: [{ text: expect.stringContaining('needs the scope "nodes:read"') }] });
  });

  it('serves two callers with different scopes at once, each with its own principal in the guard and the tool', async () => {
    const [nodes, workflows] = await Promise.all([createKey(['nodes:read']), createKey(['workflows:read'])]);
    const as = (key: string) => ({ headers: { authorization: `Bearer ${key}` } });
    const replies = await Promise.all(
      [nodes, workflows].flatMap(({ key }) => [modern('tools/list', {}, as(key)), modern('tools/call', { name: 'test_caller', arguments: {} }, as(key))]),
    );
    const [nodesList, nodesCall, workflowsList, workflowsCall] = replies.map((reply) => reply.body.result);
    const names = (result: { tools: { name: string }[] }) => result.tools.map((t) => t.name);
    expect(names(nodesList)).toContain('get_node_types');
    expect(names(workflowsList)).not.toContain('get_node_types');
    expect(nodesCall.structuredContent).toEqual({ id: `key_${nodes.record.id}`, subject: `key_${nodes.record.id}`, scopes: ['nodes:read'] });
    expect(workflowsCall.structuredContent).toEqual({ id: `key_${workflows.record.id}`, subject: `key_${workflows.record.id}`, scopes: ['workflows:read'] });
  });

  it('applies the Origin rule before the era is looked at', async () => {
    const { status } = await modern('tools/list', {}, { headers: { origin: 'https://evil.example' } });
    expect(status).toBe(403);
  });

  it('refuses a header that contradicts the body (HeaderMismatch)', async () => {
    const wrongMethod = await modern('tools/list', {}, { headers: { 'mcp-method': 'prompts/list' } });
    expect(wrongMethod.status).toBe(400);
    expect(wrongMethod.body.error.code).toBe(-32020);
  });

  it('answers 2025-era methods with 404 and -32601, and an unsupported version with -32022', async () => {
    for (const method of ['initialize', 'ping', 'logging/setLevel']) {
      const { status, body } = await modern(method);
      expect(status).toBe(404);
      expect(body.error.code).toBe(-32601);
    }
    const response = await call('/mcp', {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        'mcp-protocol-version': '2099-01-01',
        'mcp-method': 'tools/list',
      },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 7,
        method: 'tools/list',
        params: { _meta: { 'io.modelcontextprotocol/protocolVersion': '2099-01-01', 'io.modelcontextprotocol/clientCapabilities': {} } },
      }),
    });
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ id: 7, error: { code: -32022, data: { supported: ['2026-07-28'], requested: '2099-01-01' } } });
  });
});
