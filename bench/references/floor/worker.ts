import { DurableObject } from 'cloudflare:workers';

/**
 * The floor: the same POST goes Worker → Durable Object (addressed by session id) → canned JSON-RPC
 * answer. No MCP work at all; what any session-per-object design pays at minimum.
 */
export class Echo extends DurableObject {
  override async fetch(request: Request): Promise<Response> {
    const { id } = (await request.json()) as { id?: unknown };
    const result = { content: [{ type: 'text', text: '{"name":"floor"}' }], structuredContent: { name: 'floor' } };
    return Response.json({ jsonrpc: '2.0', id: id ?? null, result }, { headers: { 'mcp-session-id': request.headers.get('mcp-session-id')! } });
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
