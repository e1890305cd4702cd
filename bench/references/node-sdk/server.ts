import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { serverInfoResult } from '../serverInfo.ts';

/** Reference (c), for context: the SDK's own Node server (stateful, one transport per session), same tool. */
const transports = new Map<string, StreamableHTTPServerTransport>();

function newServer(): McpServer {
  const server = new McpServer({ name: 'bench-node-sdk', version: '0.1.0' });
  server.registerTool(
    'server_info',
    {
      title: 'Server information',
      description: 'Name and version of this MCP server.',
      outputSchema: { name: z.string(), version: z.string(), transports: z.array(z.string()), protocolVersions: z.array(z.string()) },
    },
    async () => serverInfoResult(),
  );
  return server;
}

async function readJson(req: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return JSON.parse(Buffer.concat(chunks).toString('utf8'));
}

// Every error is answered inside `serve`: node's server ignores what a listener returns.
const http = createServer((req, res) => void serve(req, res));

async function serve(req: IncomingMessage, res: ServerResponse): Promise<void> {
  try {
    const sessionId = req.headers['mcp-session-id'] as string | undefined;
    const body = req.method === 'POST' ? await readJson(req) : undefined;
    let transport = sessionId ? transports.get(sessionId) : undefined;
    if (!transport && !sessionId && isInitializeRequest(body)) {
      transport = new StreamableHTTPServerTransport({
        sessionIdGenerator: randomUUID,
        onsessioninitialized: (id) => void transports.set(id, transport!),
      });
      await newServer().connect(transport);
    }
    if (!transport) {
      res.writeHead(404).end();
      return;
    }
    await transport.handleRequest(req, res, body);
  } catch (error) {
    res.writeHead(500).end(String(error));
  }
}

http.listen(Number(process.argv[2] ?? 0), '127.0.0.1', () => {
  const address = http.address() as { port: number };
  process.stdout.write(`listening ${address.port}\n`);
});
