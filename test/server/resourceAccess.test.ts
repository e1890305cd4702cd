import { beforeEach, describe, expect, it } from 'vitest';
import { loadCatalog } from '../support/catalog';
import { bearer, createKey } from '../support/keys';
import { messagesOf, openSession, openSseSession, postJson, sessionHeaders } from '../support/mcp';
import { modern } from '../support/modern';
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

/**
 * Spellings of a node-spec URI that the SDK's URL parser reads as the same URI, so it serves them as
 * node-spec resources: the scope must be checked on each, whatever the spelling.
 */
const SPELLINGS = [
  'node-spec://FLOW_NODE/IF',
  'NODE-SPEC://FLOW_NODE/IF',
  'Node-Spec://FLOW_NODE/IF',
  ' node-spec://FLOW_NODE/IF',
  '\tnode-spec://FLOW_NODE/IF\n',
];

/** resources/read of each spelling, in a 2025-era session, over HTTP+SSE (/sse) and as a 2026-07-28 request: the error, or the subtype read. */
async function readEverywhere(access: Record<string, string>) {
  const outcome = (message: Record<string, any>) => message.error ?? JSON.parse(message.result.contents[0].text).subtype;
  const sessionId = await openSession(undefined, access);
  const sse = await openSseSession(access);
  const answers: Record<string, unknown[]> = { session: [], sse: [], modern: [] };
  for (const [i, uri] of SPELLINGS.entries()) {
    const request = { jsonrpc: '2.0', id: 200 + i, method: 'resources/read', params: { uri } };
    answers.session!.push(
      outcome((await messagesOf(await postJson('/mcp', request, { ...access, ...sessionHeaders(sessionId) }))).find((m) => m.id === request.id)!),
    );
    await postJson(sse.endpoint, request, access);
    answers.sse!.push(outcome(JSON.parse((await sse.stream.next((f) => f.event === 'message' && JSON.parse(f.data).id === request.id)).data)));
    // Mcp-Name mirrors the URI; one a header cannot carry as it is (blanks around it) is Base64, as the SDK's client sends it.
    const mcpName = uri === uri.trim() ? uri : `=?base64?${btoa(uri)}?=`;
    answers.modern!.push(outcome((await modern('resources/read', { uri }, { headers: { ...access, 'mcp-name': mcpName } })).body));
  }
  await sse.stream.cancel();
  return answers;
}

describe('the node-spec scope holds however the URI is spelled', () => {
  it('refuses every spelling the SDK serves as a node spec to a caller without nodes:read, in both eras and over /sse', async () => {
    const refused = { code: -32600, message: FORBIDDEN };
    const everywhere = (answer: unknown) => ({ session: SPELLINGS.map(() => answer), sse: SPELLINGS.map(() => answer), modern: SPELLINGS.map(() => answer) });
    // Positive control: each spelling is a node-spec URI to the SDK, which serves it with the scope.
    expect(await readEverywhere(bearer((await createKey(['nodes:read'])).key))).toEqual(everywhere('IF'));
    expect(await readEverywhere(bearer((await createKey(['tags:read'])).key))).toEqual(everywhere(refused));
  });
});
