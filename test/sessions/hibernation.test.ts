import { env } from 'cloudflare:workers';
import { evictDurableObject } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import { sessionStub } from '../../src/sessions/sessionId';
import { newSessionId } from '../../src/lib/sessionIds';
import { PRINCIPAL_HEADER } from '../../src/sessions/handoff/handoff';
import { PARKED, QUERY_STREAM_ID } from '../../src/sessions/query/queryMessages';
import { inSessionStorage, pendingCalls, waitFor } from '../support/sessionStorage';
import { parseSse } from '../support/mcp';

describe('idle clients cost their session object nothing', () => {
  it('lets a query-mode object sleep while its queued call runs; the answer waits for the Worker’s socket', async () => {
    const id = newSessionId();
    const stub = sessionStub(env, id);
    const principal = { id: 'key_hibernation', subject: 'key_hibernation', scopes: ['*'] };
    const request = { jsonrpc: '2.0' as const, id: 9, method: 'mcp/executeTool', params: { toolId: 'test_queued_slow', inputs: { ms: 300 } } };
    expect(await stub.serveQuery(request, id, principal)).toBe(PARKED);
    await evictDurableObject(stub);
    expect(await pendingCalls(id)).toHaveLength(1);
    await waitFor(
      () => pendingCalls(id),
      (p) => p.length === 0,
    ); // answered while nobody held the socket
    const upgrade = await stub.fetch(`https://session/stream?id=${QUERY_STREAM_ID}`, {
      headers: { upgrade: 'websocket', [PRINCIPAL_HEADER]: JSON.stringify(principal) },
    });
    const socket = upgrade.webSocket!;
    socket.accept();
    socket.binaryType = 'arraybuffer';
    const frames: string[] = [];
    const closed = new Promise((resolve) => socket.addEventListener('close', resolve));
    socket.addEventListener('message', (event) => frames.push(new TextDecoder().decode(event.data as ArrayBuffer)));
    await closed;
    const [event] = parseSse(frames.join(''));
    expect(event).toMatchObject({ event: 'mcpResponse', id: '9' });
    expect(JSON.parse(event!.data)).toMatchObject({ id: 9, result: { outputs: { text: 'slept 300 ms' } } });
    // Nothing outlives the query.
    expect(await inSessionStorage(id, async (storage) => [...(await storage.list()).keys()])).toEqual([]);
  });
});
