import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, inject, it } from 'vitest';

/**
 * mcp-remote, the stdio ↔ remote bridge Claude Desktop runs, started the way README's
 * claude_desktop_config.json starts it (a header from an environment variable), with the 1.x SDK
 * client on its stdio as Claude Desktop would be: the 2025 era, a session.
 */
const baseUrl = inject('baseUrl');
let client: Client | undefined;

afterEach(async () => {
  await client?.close();
  client = undefined;
});

describe('mcp-remote (Claude Desktop’s bridge)', () => {
  it('connects with a key header, lists tools and calls one', async () => {
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: ['node_modules/mcp-remote/dist/proxy.js', new URL('/mcp', baseUrl).href, '--header', 'Authorization:${N8N_EDGE_AUTH}'],
      // Its own config dir, so no token of another run is reused.
      env: { ...process.env, N8N_EDGE_AUTH: `Bearer ${inject('apiKey')}`, MCP_REMOTE_CONFIG_DIR: mkdtempSync(join(tmpdir(), 'mcp-remote-')) } as Record<
        string,
        string
      >,
      stderr: 'pipe',
    });
    client = new Client({ name: 'claude-desktop-e2e', version: '1.0.0' });
    await client.connect(transport);
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toEqual(expect.arrayContaining(['server_info', 'search_nodes']));
    const result = await client.callTool({ name: 'search_nodes', arguments: { query: 'google sheets', max_results: 3 } });
    expect(result.isError).toBeFalsy();
    expect(JSON.stringify(result.content)).toContain('googleSheets');
  }, 60_000);
});
