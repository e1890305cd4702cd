/**
 * n8n-mcp 2.87.0, the reference the benchmarks compare with: its stdio MCP server, installed apart
 * (`npm i --prefix .eval/n8n-mcp n8n-mcp@2.87.0`) and run offline (no N8N_API_URL / N8N_API_KEY: its
 * documentation and validation tools only, nothing leaves the machine).
 */
import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';

export const N8N_MCP_VERSION = '2.87.0';
const N8N_MCP_DIR = '.eval/n8n-mcp/node_modules/n8n-mcp';
/** The node binary its better-sqlite3 was built for. */
export const N8N_MCP_NODE = process.env.N8N_MCP_NODE ?? (existsSync('/usr/bin/node') ? '/usr/bin/node' : process.execPath);
const ENTRY = resolve(N8N_MCP_DIR, 'dist/mcp/stdio-wrapper.js');

/** Why n8n-mcp cannot be run here, with the command that fixes it; undefined when it can. */
export function n8nMcpMissing(): string | undefined {
  if (!existsSync(ENTRY)) return `${N8N_MCP_DIR} is missing: npm i --prefix .eval/n8n-mcp n8n-mcp@${N8N_MCP_VERSION}`;
  const installed = (JSON.parse(readFileSync(resolve(N8N_MCP_DIR, 'package.json'), 'utf8')) as { version: string }).version;
  return installed === N8N_MCP_VERSION ? undefined : `n8n-mcp ${installed} is installed, not ${N8N_MCP_VERSION}`;
}

/** A client of a fresh n8n-mcp process (close the client to end it). */
export async function connectN8nMcp(name: string): Promise<Client> {
  const client = new Client({ name, version: '0.1.0' });
  await client.connect(
    new StdioClientTransport({
      // The package's bin (stdio-wrapper.js) sets MCP_MODE=stdio and silences its console itself.
      command: N8N_MCP_NODE,
      args: [ENTRY],
      cwd: resolve('.eval/n8n-mcp'),
      env: {
        PATH: process.env.PATH ?? '',
        HOME: process.env.HOME ?? '',
        MCP_MODE: 'stdio',
        LOG_LEVEL: 'error',
        DISABLE_CONSOLE_OUTPUT: 'true',
        N8N_MCP_TELEMETRY_DISABLED: 'true',
      },
      stderr: 'ignore',
    }),
  );
  return client;
}
