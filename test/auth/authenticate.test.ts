import { describe, expect, it } from 'vitest';
import { bearer, createKey, revokeKey } from '../support/keys';
import { call, callWithEnv, initializeRequest, ORIGIN, postJson } from '../support/mcp';

const initialize = (headers: Record<string, string>) => postJson('/mcp', initializeRequest(), headers);

/** What every refused credential gets: the same status, challenge and body, whatever was wrong. */
async function refusal(response: Response) {
  return { status: response.status, challenge: response.headers.get('www-authenticate'), body: await response.text() };
}

describe('API keys on the MCP routes', () => {
  it('answers a request without credentials 401 with a Bearer challenge naming the resource metadata', async () => {
    const response = await initialize({ authorization: '' });
    expect(response.status).toBe(401);
    const challenge = response.headers.get('www-authenticate');
    expect(challenge).toBe(`Bearer realm="n8n-mcp", resource_metadata="${ORIGIN}/.well-known/oauth-protected-resource/mcp"`);
    expect(await response.json()).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: -32600, message: expect.stringMatching(/^Unauthorized/) } });
    // Browsers may read the challenge (MCP Inspector), and no session was made.
    expect(response.headers.get('access-control-expose-headers')).toMatch(/WWW-Authenticate/i);
    expect(response.headers.get('mcp-session-id')).toBeNull();
  });

  it('refuses malformed headers, other prefixes, unknown, revoked and expired keys alike', async () => {
    const revoked = await createKey(['*']);
    await revokeKey(revoked.record);
    const expired = await createKey(['*'], { expiresAt: Date.now() - 1 });
    const unknown = `n2f_${'A'.repeat(40)}`;
    const presented = {
      'a Basic header': `Basic ${btoa('user:pass')}`,
      'Bearer without a token': 'Bearer',
      'two tokens': `Bearer ${unknown} ${unknown}`,
      'another prefix': `Bearer sk_${'a'.repeat(40)}`,
      'a short n2f_ key': 'Bearer n2f_abc',
      'an unknown key': `Bearer ${unknown}`,
      'a revoked key': `Bearer ${revoked.key}`,
      'an expired key': `Bearer ${expired.key}`,
      'an unknown OAuth-shaped token': `Bearer key_000000000000:${'a'.repeat(16)}:${'b'.repeat(32)}`,
    };
    const answers = await Promise.all(Object.values(presented).map(async (authorization) => refusal(await initialize({ authorization }))));
    for (const answer of answers) {
      expect(answer).toEqual(answers[0]);
    }
    expect(answers[0]).toMatchObject({ status: 401, challenge: expect.stringContaining('error="invalid_token"') });
    // Nothing presented comes back (the body is the same for all, so this holds for each).
    for (const [what, header] of Object.entries(presented)) {
      for (const part of header.split(' ').slice(1)) expect(answers[0]!.body, what).not.toContain(part);
    }
  });

  it('serves a valid key, and refuses it once revoked', async () => {
    const { key, record } = await createKey(['*']);
    expect((await initialize(bearer(key))).status).toBe(200);
    await revokeKey(record);
    expect((await initialize(bearer(key))).status).toBe(401);
  });

  it('serves a key until its expiry', async () => {
    const { key } = await createKey(['*'], { expiresAt: Date.now() + 60_000 });
    expect((await initialize(bearer(key))).status).toBe(200);
  });

  it.each([
    ['POST', '/mcp'],
    ['GET', '/mcp'],
    ['DELETE', '/mcp'],
    ['GET', '/sse'],
    ['GET', '/mcp/sse'],
    ['GET', '/mcp/sse?jsonrpc=2.0&method=tools/list&id=1'],
    ['POST', '/messages?sessionId=x'],
  ])('guards %s %s before anything else is looked at', async (method, path) => {
    const response = await call(path, { method, headers: { authorization: `Bearer n2f_${'x'.repeat(40)}`, 'content-type': 'text/plain' } });
    expect(response.status).toBe(401);
    const resource = path.startsWith('/mcp') ? 'mcp' : 'sse';
    expect(response.headers.get('www-authenticate')).toContain(`resource_metadata="${ORIGIN}/.well-known/oauth-protected-resource/${resource}"`);
  });

  it('leaves CORS preflight and /health open', async () => {
    const preflight = await call('/mcp', { method: 'OPTIONS', headers: { authorization: '', origin: ORIGIN, 'access-control-request-method': 'POST' } });
    expect(preflight.status).toBe(204);
    expect((await call('/health', { headers: { authorization: '' } })).status).toBe(200);
  });
});

describe('ALLOW_ANONYMOUS', () => {
  const withAnonymous = (init: RequestInit) => callWithEnv('/mcp', { ALLOW_ANONYMOUS: 'true' }, init);
  const init = (headers: Record<string, string> = {}): RequestInit => ({
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
    body: JSON.stringify(initializeRequest()),
  });

  it('serves callers without a credential only when the operator set it', async () => {
    expect((await withAnonymous(init())).status).toBe(200);
    expect((await initialize({ authorization: '' })).status).toBe(401);
  });

  it('still refuses a bad credential', async () => {
    expect((await withAnonymous(init({ authorization: `Bearer n2f_${'A'.repeat(40)}` }))).status).toBe(401);
  });
});
