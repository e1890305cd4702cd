import { DurableObject } from 'cloudflare:workers';
import { serverInfoResult } from '../serverInfo.ts';

/**
 * The floor: the same POST goes Worker → Durable Object (addressed by session id) → canned JSON-RPC
 * answer. No MCP work at all; what any session-per-object design pays at minimum. The answer is the
 * same server_info result in the same SSE framing the MCP servers send, so the bytes on the wire match.
 */
const RESULT = serverInfoResult();

export class Echo extends DurableObject {
  override async fetch(request: Request): Promise<Response> {
    const { id } = (await request.json()) as { id?: unknown };
    const headers = { 'mcp-session-id': request.headers.get('mcp-session-id')! };
    // Notifications get 202 and no body, as in Streamable HTTP.
    if (id === undefined) return new Response(null, { status: 202, headers });
    const event = `event: message\ndata: ${JSON.stringify({ jsonrpc: '2.0', id, result: RESULT })}\n\n`;
    return new Response(event, { headers: { ...headers, 'content-type': 'text/event-stream', 'cache-control': 'no-cache' } });
  }
}

interface Env {
  ECHO: DurableObjectNamespace<Echo>;
}

export default {
  async fetch(request: Request, env: Env): Promise<Response> {
    const headers = new Headers(request.headers);
    if (!headers.has('mcp-session-id')) headers.set('mcp-session-id', crypto.randomUUID());
    const stub = env.ECHO.get(env.ECHO.idFromName(headers.get('mcp-session-id')!));
    return stub.fetch(new Request(request.url, { method: 'POST', headers, body: request.body }));
  },
};
