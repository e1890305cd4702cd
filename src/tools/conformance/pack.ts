import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
export function installConformancePack(_server: McpServer): void {}
