import { env } from 'cloudflare:workers';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { bearer, createKey, revokeKey } from '../support/keys';
import { call, messagesOf, openSession, postJson, sessionHeaders } from '../support/mcp';
import { pendingCalls, waitFor } from '../support/sessionStorage';

/** Everything the Worker, the session objects and the queue consumer print while a test runs. */
let printed: string[] = [];
beforeEach(() => {
  printed = [];
  for (const level of ['log', 'info', 'warn', 'error', 'debug'] as const) {
    vi.spyOn(console, level).mockImplementation((...args: unknown[]) => void printed.push(args.map(String).join(' ')));
  }
});
afterEach(() => vi.restoreAllMocks());

describe('no key material in logs', () => {
  it('prints no API key, OAuth token, code verifier or operator password, whatever happens', async () => {
    const secrets: string[] = [env.OPERATOR_PASSWORD!];
    const good = await createKey(['*']);
    const revoked = await createKey(['*']);
    await revokeKey(revoked.record);
    secrets.push(good.key, revoked.key, `n2f_${'Q'.repeat(40)}`);

    // Refused credentials of every kind.
    for (const key of secrets.slice(1)) await postJson('/mcp', { jsonrpc: '2.0', id: 1, method: 'ping' }, bearer(key));
    await postJson('/mcp', { jsonrpc: '2.0', id: 1, method: 'ping' }, { authorization: `Bearer key_x:${'a'.repeat(16)}:${'s'.repeat(32)}` });

    // An OAuth client, a token request that fails (the library reports it through onError) and one that works.
    const registered = await call('/oauth/register', {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: '' },
      body: JSON.stringify({ client_name: 'logs', redirect_uris: ['http://127.0.0.1:1/cb'], token_endpoint_auth_method: 'none' }),
    });
    const clientId = ((await registered.json()) as { client_id: string }).client_id;
    const badCode = `key_x:${'g'.repeat(16)}:${'c'.repeat(32)}`;
    secrets.push(badCode);
    await call('/oauth/token', {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', authorization: '' },
      body: new URLSearchParams({
        grant_type: 'authorization_code',
        code: badCode,
        code_verifier: 'v'.repeat(43),
        client_id: clientId,
        redirect_uri: 'http://127.0.0.1:1/cb',
      }).toString(),
    });

    // A session doing work, and a queued tool that fails and is retried until the dead-letter queue answers.
    const auth = bearer(good.key);
    const sessionId = await openSession(undefined, auth);
    const failing = await postJson(
      '/mcp',
      { jsonrpc: '2.0', id: 5, method: 'tools/call', params: { name: 'test_queued_fail', arguments: {} } },
      { ...auth, ...sessionHeaders(sessionId) },
    );
    await messagesOf(failing);
    await waitFor(
      () => pendingCalls(sessionId),
      (p) => p.length === 0,
      15_000,
    );

    expect(printed.length).toBeGreaterThan(0); // something was printed, so the check below means something
    for (const line of printed) for (const secret of secrets) expect(line).not.toContain(secret);
  }, 30_000);
});
