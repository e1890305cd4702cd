import { afterAll, describe, expect, it } from 'vitest';
import { APP_MIME_TYPE, APPS_EXTENSION, VIEW_URI } from '../../src/server/view';
import { toolsFor } from '../../src/server/registry';
import { VIEW_HTML } from '../../src/view/built';
import { initializeRequest, postJson, rpc, sessionHeaders } from '../support/mcp';
import { modern } from '../support/modern';
import { loadCatalog } from '../support/catalog';
import { env } from 'cloudflare:workers';

const RENDERS_APPS = { extensions: { [APPS_EXTENSION]: { mimeTypes: [APP_MIME_TYPE] } } };
/** The tools whose calls the view draws (`view: true`), among those this deployment serves. */
const DRAWN = toolsFor(env)
  .filter((tool) => tool.view)
  .map((tool) => tool.name);

/** A 2025-era session whose client declared `capabilities` in its initialize. */
async function session(capabilities: Record<string, unknown>): Promise<string> {
  const initialize = initializeRequest(1);
  const response = await postJson('/mcp', { ...initialize, params: { ...initialize.params, capabilities } });
  await response.text();
  const sessionId = response.headers.get('mcp-session-id')!;
  await postJson('/mcp', { jsonrpc: '2.0', method: 'notifications/initialized' }, sessionHeaders(sessionId));
  return sessionId;
}

/** tools/list, resources/list and the view's resources/read, in either era, for a client with these capabilities. */
async function lists(era: 'sessions' | 'stateless', capabilities: Record<string, unknown>) {
  if (era === 'stateless') {
    const ask = async (method: string, params: Record<string, unknown> = {}) => (await modern(method, params, { capabilities })).body;
    return { tools: await ask('tools/list'), resources: await ask('resources/list'), read: await ask('resources/read', { uri: VIEW_URI }) };
  }
  const sessionId = await session(capabilities);
  return {
    tools: (await rpc(sessionId, 'tools/list', {}, 2)).reply,
    resources: (await rpc(sessionId, 'resources/list', {}, 3)).reply,
    read: (await rpc(sessionId, 'resources/read', { uri: VIEW_URI }, 4)).reply,
  };
}

const withoutView = (tools: { name: string; _meta?: Record<string, unknown> }[]) =>
  tools.map(({ _meta, ...tool }) => {
    if (!_meta) return tool;
    const { ui: _, ...rest } = _meta;
    return Object.keys(rest).length ? { ...tool, _meta: rest } : tool;
  });

describe.each(['sessions', 'stateless'] as const)('the workflow view, %s era', (era) => {
  it('is linked from each tool it draws, for a host that renders MCP Apps, and from no other tool', async () => {
    const { tools } = await lists(era, RENDERS_APPS);
    const linked = (tools.result.tools as { name: string; _meta?: { ui?: { resourceUri?: string } } }[]).filter((t) => t._meta?.ui);
    expect(linked.map((t) => t.name).sort()).toEqual([...DRAWN].sort());
    for (const tool of linked) expect(tool._meta!.ui!.resourceUri).toBe(VIEW_URI);
    expect(DRAWN).toEqual(expect.arrayContaining(['validate_workflow', 'autofix_workflow']));
  });

  it('is listed and read as an MCP App resource, self-contained: no domain to load anything from', async () => {
    const { resources, read } = await lists(era, RENDERS_APPS);
    expect(resources.result.resources).toContainEqual(expect.objectContaining({ uri: VIEW_URI, mimeType: APP_MIME_TYPE }));
    const [content] = read.result.contents;
    expect(content).toMatchObject({ uri: VIEW_URI, mimeType: APP_MIME_TYPE, text: VIEW_HTML, _meta: { ui: { csp: {} } } });
    // Nothing the page would fetch: no external script, style, font or image.
    expect(content.text).not.toMatch(/<(script|link|img)[^>]+(src|href)=|@import|url\((?!#)/i);
  });

  it('changes nothing for a client that declares no app support: the same lists, without the view', async () => {
    for (const capabilities of [{}, { extensions: { [APPS_EXTENSION]: { mimeTypes: ['text/plain'] } } }, { extensions: { other: {} } }]) {
      const plain = await lists(era, capabilities);
      const apps = await lists(era, RENDERS_APPS);
      expect(JSON.stringify(plain.tools.result.tools)).toBe(JSON.stringify(withoutView(apps.tools.result.tools)));
      expect(JSON.stringify(plain.tools.result.tools)).not.toContain('ui://');
      expect(JSON.stringify(plain.resources.result)).toBe(
        JSON.stringify({ ...apps.resources.result, resources: apps.resources.result.resources.filter((r: { uri: string }) => r.uri !== VIEW_URI) }),
      );
    }
  });
});

describe('the workflow view’s node looks', () => {
  afterAll(() => loadCatalog());

  it('come from the catalog the deployment serves, in the page as its JSON block', async () => {
    const looks = { about: 'test', types: { 'n8n-nodes-base.set': { name: 'Edit Fields', color: null, icon: 0 } }, icons: ['<svg viewBox="0 0 1 1"></svg>'] };
    await loadCatalog(undefined, undefined, { looks });
    const { read } = await lists('stateless', RENDERS_APPS);
    const text = read.result.contents[0].text as string;
    const block = /<script type="application\/json" id="node-looks">(.*?)<\/script>/s.exec(text);
    expect(JSON.parse(block![1]!)).toEqual(looks);
    await loadCatalog();
    const plain = (await lists('stateless', RENDERS_APPS)).read.result.contents[0].text;
    expect(plain).toBe(VIEW_HTML);
  });
});
