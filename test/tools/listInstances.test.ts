import { env } from 'cloudflare:workers';
import { describe, expect, inject, it } from 'vitest';
import type { Env } from '../../src/env';
import { listInstances } from '../../src/tools/listInstances';
import { saveConnection } from '../../src/workspaces/connections';
import { keyRing } from '../../src/workspaces/secretBox';
import { newWorkspace, putWorkspace } from '../../src/workspaces/workspaces';
import { directContext } from '../support/hostile';

const n8nUrl = inject('n8nUrl');
const n8nKey = inject('n8nKey');
const CONNECTION_KEYS = `k1:${btoa(String.fromCharCode(...crypto.getRandomValues(new Uint8Array(32))))}`;
const dev = { serverOnLoopback: true, allowPrivateNetworks: false };

const listed = async (toolEnv: Env, workspace?: string) => {
  const ctx = directContext(toolEnv);
  return (await listInstances.run({}, { ...ctx, caller: { ...ctx.caller, ...(workspace ? { workspace } : {}) } })) as Record<string, unknown>;
};

describe('list_instances', () => {
  it("names the deployment's own n8n as default for a caller without a workspace, or says there is none", async () => {
    expect(await listed({ ...env, N8N_API_URL: 'https://n8n.example.com/api/v1', N8N_API_KEY: 'k' } as Env)).toEqual({
      instances: [{ name: 'default', url: 'https://n8n.example.com', default: true }],
    });
    expect(await listed(env as Env)).toEqual({ instances: [], hint: expect.stringContaining('No n8n is configured') });
  });

  it("names a workspace's connections, its default, their releases, never a key; says what to do with none or no default", async () => {
    const toolEnv = { ...env, CONNECTION_KEYS, API_KEY_CACHE_SECONDS: '0' } as Env;
    const record = newWorkspace('Acme');
    await putWorkspace(env.API_KEYS, record);
    expect(await listed(toolEnv, record.id)).toMatchObject({ workspace: 'Acme', instances: [], hint: expect.stringContaining('landing page') });
    const ring = await keyRing(CONNECTION_KEYS);
    for (const name of ['prod', 'dev'])
      await saveConnection(env.API_KEYS, ring, { workspace: record.id, name, url: `${n8nUrl}/n8n-1.123.81`, apiKey: n8nKey }, dev);
    const two = await listed(toolEnv, record.id);
    expect(two).toMatchObject({
      instances: [
        { name: 'dev', url: `${n8nUrl}/n8n-1.123.81`, default: false, release: '1.123.81' },
        { name: 'prod', default: false },
      ],
      hint: expect.stringContaining('No connection is the default'),
    });
    expect(JSON.stringify(two)).not.toContain(n8nKey);
    await putWorkspace(env.API_KEYS, { ...record, defaultConnection: 'prod' });
    expect(await listed(toolEnv, record.id)).toMatchObject({
      instances: [
        { name: 'dev', default: false },
        { name: 'prod', default: true },
      ],
    });
    expect(await listed(toolEnv, record.id)).not.toHaveProperty('hint');
  });
});
