import { beforeEach, describe, expect, it } from 'vitest';
import { loadCatalog } from '../support/catalog';
import { bearer, createKey } from '../support/keys';
import { messagesOf, openSession, postJson, sessionHeaders } from '../support/mcp';
import { token, tokensFor } from '../support/oauth';

beforeEach(async () => {
  await loadCatalog();
});

const TEMPLATE = 'node-spec://{node_type}/{+subtype}';
const FORBIDDEN = 'Forbidden: node-spec:// resources need the scope "nodes:read", which this credential does not have';

/** What a session answers about its node-spec resources, asked with `access`. */
async function resourcesSeenBy(sessionId: string, access: Record<string, string>) {
  let id = 100;
  const rpc = async (method: string, params?: unknown) => {
    const sent = ++id;
    const response = await postJson('/mcp', { jsonrpc: '2.0', id: sent, method, params }, { ...access, ...sessionHeaders(sessionId) });
    return (await messagesOf(response)).find((m) => m.id === sent)!;
  };
  const templates = (await rpc('resources/templates/list')).result.resourceTemplates.map((t: { uriTemplate: string }) => t.uriTemplate);
  const read = await rpc('resources/read', { uri: 'node-spec://FLOW_NODE/IF' });
  const completed = await rpc('completion/complete', { ref: { type: 'ref/resource', uri: TEMPLATE }, argument: { name: 'node_type', value: 'ac' } });
  return { template: templates.includes(TEMPLATE), read: read.error ?? 'read', completed: completed.error ?? completed.result.completion.values };
}

describe('scopes gate the node-spec resources, per request', () => {
  it('serves them while the token has nodes:read, and refuses them in the same session once a refresh narrowed it', async () => {
    const { key } = await createKey(['nodes:read', 'workflows:read']);
    const issued = await tokensFor(key, 'nodes:read workflows:read');
    const sessionId = await openSession(undefined, bearer(issued.access_token));
    expect(await resourcesSeenBy(sessionId, bearer(issued.access_token))).toEqual({ template: true, read: 'read', completed: ['ACTION_NODE'] });

    const narrowed = await token({ grant_type: 'refresh_token', refresh_token: issued.refresh_token, client_id: issued.clientId, scope: 'workflows:read' });
    expect(narrowed).toMatchObject({ status: 200, body: { scope: 'workflows:read' } });
    const refused = { code: -32600, message: FORBIDDEN };
    expect(await resourcesSeenBy(sessionId, bearer(narrowed.body.access_token))).toEqual({ template: false, read: refused, completed: refused });
  });

  it('refuses them to a credential that never had nodes:read, naming the scope', async () => {
    const access = bearer((await createKey(['workflows:read'])).key);
    const sessionId = await openSession(undefined, access);
    const refused = { code: -32600, message: FORBIDDEN };
    expect(await resourcesSeenBy(sessionId, access)).toEqual({ template: false, read: refused, completed: refused });
  });
});
