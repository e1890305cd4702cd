import { env } from 'cloudflare:workers';
import { runInDurableObject } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import { HttpError } from '../../src/protocol/httpError';
import type { SessionObject } from '../../src/sessions/SessionObject';
import type { SessionRecord } from '../../src/sessions/session';
import { onSession, sessionSocket, sessionStub } from '../../src/sessions/sessionId';
import { newSessionId } from '../../src/lib/sessionIds';
import { STANDALONE_STREAM_ID } from '../../src/server/sdkInternals';
import { openSession, parseSse } from '../support/mcp';

const readRecord = (sessionId: string) =>
  runInDurableObject(sessionStub(env, sessionId), (_: SessionObject, state) => state.storage.get<SessionRecord>('session'));

/** The first frame the object sends on a socket it handed the Worker. */
function firstFrame(socket: WebSocket): Promise<string> {
  socket.accept();
  socket.binaryType = 'arraybuffer';
  return new Promise((resolve, reject) => {
    socket.addEventListener('message', (event) => resolve(new TextDecoder().decode(event.data as ArrayBuffer)));
    socket.addEventListener('close', () => reject(new Error('closed before a frame')));
  });
}

describe('the session’s object', () => {
  it('is found by the session id: the same object for the same id, another for another', async () => {
    const sessionId = await openSession();
    expect(await readRecord(sessionId)).toMatchObject({ id: sessionId, transport: 'streamable-http' });
    expect(await readRecord(newSessionId())).toBeUndefined();
  });
});

describe('a call on a session’s object', () => {
  it('answers what the object answers', async () => {
    const sessionId = await openSession();
    expect(await onSession(env, sessionId, (session) => session.isPending('no such call'))).toBe(false);
  });

  it('turns a failed call on a session object into a 503 to retry, not a 500', async () => {
    const failing = onSession(env, 'A'.repeat(43), () => Promise.reject(new Error('Durable Object reset')));
    await expect(failing).rejects.toBeInstanceOf(HttpError);
    await expect(failing).rejects.toMatchObject({ status: 503, headers: { 'Retry-After': '1' } });
  });
});

describe('a socket for one of a session’s streams', () => {
  const principal = { id: 'key_session_socket', subject: 'key_session_socket', scopes: ['*'] };

  it('is opened as a WebSocket on the path asked for (/sse: a new HTTP+SSE session), for the principal given', async () => {
    const sessionId = newSessionId();
    const upgrade = await sessionSocket(env, sessionId, '/sse', { session: sessionId }, principal);
    expect(upgrade.status).toBe(101);
    const [endpoint] = parseSse(await firstFrame(upgrade.webSocket!));
    expect(endpoint).toMatchObject({ event: 'endpoint', data: `/messages?sessionId=${sessionId}` });
    expect(await readRecord(sessionId)).toMatchObject({ id: sessionId, transport: 'sse', principal });
    upgrade.webSocket!.close(1000, 'test done');
  });

  it('carries the principal: a stream asked for by someone else is refused like an unknown session', async () => {
    const sessionId = await openSession();
    const { principal: creator } = (await readRecord(sessionId))!;
    const refused = await sessionSocket(env, sessionId, '/stream', { id: STANDALONE_STREAM_ID }, principal);
    expect(refused.status).toBe(404);
    const upgrade = await sessionSocket(env, sessionId, '/stream', { id: STANDALONE_STREAM_ID }, creator);
    expect(upgrade.status).toBe(101);
    upgrade.webSocket!.accept();
    upgrade.webSocket!.close(1000, 'test done');
  });
});
