import { describe, expect, it } from 'vitest';
import { HttpError } from '../../src/protocol/httpError';
import { isModernRequest } from '../../src/server/era';

const ENVELOPE = { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': {} };
const MODERN_HEADERS = { 'content-type': 'application/json', 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'tools/list' };

const post = (body: unknown, headers: Record<string, string>) =>
  new Request('https://mcp.example/mcp', { method: 'POST', headers, body: JSON.stringify(body) });
const modernBody = (id: unknown = 1) => ({ jsonrpc: '2.0', id, method: 'tools/list', params: { _meta: ENVELOPE } });
/** What isModernRequest threw, as the JSON-RPC error body the Worker answers with. */
async function refusal(request: Request, body: unknown) {
  try {
    await isModernRequest(request, body);
  } catch (error) {
    expect(error).toBeInstanceOf(HttpError);
    return { status: (error as HttpError).status, body: (error as HttpError).toJSON() };
  }
  throw new Error('not refused');
}

describe('which era a POST /mcp belongs to', () => {
  it('puts a request carrying the per-request envelope in the 2026-07-28 era', async () => {
    const body = modernBody();
    expect(await isModernRequest(post(body, MODERN_HEADERS), body)).toBe(true);
  });

  it('leaves a 2025-era message to the sessions: initialize, a request on a session, a notification, a response', async () => {
    const session = { 'content-type': 'application/json', 'mcp-session-id': 'a'.repeat(43), 'mcp-protocol-version': '2025-06-18' };
    const initialize = {
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'vitest', version: '1' } },
    };
    expect(await isModernRequest(post(initialize, { 'content-type': 'application/json' }), initialize)).toBe(false);
    for (const body of [
      { jsonrpc: '2.0', id: 2, method: 'tools/list' },
      { jsonrpc: '2.0', method: 'notifications/initialized' },
      { jsonrpc: '2.0', id: 3, result: {} },
    ]) {
      expect(await isModernRequest(post(body, session), body), JSON.stringify(body)).toBe(false);
    }
  });

  it('leaves a body that is no JSON-RPC message to the 2025 era’s validation, which names what is wrong: it claims no era', async () => {
    const session = { 'content-type': 'application/json', 'mcp-session-id': 'a'.repeat(43), 'mcp-protocol-version': '2025-06-18' };
    for (const body of [
      { id: 1, method: 'initialize' },
      { jsonrpc: '1.0', id: 1, method: 'ping' },
      { jsonrpc: '2.0', id: { not: 'an id' }, method: 'ping' },
    ]) {
      expect(await isModernRequest(post(body, { 'content-type': 'application/json' }), body), JSON.stringify(body)).toBe(false);
      // Not refused as a 2026-07-28 request that names a session: it is no 2026-07-28 request.
      expect(await isModernRequest(post(body, session), body), JSON.stringify(body)).toBe(false);
    }
  });

  it('judges as the SDK does: a modern revision claimed in MCP-Protocol-Version alone is modern, for the SDK to refuse as it sees fit', async () => {
    const body = { jsonrpc: '2.0', id: 4, method: 'tools/list' };
    expect(await isModernRequest(post(body, MODERN_HEADERS), body)).toBe(true);
  });
});

describe('a 2026-07-28 request that names a session', () => {
  it('is refused as HeaderMismatch (-32020, HTTP 400) with the request’s id, not served as if the header were not there', async () => {
    const body = modernBody('req-7');
    const { status, body: error } = await refusal(post(body, { ...MODERN_HEADERS, 'mcp-session-id': 'a'.repeat(43) }), body);
    expect(status).toBe(400);
    expect(error).toEqual({
      jsonrpc: '2.0',
      id: 'req-7',
      error: { code: -32020, message: expect.stringMatching(/^Header mismatch: Mcp-Session-Id belongs to the 2025 protocol era/) },
    });
  });

  it('answers a notification, which has no id, with a null id', async () => {
    const body = { jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 1, _meta: ENVELOPE } };
    const refused = await refusal(post(body, { ...MODERN_HEADERS, 'mcp-method': 'notifications/cancelled', 'mcp-session-id': 'a'.repeat(43) }), body);
    expect(refused.body).toMatchObject({ id: null, error: { code: -32020 } });
  });
});
