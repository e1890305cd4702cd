import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { newRecord } from '../../src/sessions/session';

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
