import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { nodePolicyOf, policySummary } from '../../src/auth/nodePolicy';
import { TRANSPORTS } from '../../src/config';
import { connectGuides } from '../../src/page/connect';
import { landingPage, type LandingInfo } from '../../src/page/landingHtml';
import { toolView, type ToolView } from '../../src/page/toolView';
import { toolsFor } from '../../src/server/registry';
import { searchNodes } from '../../src/tools/nodes/searchNodes';
import { elements } from '../support/html';

const ORIGIN = 'https://mcp.example';
const N8N = { N8N_API_URL: 'https://n8n.internal.example', N8N_API_KEY: 'n8n-secret-api-key' };

const bare: ToolView = { name: 'bare_tool', title: 'Bare', description: 'Takes nothing.', scope: null, annotations: [], parameters: [] };
const twoScopes: ToolView = {
  name: 'two_scopes',
  title: 'Two scopes',
  description: 'Needs two.',
  scope: 'workflows:write executions:read',
  annotations: [['destructiveHint', true]],
  parameters: [{ name: 'id', type: 'string', required: true }],
};

const info = (changes: Partial<LandingInfo> = {}): LandingInfo => ({
  origin: ORIGIN,
  name: 'n8n-mcp-edge',
  title: 'n8n MCP',
  version: '1.2.3',
  catalog: { version: 'v7', sources: ['seed', 'n8n'], specs: 12 },
  nodeTypes: [
    ['ACTION_NODE', 3],
    ['FLOW_NODE', 6],
  ],
  transports: TRANSPORTS,
  n8nConfigured: false,
  workspaces: false,
  publicCatalog: false,
  guides: connectGuides(ORIGIN),
  tools: [toolView(searchNodes), bare, twoScopes],
  nodeClasses: policySummary(nodePolicyOf(env)),
  ...changes,
});

const page = (changes?: Partial<LandingInfo>) => landingPage(info(changes));
const textOf = async (changes: Partial<LandingInfo>, selector: string) => (await elements(page(changes), selector)).map((e) => e.text);

describe('landingPage: the facts', () => {
  it('says what the server is: its endpoint, version, catalog, transports, and whether n8n is configured', async () => {
    expect(await textOf({}, '.facts dd')).toEqual([
      `${ORIGIN}/mcp Copy the MCP endpoint`,
      '1.2.3',
      '12 node specifications (seed + n8n) · version v7',
      TRANSPORTS.join(''),
      'not configured (the operator sets N8N_API_URL and N8N_API_KEY)',
    ]);
    expect((await textOf({ n8nConfigured: true }, '.facts dd'))[4]).toBe('configured');
    expect(await textOf({}, 'h1')).toEqual(['n8n MCP']);
  });

  it('says how to load a catalog when none is', async () => {
    expect((await textOf({ catalog: null }, '.facts dd'))[2]).toBe('not loaded: run npm run catalog:load');
  });

  it('mentions driving an n8n only when one is configured', async () => {
    expect((await textOf({}, '.lead'))[0]).not.toContain('n8n instance');
    expect((await textOf({ n8nConfigured: true }, '.lead'))[0]).toMatch(/and drives an n8n instance\.$/);
  });

  it('offers each node type with its size in the explorer filter, after "All types"', async () => {
    const options = await elements(page(), '#node-type option');
    expect(options.map((o) => [o.attrs.value, o.text])).toEqual([
      ['', 'All types'],
      ['ACTION_NODE', 'ACTION_NODE (3)'],
      ['FLOW_NODE', 'FLOW_NODE (6)'],
    ]);
  });
});

describe('landingPage: connecting', () => {
  it('shows each snippet with a copy button that points at it and names what it copies', async () => {
    const snippets = await elements(page(), '.snippet pre');
    const buttons = await elements(page(), '.snippet button.copy');
    expect(snippets.map((p) => p.text)).toEqual(connectGuides(ORIGIN).flatMap((g) => g.snippets.map((s) => s.text)));
    expect(buttons).toHaveLength(snippets.length);
    // Each button names what it copies, for screen readers, and points at its snippet.
    expect(buttons.map((b) => b.attrs['data-copy'])).toEqual(snippets.map((p) => p.attrs.id));
    expect(new Set(snippets.map((p) => p.attrs.id)).size).toBe(snippets.length);
    expect(buttons.map((b) => b.text)).toEqual(connectGuides(ORIGIN).flatMap((g) => g.snippets.map((s) => `Copy the ${s.label}`)));
  });

  it('gives each guide its heading, its steps, and a caption above the snippets that have one', async () => {
    const guides = connectGuides(ORIGIN);
    expect(await textOf({}, '.guide h3')).toEqual(guides.map((g) => g.title));
    expect(await textOf({}, '.guide p.caption')).toEqual(guides.flatMap((g) => g.snippets.flatMap((s) => (s.caption ? [s.caption] : []))));
    expect(await textOf({}, '.guide > p:not(.caption)')).toEqual(guides.flatMap((g) => g.steps));
  });
});

describe('landingPage: the tools', () => {
  it('lists each tool with the scopes it needs (any key when none), its annotations and parameters', async () => {
    const details = await elements(page(), 'details[data-tool]');
    expect(details.map((d) => [d.attrs['data-tool'], d.attrs['data-scope']])).toEqual([
      ['search_nodes', 'nodes:read'],
      ['bare_tool', ''],
      ['two_scopes', 'workflows:write executions:read'],
    ]);
    expect(await textOf({}, '.badge.scope')).toEqual(['nodes:read', 'any key', 'workflows:write + executions:read']);
    const [search, bareTool, two] = details.map((d) => d.text);
    expect(search).toContain('readOnlyHint: true');
    expect(search).toContain('openWorldHint: false');
    expect(search).toMatch(/query\s+string\s+required/);
    expect(search).toMatch(/max_results\s+integer\s+default 10/);
    expect(bareTool).toContain('No input parameters.');
    expect(two).toContain('destructiveHint: true');
    expect(two).toMatch(/id\s+string\s+required/);
  });

  it('says, with an n8n, which node classes this deployment lets keys use, and with which scope', async () => {
    expect(await textOf({}, '.node-classes li')).toEqual([]);
    expect(await textOf({ n8nConfigured: true }, '.node-classes li')).toEqual([
      expect.stringMatching(/^host: run commands on the n8n host.*\. Not allowed here, to any key\.$/),
      expect.stringMatching(/^code: run code the caller wrote.*\. Allowed here, with the scope workflows:code\.$/),
      expect.stringMatching(/^credentials: use credentials stored in n8n.*\. Allowed here, with the scope credentials:use\.$/),
    ]);
    const everything = policySummary(nodePolicyOf({ ...env, ALLOWED_NODE_CLASSES: 'host,code,credentials' }));
    expect((await textOf({ n8nConfigured: true, nodeClasses: everything }, '.node-classes li'))[0]).toMatch(/Allowed here, with the scope workflows:host\.$/);
  });

  it('counts the tools, and without an n8n says how many more an n8n brings', async () => {
    const withN8n = toolsFor({ ...env, ...N8N }).length - toolsFor(env).length;
    expect((await textOf({}, '#tools-summary'))[0]).toMatch(new RegExp(`^3 tools \\(the ${withN8n} n8n tools appear once an n8n instance is configured\\)\\.`));
    expect((await textOf({ n8nConfigured: true }, '#tools-summary'))[0]).toMatch(/^3 tools\. Each needs the scope shown/);
  });
});

describe('landingPage: your n8n', () => {
  it('has a section the script fills in once a key is entered, linked from the page’s navigation', async () => {
    expect((await elements(page(), 'nav a[href="#n8n"]')).map((a) => a.text)).toEqual(['Your n8n']);
    expect(await textOf({}, '#n8n h2')).toEqual(['Your n8n']);
    const status = await elements(page(), '#n8n-status');
    expect(status.map((s) => [s.attrs.role, s.text])).toEqual([['status', 'Enter your API key above to see your n8n.']]);
    expect((await elements(page(), '#n8n-list'))[0]!.attrs).toMatchObject({ 'aria-label': 'Your n8n instances', hidden: '' });
  });

  it('offers a form to add a connection only where workspaces are on, hidden until a key may', async () => {
    expect(await elements(page(), '#n8n-form')).toEqual([]);
    expect((await textOf({}, '#n8n > p'))[0]).toContain('the n8n this server’s operator configured');
    const form = await elements(page({ workspaces: true }), '#n8n-form');
    expect(form[0]!.attrs).toMatchObject({ hidden: '', 'aria-labelledby': 'n8n-add-title' });
    expect((await textOf({ workspaces: true }, '#n8n > p'))[0]).toContain('Each workspace brings its own n8n');
  });

  it('labels each field, takes the n8n key in a password field, and says each result in a live region', async () => {
    const on = page({ workspaces: true });
    const inputs = await elements(on, '#n8n-form input');
    const labels = await elements(on, '#n8n-form label');
    expect(inputs.map((i) => [i.attrs.id, i.attrs.type ?? 'text', i.attrs.name])).toEqual([
      ['n8n-name', 'text', 'name'],
      ['n8n-url', 'url', 'url'],
      ['n8n-key', 'password', 'apiKey'],
    ]);
    expect(labels.map((l) => [l.attrs.for, l.text])).toEqual([
      ['n8n-name', 'Connection name'],
      ['n8n-url', 'n8n URL'],
      ['n8n-key', 'n8n API key'],
    ]);
    expect(inputs[2]!.attrs).toMatchObject({ autocomplete: 'off', required: '' });
    expect(inputs[2]!.attrs.value).toBeUndefined();
    expect((await elements(on, '#n8n-form button')).map((b) => [b.attrs.type, b.text])).toEqual([
      ['button', 'Test'],
      ['submit', 'Save'],
    ]);
    expect((await elements(on, '#n8n-result'))[0]!.attrs.role).toBe('status');
  });
});

describe('landingPage: the key and the catalog explorer', () => {
  it('tells the page’s script and the visitor whether the catalog answers without a key', async () => {
    const closed = await elements(page(), 'main');
    const open = await elements(page({ publicCatalog: true }), 'main');
    expect([closed[0]!.attrs['data-public-catalog'], open[0]!.attrs['data-public-catalog']]).toEqual(['false', 'true']);
    expect(await textOf({}, '#key-status')).toEqual(['No key entered.']);
    expect(await textOf({ publicCatalog: true }, '#key-status')).toEqual(['No key entered: the node catalog is open to everyone here (nodes:read).']);
    expect((await textOf({}, '#access p'))[0]).toContain('and to search the node catalog');
    expect((await textOf({ publicCatalog: true }, '#access p'))[0]).not.toContain('search the node catalog');
  });

  it('escapes everything it is given', async () => {
    const evil = '<script>alert(1)</script>';
    const html = page({
      title: evil,
      version: evil,
      nodeTypes: [[evil, 1]],
      tools: [{ ...twoScopes, name: evil, description: evil, parameters: [{ name: evil, type: evil, required: false, description: evil, default: evil }] }],
    }).text;
    expect(html).not.toContain('<script>');
    expect(html).toContain('&#60;script&#62;');
  });
});
