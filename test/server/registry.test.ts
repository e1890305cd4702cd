import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import type { Env } from '../../src/env';
import { n8nConnection } from '../../src/n8n/client';
import { toolsFor } from '../../src/server/registry';
import { rpc, openSession } from '../support/mcp';

describe('the tool registry', () => {
  it('leaves the n8n tools out of tools/list until an n8n is configured', async () => {
    const sessionId = await openSession();
    const { reply } = await rpc(sessionId, 'tools/list');
    const names = reply?.result.tools.map((t: { name: string }) => t.name);
    expect(names).toContain('search_nodes');
    expect(names).not.toContain('list_workflows');
  });

  it('serves the 43 n8n tools (seed 003’s 31, edit_workflow, test_workflow, try_nodes, five of the version history, four of the stored tests), queued, once N8N_API_URL and N8N_API_KEY are set', () => {
    const configured = toolsFor({ ...env, N8N_API_URL: 'https://n8n.example', N8N_API_KEY: 'k' });
    const n8n = configured.filter((t) => t.annotations.openWorldHint);
    expect(n8n).toHaveLength(43);
    expect(new Set(n8n.map((t) => t.execution))).toEqual(new Set(['queued']));
    expect(toolsFor({ ...env, N8N_API_URL: 'https://n8n.example' }).some((t) => t.name === 'list_workflows')).toBe(false);
  });

  it('where workspaces are on (CONNECTION_KEYS), serves list_instances and the n8n tools, each taking `instance`; otherwise no n8n tool takes it', () => {
    const n8nTools = (vars: Partial<Env>) => toolsFor({ ...env, ...vars }).filter((t) => t.annotations.openWorldHint);
    const workspaces = toolsFor({ ...env, CONNECTION_KEYS: 'k1:x' });
    expect(workspaces.map((t) => t.name)).toContain('list_instances');
    const taking = n8nTools({ CONNECTION_KEYS: 'k1:x' });
    expect(taking).toHaveLength(43);
    for (const tool of taking) expect(Object.keys(tool.input.shape), tool.name).toContain('instance');
    for (const tool of n8nTools({ N8N_API_URL: 'https://n8n.example', N8N_API_KEY: 'k' })) expect(Object.keys(tool.input.shape)).not.toContain('instance');
    expect(toolsFor(env).map((t) => t.name)).not.toContain('list_instances');
  });

  it('names, for each n8n tool that changes n8n, a tool it serves that shows whether an interrupted call made its change', () => {
    const configured = toolsFor({ ...env, N8N_API_URL: 'https://n8n.example', N8N_API_KEY: 'k' });
    const names = new Set(configured.map((t) => t.name));
    for (const tool of configured.filter((t) => t.annotations.openWorldHint && !t.annotations.readOnlyHint)) {
      expect(tool.checkWith && names.has(tool.checkWith), tool.name).toBe(true);
    }
    expect(configured.find((t) => t.name === 'create_workflow')?.checkWith).toBe('list_workflows');
    expect(configured.find((t) => t.name === 'test_workflow')).toMatchObject({ checkWith: 'list_executions', annotations: { idempotentHint: false } });
    // What an interrupted try_nodes may have left is a throwaway workflow.
    expect(configured.find((t) => t.name === 'try_nodes')).toMatchObject({ checkWith: 'list_workflows', annotations: { idempotentHint: false } });
  });

  it('reads N8N_API_URL as the instance URL or the API URL', () => {
    for (const url of ['https://n8n.example', 'https://n8n.example/', 'https://n8n.example/api/v1', 'https://n8n.example/api/v1/']) {
      expect(n8nConnection({ ...env, N8N_API_URL: url, N8N_API_KEY: 'k' })?.apiBase).toBe('https://n8n.example/api/v1');
    }
    expect(n8nConnection({ ...env, N8N_API_URL: ' ', N8N_API_KEY: 'k' })).toBeUndefined();
  });
});
