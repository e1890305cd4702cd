import { serverInfoResult } from '../serverInfo.ts';

/**
 * The plain-Worker floor: the same POST answered in the Worker isolate with the canned server_info
 * result, no Durable Object and no MCP work. What a sessionless (MCP 2026-07-28) request can cost at
 * least; the answer is framed like the MCP servers' so the bytes on the wire match.
 */
const RESULT = serverInfoResult();

export default {
  async fetch(request: Request): Promise<Response> {
    const { id } = (await request.json()) as { id?: unknown };
    if (id === undefined) return new Response(null, { status: 202 });
    return new Response(JSON.stringify({ jsonrpc: '2.0', id, result: RESULT }), { headers: { 'content-type': 'application/json' } });
  },
};
