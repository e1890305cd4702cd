import { env } from 'cloudflare:workers';
import { evictDurableObject } from 'cloudflare:test';
import type { JSONRPCMessage } from '@modelcontextprotocol/server';
import { describe, expect, it } from 'vitest';
import { isRestoreReply, replayInitialize } from '../../src/sessions/restore';
import { sessionStub } from '../../src/sessions/sessionId';
import { postJson, rpc, sessionHeaders } from '../support/mcp';
import { clientAsServed } from '../support/sessionStorage';

const params = { protocolVersion: '2025-03-26', capabilities: { roots: {} }, clientInfo: { name: 'vitest', version: '1' } };

/** The message replayInitialize hands a server. */
function replayed(): JSONRPCMessage {
  const seen: JSONRPCMessage[] = [];
  replayInitialize((message) => seen.push(message), params);
  expect(seen).toHaveLength(1);
  return seen[0]!;
}

describe('replaying the client’s initialize into a fresh server', () => {
  it('hands the server an initialize request carrying the client’s own params', () => {
    expect(replayed()).toMatchObject({ jsonrpc: '2.0', method: 'initialize', params, id: expect.anything() });
  });

  it('knows the server’s answer to the replay, and only that answer, as one to drop', () => {
    const { id } = replayed() as { id: string };
    expect(isRestoreReply({ jsonrpc: '2.0', id, result: { protocolVersion: '2025-03-26' } } as JSONRPCMessage)).toBe(true);
    expect(isRestoreReply({ jsonrpc: '2.0', id, error: { code: -32600, message: 'refused' } } as JSONRPCMessage)).toBe(true);
    // The client's own messages, whatever their id, go out.
    expect(isRestoreReply({ jsonrpc: '2.0', id: 1, result: {} })).toBe(false);
    expect(isRestoreReply({ jsonrpc: '2.0', id: 'restore', result: {} })).toBe(false);
    expect(isRestoreReply({ jsonrpc: '2.0', method: 'notifications/initialized' })).toBe(false);
  });
});

describe('a session brought back after eviction', () => {
  it('has a server that knows the client again: its protocol version, client info and capabilities', async () => {
    const client = {
      protocolVersion: '2025-03-26',
      capabilities: { roots: { listChanged: true }, sampling: {} },
      clientInfo: { name: 'restore-test', version: '7' },
    };
    const response = await postJson('/mcp', { jsonrpc: '2.0', id: 1, method: 'initialize', params: client });
    const sessionId = response.headers.get('mcp-session-id')!;
    await response.text();
    await postJson('/mcp', { jsonrpc: '2.0', method: 'notifications/initialized' }, sessionHeaders(sessionId, client.protocolVersion));
    const seen = { protocolVersion: client.protocolVersion, clientInfo: client.clientInfo, capabilities: client.capabilities };
    expect(await clientAsServed(sessionId)).toEqual(seen);

    await evictDurableObject(sessionStub(env, sessionId));
    expect(await clientAsServed(sessionId)).toBeUndefined();
    const { messages } = await rpc(sessionId, 'ping');
    // The server's answer to the replayed initialize never reaches the client.
    expect(messages).toEqual([{ jsonrpc: '2.0', id: 2, result: {} }]);
    expect(await clientAsServed(sessionId)).toEqual(seen);
  });
});
