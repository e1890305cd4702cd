import { env } from 'cloudflare:workers';
import { describe, expect, inject, it } from 'vitest';
import {
  connectionKvName,
  listConnections,
  MAX_CONNECTIONS,
  openConnection,
  removeConnection,
  renameConnection,
  resealConnection,
  saveConnection,
} from '../../src/workspaces/connections';
import { keyRing } from '../../src/workspaces/secretBox';
import { newWorkspace, putWorkspace, readWorkspace } from '../../src/workspaces/workspaces';

/** In workerd, against the real KV binding and the contract fake of n8n. */
const n8nUrl = inject('n8nUrl');
const n8nKey = inject('n8nKey');
const dev = { serverOnLoopback: true, allowPrivateNetworks: false };
const ring = () => keyRing(`k1:${btoa(String.fromCharCode(...crypto.getRandomValues(new Uint8Array(32))))}`);
const workspace = () => Array.from(crypto.getRandomValues(new Uint8Array(6)), (b) => b.toString(16).padStart(2, '0')).join('');

describe('a workspace’s n8n connections', () => {
  it('saves a connection whose test passed, the key sealed, and opens it again for the client', async () => {
    const keys = await ring();
    const w = workspace();
    const result = await saveConnection(env.API_KEYS, keys, { workspace: w, name: 'prod', url: `${n8nUrl}/n8n-1.123.81/api/v1`, apiKey: n8nKey }, dev);
    expect(result).toEqual({ saved: expect.objectContaining({ workspace: w, name: 'prod', base: `${n8nUrl}/n8n-1.123.81`, release: '1.123.81' }) });
    const stored = (await env.API_KEYS.get(connectionKvName(w, 'prod')))!;
    expect(stored).not.toContain(n8nKey);
    expect(await openConnection(env.API_KEYS, keys, w, 'prod')).toEqual({
      apiBase: `${n8nUrl}/n8n-1.123.81/api/v1`,
      apiKey: n8nKey,
      instance: { workspace: w, name: 'prod', id: expect.stringMatching(/^[0-9a-f]{16}$/) },
    });
    const listed = await listConnections(env.API_KEYS, w);
    expect(listed.map((c) => c.name)).toEqual(['prod']);
    expect(JSON.stringify(listed)).not.toContain('sealedKey');
  });

  it('writes nothing when the URL or the test fails, and a failed replacement leaves the previous connection working', async () => {
    const keys = await ring();
    const w = workspace();
    const save = (url: string, apiKey = n8nKey, name = 'prod') => saveConnection(env.API_KEYS, keys, { workspace: w, name, url, apiKey }, dev);
    expect(await save('https://10.0.0.1')).toEqual({ problem: expect.stringContaining('ALLOW_PRIVATE_N8N') });
    expect(await save(n8nUrl, 'n8n_api_wrong')).toEqual({ problem: expect.stringContaining('refused the API key') });
    expect(await save(n8nUrl, '  ')).toEqual({ problem: expect.stringContaining('no n8n API key given') });
    expect(await save(n8nUrl, n8nKey, 'Prod!')).toEqual({ problem: expect.stringContaining('is not a connection name') });
    expect(await listConnections(env.API_KEYS, w)).toEqual([]);
    expect(await save(n8nUrl)).toHaveProperty('saved');
    expect(await save(n8nUrl, 'n8n_api_wrong')).toHaveProperty('problem');
    expect(await openConnection(env.API_KEYS, keys, w, 'prod')).toMatchObject({ apiBase: `${n8nUrl}/api/v1`, apiKey: n8nKey });
  });

  it('opens no other workspace’s connection, and a sealed key copied to another record does not open', async () => {
    const keys = await ring();
    const [mine, theirs] = [workspace(), workspace()];
    await saveConnection(env.API_KEYS, keys, { workspace: theirs, name: 'prod', url: n8nUrl, apiKey: n8nKey }, dev);
    expect(await openConnection(env.API_KEYS, keys, mine, 'prod')).toBeUndefined();
    expect(await listConnections(env.API_KEYS, mine)).toEqual([]);
    // Their record copied under my name is not mine; rewritten to say it is, its key still does not open: it is sealed to their workspace.
    const theirRecord = JSON.parse((await env.API_KEYS.get(connectionKvName(theirs, 'prod')))!);
    await env.API_KEYS.put(connectionKvName(mine, 'prod'), JSON.stringify(theirRecord));
    expect(await openConnection(env.API_KEYS, keys, mine, 'prod')).toBeUndefined();
    await env.API_KEYS.put(connectionKvName(mine, 'prod'), JSON.stringify({ ...theirRecord, workspace: mine }));
    await expect(openConnection(env.API_KEYS, keys, mine, 'prod')).rejects.toThrow(/belongs to another record/);
    // Names that are not names read nothing.
    expect(await openConnection(env.API_KEYS, keys, `${mine}:x`, 'prod')).toBeUndefined();
    expect(await openConnection(env.API_KEYS, keys, mine, '../prod')).toBeUndefined();
  });

  it('renames a connection keeping its id and key, the default following; refuses a taken or bad name; removes one, and the default with it', async () => {
    const keys = await ring();
    const record = { ...newWorkspace('team'), defaultConnection: 'prod' };
    await putWorkspace(env.API_KEYS, record);
    const w = record.id;
    for (const name of ['prod', 'dev']) await saveConnection(env.API_KEYS, keys, { workspace: w, name, url: n8nUrl, apiKey: n8nKey }, dev);
    const before = await openConnection(env.API_KEYS, keys, w, 'prod');
    expect(await renameConnection(env.API_KEYS, w, 'prod', 'dev')).toEqual({ problem: expect.stringContaining('has a connection "dev" already') });
    expect(await renameConnection(env.API_KEYS, w, 'prod', 'Prod!')).toEqual({ problem: expect.stringContaining('is not a connection name') });
    expect(await renameConnection(env.API_KEYS, w, 'nope', 'live')).toEqual({ problem: expect.stringContaining('no connection "nope"') });
    expect(await renameConnection(env.API_KEYS, w, 'prod', 'live')).toHaveProperty('saved.name', 'live');
    const after = await openConnection(env.API_KEYS, keys, w, 'live');
    expect(after).toEqual({ ...before, instance: { ...before!.instance, name: 'live' } });
    expect(await readWorkspace(env.API_KEYS, w)).toHaveProperty('defaultConnection', 'live');
    expect(await openConnection(env.API_KEYS, keys, w, 'prod')).toBeUndefined();
    expect(await removeConnection(env.API_KEYS, w, 'live')).toBe(true);
    expect(await removeConnection(env.API_KEYS, w, 'live')).toBe(false);
    expect(await readWorkspace(env.API_KEYS, w)).not.toHaveProperty('defaultConnection');
    expect((await listConnections(env.API_KEYS, w)).map((c) => c.name)).toEqual(['dev']);
  });

  it('reseals a key under the newest key of the ring, after which the old one can be dropped', async () => {
    const random = () => btoa(String.fromCharCode(...crypto.getRandomValues(new Uint8Array(32))));
    const [oldKey, newKey] = [random(), random()];
    const w = workspace();
    await saveConnection(env.API_KEYS, await keyRing(`old:${oldKey}`), { workspace: w, name: 'prod', url: n8nUrl, apiKey: n8nKey }, dev);
    const rotated = await keyRing(`new:${newKey},old:${oldKey}`);
    expect(await resealConnection(env.API_KEYS, rotated, w, 'prod')).toBe(true);
    expect(await resealConnection(env.API_KEYS, rotated, w, 'prod')).toBe(false);
    expect(await openConnection(env.API_KEYS, await keyRing(`new:${newKey}`), w, 'prod')).toMatchObject({ apiKey: n8nKey });
  });

  it('holds at most MAX_CONNECTIONS per workspace: one more is refused and nothing written, a replacement still goes through', async () => {
    const keys = await ring();
    const w = workspace();
    const answersLikeN8n: typeof fetch = async () => Response.json({ data: [] });
    const save = (name: string) =>
      saveConnection(env.API_KEYS, keys, { workspace: w, name, url: 'https://n8n.example.com', apiKey: 'k' }, dev, { fetch: answersLikeN8n });
    for (let i = 0; i < MAX_CONNECTIONS; i++) expect(await save(`c${i}`)).toHaveProperty('saved');
    expect(await save('one-more')).toEqual({ problem: expect.stringContaining(`has ${MAX_CONNECTIONS} n8n connections, as many as one may hold`) });
    expect(await openConnection(env.API_KEYS, keys, w, 'one-more')).toBeUndefined();
    expect(await save('c0')).toHaveProperty('saved');
  });
});
