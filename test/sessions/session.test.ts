import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { newRecord } from '../../src/sessions/session';
import { bearer, createKey } from '../support/keys';
import { call, initializeRequest, openSession, postJson, rpc, sessionHeaders, sseReader } from '../support/mcp';

const principal = { id: 'key_record', subject: 'key_record', scopes: ['workflows:read'] };

describe('a new session record', () => {
  it('names the session, its transport and its creator, not yet initialized', () => {
    const record = newRecord(env, 'session-a', 'sse', principal);
    expect(record).toMatchObject({ id: 'session-a', transport: 'sse', principal, initialized: false });
    expect(record.initializeParams).toBeUndefined();
  });

  it('is created now, and expires one idle TTL (SESSION_IDLE_TTL_SECONDS) later', () => {
    const before = Date.now();
    const record = newRecord(env, 'session-b', 'streamable-http', principal);
    expect(record.createdAt).toBeGreaterThanOrEqual(before);
    expect(record.createdAt).toBeLessThanOrEqual(Date.now());
    expect(record.expiresAt - record.createdAt).toBe(600_000); // the test configuration's 600 s
    const short = newRecord({ ...env, SESSION_IDLE_TTL_SECONDS: '30' }, 'session-c', 'streamable-http', principal);
    expect(short.expiresAt - short.createdAt).toBe(30_000);
  });
});

/**
 * The session record names the principal that created it, the only one the session answers
 * (SessionObject checks each request against it). A session id is no credential: presented with
 * another principal's credential, the session does not exist.
 */
describe('sessions are bound to the principal that created them', () => {
  it('Streamable HTTP: POST, GET and DELETE with another key are answered like an unknown session', async () => {
    const owner = bearer((await createKey(['*'])).key);
    const other = bearer((await createKey(['*'])).key);
    const sessionId = await openSession(undefined, owner);
    const asOther = { ...other, ...sessionHeaders(sessionId) };
    const unknown = await postJson('/mcp', { jsonrpc: '2.0', id: 1, method: 'ping' }, { ...other, ...sessionHeaders('A'.repeat(43)) });

    const post = await postJson('/mcp', { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'server_info', arguments: {} } }, asOther);
    expect(post.status).toBe(404);
    expect(await post.text()).toBe(await unknown.text());
    expect((await call('/mcp', { headers: { ...asOther, accept: 'text/event-stream' } })).status).toBe(404);
    expect((await call('/mcp', { method: 'DELETE', headers: asOther })).status).toBe(404);

    // The owner's session is untouched by all of that.
    const response = await postJson('/mcp', { jsonrpc: '2.0', id: 3, method: 'ping' }, { ...owner, ...sessionHeaders(sessionId) });
    expect(response.status).toBe(200);
  });

  it.each(['/sse', '/mcp/sse'])('HTTP+SSE on %s: POST /messages with another key is a 404, the owner goes on', async (path) => {
    const owner = bearer((await createKey(['*'])).key);
    const other = bearer((await createKey(['*'])).key);
    const stream = sseReader(await call(path, { headers: owner }));
    const endpoint = (await stream.next((f) => f.event === 'endpoint')).data;

    const stolen = await postJson(endpoint, initializeRequest(1, '2024-11-05'), other);
    expect(stolen.status).toBe(404);
    expect(await stolen.json()).toMatchObject({ error: { message: expect.stringMatching(/^Session not found/) } });

    expect((await postJson(endpoint, initializeRequest(2, '2024-11-05'), owner)).status).toBe(202);
    const reply = JSON.parse((await stream.next((f) => f.event === 'message')).data);
    expect(reply).toMatchObject({ id: 2, result: { protocolVersion: '2024-11-05' } });
    await stream.cancel();
  });

  it('the same key in another request is the same principal', async () => {
    const sessionId = await openSession();
    const { status, reply } = await rpc(sessionId, 'ping');
    expect([status, reply?.result]).toEqual([200, {}]);
  });
});
