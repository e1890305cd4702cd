import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { SCOPES, scopesOf } from '../../src/auth/scopes';
import { toolsFor } from '../../src/server/registry';
import { loadCatalog } from '../support/catalog';
import { bearer, createKey } from '../support/keys';
import { messagesOf, openSession, postJson, sessionHeaders } from '../support/mcp';
import type { Scope } from '../../src/auth/scopes';

async function sessionWith(scopes: Scope[]) {
  const auth = bearer((await createKey(scopes)).key);
  const sessionId = await openSession(undefined, auth);
  const rpc = async (method: string, params?: unknown) => {
    const response = await postJson('/mcp', { jsonrpc: '2.0', id: 7, method, params }, { ...auth, ...sessionHeaders(sessionId) });
    return (await messagesOf(response)).find((m) => m.id === 7)!;
  };
  return { rpc, listed: async () => (await rpc('tools/list')).result.tools.map((t: { name: string }) => t.name) as string[] };
}

describe('scopes gate the tools', () => {
  it('lists only the tools a key may call', async () => {
    const nodes = await sessionWith(['nodes:read']);
    expect(await nodes.listed()).toEqual(expect.arrayContaining(['server_info', 'get_node_types', 'get_node_details', 'search_nodes']));
    const narrow = await sessionWith(['workflows:read']);
    const names = await narrow.listed();
    expect(names).toContain('server_info');
    expect(names).not.toContain('search_nodes');
  });

  it('refuses a call outside the scopes with an error result naming the missing scope, before looking at arguments', async () => {
    const { rpc } = await sessionWith(['workflows:read']);
    for (const args of [{ query: 'slack' }, { query: 42 }]) {
      const reply = await rpc('tools/call', { name: 'search_nodes', arguments: args });
      expect(reply.result).toEqual({
        isError: true,
        content: [{ type: 'text', text: 'Error: Forbidden: search_nodes needs the scope "nodes:read", which this credential does not have' }],
      });
    }
  });

  it('serves the knowledge tools and node-spec resources with nodes:read, and hides the resources without it', async () => {
    await loadCatalog();
    const allowed = await sessionWith(['nodes:read']);
    const search = await allowed.rpc('tools/call', { name: 'search_nodes', arguments: { query: 'http request' } });
    expect(search.result.isError).toBeUndefined();
    const templates = async (session: typeof allowed) =>
      (await session.rpc('resources/templates/list')).result.resourceTemplates.map((t: { uriTemplate: string }) => t.uriTemplate);
    expect(await templates(allowed)).toContain('node-spec://{node_type}/{+subtype}');
    const denied = await sessionWith(['workflows:read']);
    // (The test configuration's conformance pack adds templates of its own.)
    expect(await templates(denied)).not.toContain('node-spec://{node_type}/{+subtype}');
  });

  it('gives every n8n tool its resource scope: read for read-only tools, write otherwise', () => {
    const n8n = toolsFor({ ...env, N8N_API_URL: 'https://n8n.example', N8N_API_KEY: 'k' }).filter((t) => t.annotations.openWorldHint);
    expect(n8n).toHaveLength(43);
    const scopeOf = Object.fromEntries(n8n.map((t) => [t.name, t.scope]));
    expect(scopeOf).toMatchObject({
      list_workflows: 'workflows:read',
      update_workflow: 'workflows:write',
      delete_execution: 'executions:write',
      get_credential_schema: 'credentials:read',
      create_credential: 'credentials:write',
      update_workflow_tags: 'tags:write',
      list_users: 'users:read',
      create_variable: 'variables:write',
      list_projects: 'projects:read',
      get_audit_events: 'audit:read',
      edit_workflow: 'workflows:write',
      test_workflow: 'workflows:write',
      try_nodes: 'workflows:write',
      list_workflow_versions: 'workflows:read',
      diff_workflow_versions: 'workflows:read',
      restore_workflow_version: 'workflows:write',
      list_workflow_tests: 'workflows:read',
      run_workflow_tests: 'workflows:write',
    });
    // A test run also reads the execution it caused.
    expect(scopesOf(n8n.find((t) => t.name === 'test_workflow')!)).toEqual(['workflows:write', 'executions:read']);
    // A try reads and deletes only the execution of the throwaway workflow it made: no executions scope.
    expect(scopesOf(n8n.find((t) => t.name === 'try_nodes')!)).toEqual(['workflows:write']);
    for (const tool of n8n) expect(SCOPES).toContain(tool.scope);
    // Every scope but *, nodes:read, the node classes' (the node gate's: test/tools/n8n/nodeGate.test.ts) and
    // instances:write (the pages', test/page/connectionsApi.test.ts) gates at least one n8n tool.
    const notTools = ['*', 'nodes:read', 'workflows:code', 'workflows:host', 'credentials:use', 'instances:write'];
    expect(new Set(n8n.map((t) => t.scope))).toEqual(new Set(SCOPES.filter((s) => !notTools.includes(s))));
  });
});
