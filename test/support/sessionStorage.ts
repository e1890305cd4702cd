import { env } from 'cloudflare:workers';
import { runInDurableObject } from 'cloudflare:test';
import type { PendingCall } from '../../src/sessions/PendingCalls';
import type { SessionObject } from '../../src/sessions/SessionObject';
import type { SessionObject as TestSessionObject } from '../entry/SessionObject';
import { sessionStub } from '../../src/sessions/sessionId';

/** Reads a session object's storage from a test. */
export const inSessionStorage = <T>(sessionId: string, read: (s: DurableObjectStorage) => Promise<T>) =>
  runInDurableObject(sessionStub(env, sessionId), (_: SessionObject, state) => read(state.storage));

/** The queued calls a session still owes an answer. */
export const pendingCalls = (sessionId: string) => inSessionStorage(sessionId, async (s) => [...(await s.list<PendingCall>({ prefix: 'pending:' })).values()]);

/** How many results the session's object (this instance of it) was handed, by what became of them: delivered or ignored. */
export const deliveries = (sessionId: string) => runInDurableObject(sessionStub(env, sessionId), (session: TestSessionObject) => ({ ...session.deliveries }));

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Polls `read` until `done` holds or `ms` pass; returns the last value either way, for the test to assert. */
export async function waitFor<T>(read: () => Promise<T>, done: (v: T) => boolean, ms = 10_000): Promise<T> {
  const until = Date.now() + ms;
  for (;;) {
    const value = await read();
    if (done(value) || Date.now() > until) return value;
    await sleep(50);
  }
}

/**
 * The client as the SDK server of a session's object knows it (protocol version, client info and
 * capabilities): undefined while the object has no server running, as after an eviction until a request wakes it.
 */
export const clientAsServed = (sessionId: string) =>
  runInDurableObject(sessionStub(env, sessionId), (session: SessionObject) => {
    const server = session['live']?.server.server;
    return (
      server && { protocolVersion: server.getNegotiatedProtocolVersion(), clientInfo: server.getClientVersion(), capabilities: server.getClientCapabilities() }
    );
  });
