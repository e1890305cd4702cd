import { env } from 'cloudflare:workers';
import { evictDurableObject } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import { sessionStub } from '../../../src/sessions/sessionId';
import type { Principal } from '../../../src/principal';
import type { SessionRecord } from '../../../src/sessions/session';
import { call, initializeRequest, openSseSession, ORIGIN, postJson, sseReader } from '../../support/mcp';
import { clientAsServed, inSessionStorage, pendingCalls } from '../../support/sessionStorage';

/**
 * The Worker holds an HTTP+SSE session's one stream; its object only keeps the stream's hibernatable
 * socket. So the object is evicted between and during calls while its client waits, and comes back
 * from storage with its server as the client initialized it.
 */
describe('an HTTP+SSE session in its object', () => {
  it('evicts an HTTP+SSE session between and during calls; its server comes back initialized on the same stream', async () => {
    const stream = sseReader(await call('/sse'));
    const endpoint = (await stream.next()).data;
    const sessionId = new URL(endpoint, ORIGIN).searchParams.get('sessionId')!;
    await postJson(endpoint, initializeRequest(1, '2024-11-05'));
    await stream.next((frame) => frame.event === 'message');
    await postJson(endpoint, { jsonrpc: '2.0', method: 'notifications/initialized' });
    const client = { protocolVersion: '2024-11-05', clientInfo: { name: 'vitest', version: '1' }, capabilities: {} };

    await evictDurableObject(sessionStub(env, sessionId));
    await postJson(endpoint, { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'test_queued_slow', arguments: { ms: 400 } } });
    // The woken server knows the client from the initialize kept in storage.
    expect(await clientAsServed(sessionId)).toEqual(client);
    await evictDurableObject(sessionStub(env, sessionId));
    expect(await pendingCalls(sessionId)).toHaveLength(1);
    // The result reaches an object woken by it alone, which sends it on the stream's socket; the server's
    // answer to the replayed initialize is not sent.
    expect(JSON.parse((await stream.next((frame) => frame.event === 'message')).data)).toMatchObject({
      id: 2,
      result: { content: [{ text: 'slept 400 ms' }] },
    });

    await evictDurableObject(sessionStub(env, sessionId));
    await postJson(endpoint, { jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'server_info', arguments: {} } });
    expect(JSON.parse((await stream.next((frame) => frame.event === 'message')).data)).toMatchObject({ id: 3, result: { content: [{ type: 'text' }] } });
    expect(await clientAsServed(sessionId)).toEqual(client);
    await stream.cancel();
  });

  it('serves each POSTed message with its sender’s principal: the same key, its scopes narrowed since, sees less', async () => {
    const { endpoint, stream } = await openSseSession();
    const sessionId = new URL(endpoint, ORIGIN).searchParams.get('sessionId')!;
    const creator = (await inSessionStorage(sessionId, (storage) => storage.get<SessionRecord>('session')))!.principal;
    const narrowed = { ...creator, scopes: ['workflows:read'] };
    const names = async (id: number, principal: Principal) => {
      expect((await sessionStub(env, sessionId).postSseMessage([{ jsonrpc: '2.0', id, method: 'tools/list' }], principal)).status).toBe(202);
      const reply = JSON.parse((await stream.next((frame) => frame.event === 'message')).data);
      expect(reply.id).toBe(id);
      return reply.result.tools.map((tool: { name: string }) => tool.name);
    };
    expect(await names(2, creator)).toContain('search_nodes');
    const fewer = await names(3, narrowed);
    expect(fewer).not.toContain('search_nodes');
    expect(fewer).toContain('server_info');
    await stream.cancel();
  });
});
