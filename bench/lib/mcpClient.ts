/**
 * The one client every server in the benchmark sees: raw Streamable HTTP POSTs, bodies read to the
 * end (JSON or SSE alike), so no SDK client overhead is counted against any server.
 */
const HEADERS = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
const PROTOCOL_VERSION = '2025-06-18';

export interface Session {
  call(id: number): Promise<void>;
}

async function post(url: string, body: unknown, sessionId?: string): Promise<Response> {
  const headers: Record<string, string> = { ...HEADERS, 'mcp-protocol-version': PROTOCOL_VERSION };
  if (sessionId) headers['mcp-session-id'] = sessionId;
  return fetch(url, { method: 'POST', headers, body: JSON.stringify(body) });
}

async function expectOk(response: Response, what: string): Promise<string> {
  const text = await response.text();
  if (!response.ok) throw new Error(`${what}: HTTP ${response.status} ${text.slice(0, 200)}`);
  return text;
}

/** initialize + notifications/initialized, as a client does; then `call` makes one tools/call of server_info. */
export async function openSession(url: string): Promise<Session> {
  const init = await post(url, {
    jsonrpc: '2.0',
    id: 0,
    method: 'initialize',
    params: { protocolVersion: PROTOCOL_VERSION, capabilities: {}, clientInfo: { name: 'bench', version: '1' } },
  });
  await expectOk(init, 'initialize');
  const sessionId = init.headers.get('mcp-session-id') ?? undefined;
  await expectOk(await post(url, { jsonrpc: '2.0', method: 'notifications/initialized' }, sessionId), 'initialized');
  return {
    async call(id) {
      const text = await expectOk(
        await post(url, { jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'server_info', arguments: {} } }, sessionId),
        'tools/call',
      );
      // Exactly one answer for this request id: none is lost, none comes twice.
      const answers = text.split(`"id":${id}`).length - 1;
      if (answers !== 1 || !text.includes('"result"')) throw new Error(`tools/call ${id}: ${answers} answers in ${text.slice(0, 200)}`);
    },
  };
}
