import { env } from 'cloudflare:workers';
import { describe, expect, inject, it } from 'vitest';
import type { Env } from '../../src/env';
import type { Principal } from '../../src/principal';
import { connectionFor } from '../../src/workspaces/connectionFor';
import { saveConnection } from '../../src/workspaces/connections';
import { keyRing } from '../../src/workspaces/secretBox';
import { newWorkspace, putWorkspace, type WorkspaceRecord } from '../../src/workspaces/workspaces';

const n8nUrl = inject('n8nUrl');
const n8nKey = inject('n8nKey');
const dev = { serverOnLoopback: true, allowPrivateNetworks: false };
const randomKey = () => btoa(String.fromCharCode(...crypto.getRandomValues(new Uint8Array(32))));
/** A workspace stored as `npm run keys -- workspace create` stores one; its id. */
const workspace = async (name = 'team', fields: Partial<WorkspaceRecord> = {}) => {
  const record = { ...newWorkspace(name), ...fields };
  await putWorkspace(env.API_KEYS, record);
  return record.id;
};
const caller = (w?: string): Principal => ({ id: 'key_000000000001', subject: 'key_000000000001', scopes: ['*'], ...(w ? { workspace: w } : {}) });

describe('the connection a call acts on', () => {
  it("is the deployment's own n8n for a caller without a workspace, as before", async () => {
    const deployment = { ...env, N8N_API_URL: 'https://n8n.example.com/', N8N_API_KEY: 'k' } as Env;
    expect(await connectionFor(deployment, caller())).toEqual({ apiBase: 'https://n8n.example.com/api/v1', apiKey: 'k' });
    expect(await connectionFor(deployment, caller(), 'default')).toHaveProperty('apiKey', 'k');
    await expect(connectionFor(deployment, caller(), 'prod')).rejects.toThrow(/this server has one n8n, "default"/);
    await expect(connectionFor(env as Env, caller())).rejects.toThrow(/n8n is not configured/);
  });

  it("is the workspace's connection for its callers: the only one, or the one named, and never another workspace's", async () => {
    const keys = `k1:${randomKey()}`;
    const deployment = { ...env, CONNECTION_KEYS: keys } as Env;
    const ring = await keyRing(keys);
    const [mine, theirs] = [await workspace(), await workspace()];
    await expect(connectionFor(deployment, caller(mine))).rejects.toThrow(/has no n8n connection yet/);
    await saveConnection(env.API_KEYS, ring, { workspace: mine, name: 'dev', url: n8nUrl, apiKey: n8nKey }, dev);
    expect(await connectionFor(deployment, caller(mine))).toMatchObject({ apiBase: `${n8nUrl}/api/v1`, apiKey: n8nKey });
    await saveConnection(env.API_KEYS, ring, { workspace: mine, name: 'prod', url: `${n8nUrl}/n8n-1.123.81`, apiKey: n8nKey }, dev);
    await expect(connectionFor(deployment, caller(mine))).rejects.toThrow(/has 2 n8n connections \(dev, prod\): name one/);
    expect(await connectionFor(deployment, caller(mine), 'prod')).toHaveProperty('apiBase', `${n8nUrl}/n8n-1.123.81/api/v1`);
    // Their workspace has none of mine, whatever it names.
    await expect(connectionFor(deployment, caller(theirs), 'prod')).rejects.toThrow(/has no n8n connection "prod"/);
    await expect(connectionFor(deployment, caller(theirs))).rejects.toThrow(/has no n8n connection yet/);
  });

  it("is the workspace's default when it names one, and none once the workspace is removed", async () => {
    const keys = `k1:${randomKey()}`;
    const deployment = { ...env, CONNECTION_KEYS: keys, API_KEY_CACHE_SECONDS: '0' } as Env;
    const ring = await keyRing(keys);
    const id = await workspace('two', { defaultConnection: 'prod' });
    for (const name of ['dev', 'prod']) await saveConnection(env.API_KEYS, ring, { workspace: id, name, url: `${n8nUrl}/n8n-1.123.81`, apiKey: n8nKey }, dev);
    expect(await connectionFor(deployment, caller(id))).toMatchObject({ instance: { workspace: id, name: 'prod' } });
    expect(await connectionFor(deployment, caller(id), 'dev')).toMatchObject({ instance: { workspace: id, name: 'dev' } });
    await env.API_KEYS.delete(`workspace:${id}`);
    await expect(connectionFor(deployment, caller(id), 'dev')).rejects.toThrow(/workspace was removed/);
  });

  it('refuses, when it is opened, a connection at a private address once the operator no longer allows private networks', async () => {
    const keys = `k1:${randomKey()}`;
    const ring = await keyRing(keys);
    const id = await workspace('private');
    const answersLikeN8n: typeof fetch = async () => Response.json({ data: [] });
    const saved = await saveConnection(
      env.API_KEYS,
      ring,
      { workspace: id, name: 'lan', url: 'https://10.0.0.5', apiKey: 'k' },
      { serverOnLoopback: false, allowPrivateNetworks: true },
      { fetch: answersLikeN8n },
    );
    expect(saved).toHaveProperty('saved');
    const deployment = (allow?: string) => ({ ...env, CONNECTION_KEYS: keys, API_KEY_CACHE_SECONDS: '0', ALLOW_PRIVATE_N8N: allow }) as Env;
    expect(await connectionFor(deployment('true'), caller(id))).toHaveProperty('apiBase', 'https://10.0.0.5/api/v1');
    await expect(connectionFor(deployment(undefined), caller(id))).rejects.toThrow(
      /private address, which this server no longer calls \(its operator's ALLOW_PRIVATE_N8N is off\)/,
    );
  });

  it('keeps the connection a call without instance resolved for the cache time, so no call lists the workspace’s connections again', async () => {
    const keys = `k1:${randomKey()}`;
    const deployment = { ...env, CONNECTION_KEYS: keys, API_KEY_CACHE_SECONDS: '30' } as Env;
    const ring = await keyRing(keys);
    const id = await workspace('cached');
    const save = (name: string) => saveConnection(env.API_KEYS, ring, { workspace: id, name, url: n8nUrl, apiKey: n8nKey }, dev);
    await save('first');
    const start = 3_000_000_000_000;
    expect(await connectionFor(deployment, caller(id), undefined, () => start)).toMatchObject({ instance: { name: 'first' } });
    await save('second');
    // Within the cache time the resolved one stands (as a removal takes that long); after it, the call must name one.
    expect(await connectionFor(deployment, caller(id), undefined, () => start + 29_999)).toMatchObject({ instance: { name: 'first' } });
    await expect(connectionFor(deployment, caller(id), undefined, () => start + 30_000)).rejects.toThrow(/has 2 n8n connections/);
  });
});
