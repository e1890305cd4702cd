import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import type { Env } from '../../src/env';
import { newWorkspace, putWorkspace, readWorkspace, workspaceKvName, workspaceOf, workspaceStands } from '../../src/workspaces/workspaces';

describe('workspace records', () => {
  it('are stored and read back; a malformed record, or one under another id, is none', async () => {
    const record = newWorkspace('Acme');
    expect(record).toEqual({ id: expect.stringMatching(/^[0-9a-f]{12}$/), name: 'Acme', createdAt: expect.any(Number) });
    await putWorkspace(env.API_KEYS, record);
    expect(await readWorkspace(env.API_KEYS, record.id)).toEqual(record);
    const other = newWorkspace('Other');
    await env.API_KEYS.put(workspaceKvName(other.id), JSON.stringify(record));
    expect(await readWorkspace(env.API_KEYS, other.id)).toBeNull();
    await env.API_KEYS.put(workspaceKvName(other.id), '{"id":');
    expect(await readWorkspace(env.API_KEYS, other.id)).toBeNull();
    expect(await readWorkspace(env.API_KEYS, '../key:x')).toBeNull();
  });

  it('are kept per isolate for the key-cache time, and read every time when it is 0', async () => {
    const record = newWorkspace('Cached');
    await putWorkspace(env.API_KEYS, record);
    const cached = { ...env, API_KEY_CACHE_SECONDS: '30' } as Env;
    const start = 2_000_000_000_000;
    expect(await workspaceOf(cached, record.id, start)).toEqual(record);
    await env.API_KEYS.delete(workspaceKvName(record.id));
    // Removed, but kept for 30 s here; read afresh after, and always with the cache off.
    expect(await workspaceOf(cached, record.id, start + 29_999)).toEqual(record);
    expect(await workspaceOf(cached, record.id, start + 30_000)).toBeNull();
    expect(await workspaceStands({ ...env, API_KEY_CACHE_SECONDS: '0' } as Env, { workspace: record.id })).toBe(false);
    expect(await workspaceStands(env as Env, {})).toBe(true);
  });
});
