import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { authHeaders, keysCli } from './auth';
import { launchChromium, SCREENSHOTS } from './browser';

const baseUrl = inject('baseUrl');
const apiKey = inject('apiKey');
const DESKTOP = { width: 1280, height: 900 };
const PHONE = { width: 390, height: 844 };

let browser: Browser;
let context: BrowserContext;
beforeAll(async () => {
  browser = await launchChromium();
  context = await browser.newContext({ viewport: DESKTOP, permissions: ['clipboard-read', 'clipboard-write'] });
});
afterAll(async () => {
  await browser?.close();
});

/** A fresh tab on the landing page, collecting what went wrong in it. */
async function open(path = '/', viewport = DESKTOP) {
  const page = await context.newPage();
  await page.setViewportSize(viewport);
  const problems: string[] = [];
  page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
  page.on('console', (message) => message.type() === 'error' && problems.push(`console: ${message.text()}`));
  page.on('requestfailed', (request) => problems.push(`failed: ${request.url()}`));
  await page.goto(new URL(path, baseUrl).href);
  return { page, problems };
}

async function useKey(page: Page, key: string) {
  await page.getByLabel('API key', { exact: true }).fill(key);
  await page.getByRole('button', { name: 'Use key' }).click();
  await page.locator('#key-status', { hasText: 'Using your API key' }).waitFor();
}

/** With the dev key entered: search, and open the best hit. */
async function openBestHit(page: Page, query: string) {
  await useKey(page, apiKey);
  await page.getByLabel('Search nodes', { exact: true }).fill(query);
  await page.locator('#search-status', { hasText: 'best first' }).waitFor();
  await page.locator('#results button').first().click();
  await page.locator('#spec-title').waitFor();
}

const api = async (path: string) => (await fetch(new URL(path, baseUrl), { headers: authHeaders })).json() as Promise<any>;

describe('the landing page in Chromium against wrangler dev', () => {
  it('loads with what the server is, without errors, its assets served statically', async () => {
    const { page, problems } = await open();
    const health = await (await fetch(new URL('/health', baseUrl))).json();
    await expect(page.title()).resolves.toBe('n8n MCP (edge) — MCP server');
    const facts = page.locator('.facts');
    await expect(facts.locator('#endpoint').textContent()).resolves.toBe(`${baseUrl}/mcp`);
    const catalog = await facts.locator('dd').nth(2).textContent();
    expect(catalog).toContain(`${health.catalog.specs} node specifications`);
    expect(catalog).toContain(health.catalogVersion);
    // The e2e server drives a fake n8n: its 43 tools and list_instances are listed beside the 10 core ones.
    await expect(facts.locator('dd').nth(4).textContent()).resolves.toBe('configured');
    await expect(page.locator('details[data-tool]').count()).resolves.toBe(54);
    expect(problems).toEqual([]);
    for (const asset of ['/assets/page.js', '/assets/page.css']) {
      const response = await fetch(new URL(asset, baseUrl));
      expect(response.status, asset).toBe(200);
      expect(response.headers.get('etag'), asset).toBeTruthy();
    }
    await page.close();
  });

  it('copies the right text with each copy button', async () => {
    const { page, problems } = await open();
    const copy = async (name: string) => {
      await page.getByRole('button', { name }).click();
      return page.evaluate(() => navigator.clipboard.readText());
    };
    const mcp = `${baseUrl}/mcp`;
    expect(await copy('Copy the MCP endpoint')).toBe(mcp);
    expect(await copy('Copy the Claude Code command')).toBe(`claude mcp add --transport http n8n-edge ${mcp} --header "Authorization: Bearer YOUR_API_KEY"`);
    const desktop = JSON.parse(await copy('Copy the Claude Desktop configuration with an API key'));
    expect(desktop.mcpServers['n8n-edge']).toEqual({
      command: 'npx',
      args: ['mcp-remote', mcp, '--header', 'Authorization:${N8N_EDGE_AUTH}'],
      env: { N8N_EDGE_AUTH: 'Bearer YOUR_API_KEY' },
    });
    expect(JSON.parse(await copy('Copy the Claude Desktop configuration with OAuth')).mcpServers['n8n-edge'].args).toEqual(['mcp-remote', mcp]);
    expect(await copy('Copy the connector URL')).toBe(mcp);
    expect(await copy('Copy the n8n endpoint URL')).toBe(mcp);
    expect(await copy('Copy the n8n header value')).toBe('Bearer YOUR_API_KEY');
    expect(await copy('Copy the Inspector command')).toBe('npx @modelcontextprotocol/inspector');
    expect(await copy('Copy the Inspector CLI command')).toBe(
      `npx @modelcontextprotocol/inspector --cli ${mcp} --transport http --header "Authorization: Bearer YOUR_API_KEY" --method tools/list`,
    );
    // The button says so, and names what it copies for screen readers still.
    const last = page.locator('#connect-inspector button.copy').last();
    await last.click();
    await expect.poll(() => last.textContent()).toBe('Copied the Inspector CLI command');
    await expect.poll(() => last.textContent(), { timeout: 5000 }).toBe('Copy the Inspector CLI command');
    expect(problems).toEqual([]);
    await page.close();
  });

  it('asks for a key before searching, then ranks results as search_nodes does', async () => {
    const { page } = await open();
    await page.getByLabel('Search nodes', { exact: true }).fill('send email');
    await expect(page.locator('#search-status', { hasText: 'Enter your API key above' }).textContent()).resolves.toMatch(/search the node catalog/);

    await useKey(page, apiKey);
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    await page.locator('#search-status', { hasText: 'best first' }).waitFor();
    const shown = await page
      .locator('#results button')
      .evaluateAll((buttons) => buttons.map((b) => ({ type: b.getAttribute('data-node-type'), subtype: b.getAttribute('data-subtype'), text: b.textContent })));
    const expected = (await api('/api/catalog/search?q=send+email&limit=20')).results;
    expect(shown.map((s) => [s.type, s.subtype])).toEqual(expected.map((h: any) => [h.node_type, h.subtype]));
    expect(shown.length).toBe(20);
    expect(shown[0]!.text).toContain(`score ${expected[0].relevance_score}`);
    // And the address keeps the query, for a reload or a link.
    expect(new URL(page.url()).searchParams.get('q')).toBe('send email');
    await page.close();
  });

  it('filters by node type, and browses a type without a query', async () => {
    const { page } = await open();
    await useKey(page, apiKey);
    await page.getByLabel('Search nodes', { exact: true }).fill('email');
    await page.getByLabel('Node type').selectOption('TRIGGER_NODE');
    await page.locator('#search-status', { hasText: 'among TRIGGER_NODE' }).waitFor();
    const types = await page.locator('#results button').evaluateAll((b) => b.map((x) => x.getAttribute('data-node-type')));
    expect(types.length).toBeGreaterThan(0);
    expect(new Set(types)).toEqual(new Set(['TRIGGER_NODE']));

    await page.getByLabel('Search nodes', { exact: true }).fill('');
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    await page.locator('#search-status', { hasText: 'of type TRIGGER_NODE, by name' }).waitFor();
    const types_ = await api('/api/catalog/search?type=TRIGGER_NODE');
    await expect(page.locator('#results li').count()).resolves.toBe(types_.results.length);
    await page.close();
  });

  it('opens a node from the keyboard and shows its parameters, ports and how to ask for it', async () => {
    const { page, problems } = await open();
    await useKey(page, apiKey);
    await page.getByLabel('Search nodes', { exact: true }).fill('http request');
    await page.getByLabel('Search nodes', { exact: true }).press('Enter');
    await page.locator('#search-status', { hasText: 'best first' }).waitFor();
    const first = page.locator('#results button').first();
    const [type, subtype] = [await first.getAttribute('data-node-type'), await first.getAttribute('data-subtype')];
    await first.focus();
    await page.keyboard.press('Enter');
    await page.locator('#spec-title').waitFor();

    const spec = await api(`/api/catalog/spec?${new URLSearchParams({ type: type!, subtype: subtype! })}`);
    await expect(page.locator('#spec-title').textContent()).resolves.toBe(spec.display_name);
    const names = await page.locator('#spec-parameters > li > code.name').allTextContents();
    expect(names).toEqual(spec.parameters.map((p: { name: string }) => p.name));
    await expect(page.locator('#spec-ports > li').count()).resolves.toBe(spec.input_ports.length + spec.output_ports.length);
    // Focus moved to the specification, for keyboard and screen-reader users.
    await expect(page.evaluate(() => document.activeElement?.id)).resolves.toBe('spec');

    // The address names the node: a reload opens it again.
    expect(new URL(page.url()).searchParams.get('node')).toBe(`${type}/${subtype}`);
    await page.reload();
    await page.locator('#spec-title', { hasText: spec.display_name }).waitFor();

    // Back to the results returns focus to the node it came from.
    await page.getByRole('button', { name: 'Back to the results' }).click();
    await expect(page.locator('#spec').isHidden()).resolves.toBe(true);
    await expect(page.evaluate(() => document.activeElement?.getAttribute('data-subtype'))).resolves.toBe(subtype);
    expect(problems).toEqual([]);
    await page.close();
  });

  it('shows the node opened last, whatever order the answers come in, and keeps it through a new search', async () => {
    const { page, problems } = await open();
    await useKey(page, apiKey);
    await page.getByLabel('Search nodes', { exact: true }).fill('email');
    await page.locator('#search-status', { hasText: 'best first' }).waitFor();
    const [slow, fast] = [page.locator('#results button').nth(0), page.locator('#results button').nth(1)];
    const slowSubtype = await slow.getAttribute('data-subtype');
    const fastSubtype = await fast.getAttribute('data-subtype');
    const fastName = await fast.locator('.hit-name').textContent();
    let slowAnswered = false;
    await page.route('**/api/catalog/spec?**', async (route) => {
      const slowOne = new URL(route.request().url()).searchParams.get('subtype') === slowSubtype;
      if (slowOne) await new Promise((resolve) => setTimeout(resolve, 600));
      await route.continue();
      if (slowOne) slowAnswered = true;
    });
    await slow.click();
    await fast.click();
    await expect.poll(() => slowAnswered).toBe(true);
    await page.waitForTimeout(100);
    await expect(page.locator('#spec-title').textContent()).resolves.toBe(fastName);
    await expect(page.locator('#results button[aria-current=true]').getAttribute('data-subtype')).resolves.toBe(fastSubtype);
    expect(new URL(page.url()).searchParams.get('node')).toMatch(new RegExp(`/${fastSubtype!.replace(/\./g, '\\.')}$`));

    await page.getByLabel('Search nodes', { exact: true }).fill('slack');
    await page.locator('#search-status', { hasText: 'for “slack”' }).waitFor();
    expect(new URL(page.url()).searchParams.get('q')).toBe('slack');
    expect(new URL(page.url()).searchParams.get('node')).toMatch(new RegExp(`/${fastSubtype!.replace(/\./g, '\\.')}$`));
    expect(problems).toEqual([]);
    await page.close();
  });

  it('marks the tools a narrower key can use, and says why it cannot search', async () => {
    const created = keysCli('create', '--name', 'e2e-page-workflows', '--scopes', 'workflows:read');
    expect(created.status, created.stderr).toBe(0);
    const { page } = await open();
    await useKey(page, created.stdout);
    await expect(page.locator('#key-status').textContent()).resolves.toBe('Using your API key: scopes workflows:read.');
    const marks = await page
      .locator('details[data-tool]')
      .evaluateAll((tools) => tools.map((t) => [t.getAttribute('data-tool'), t.getAttribute('data-scope'), t.querySelector('.access')!.textContent]));
    for (const [tool, scope, mark] of marks) {
      expect(mark, tool!).toBe(scope === '' || scope === 'workflows:read' ? 'your key can use it' : 'your key lacks this scope');
    }
    const usable = marks.filter(([, , mark]) => mark === 'your key can use it').length;
    expect(usable).toBeGreaterThan(1);
    await expect(page.locator('#tools-usable').textContent()).resolves.toBe(`Your key can use ${usable} of 54.`);

    await page.getByLabel('Search nodes', { exact: true }).fill('slack');
    await page.locator('#search-status', { hasText: 'lacks the nodes:read scope' }).waitFor();

    // A wrong key is refused and the one in use stays; "Forget key" clears it and the marks.
    await page.getByLabel('API key', { exact: true }).fill(`n2f_${'x'.repeat(40)}`);
    await page.getByRole('button', { name: 'Use key' }).click();
    await page.locator('#key-status', { hasText: 'That key is not valid (unknown, revoked or expired). Still using the previous one.' }).waitFor();
    await expect(page.evaluate(() => Object.values(sessionStorage))).resolves.toEqual([created.stdout]);
    await expect(page.locator('.access:visible').count()).resolves.toBe(54);
    await page.getByRole('button', { name: 'Forget key' }).click();
    await expect(page.evaluate(() => sessionStorage.length)).resolves.toBe(0);
    await expect(page.locator('.access:visible').count()).resolves.toBe(0);
    await page.close();
  });

  it('keeps the key in the tab only, and never puts it in the page or the address', async () => {
    const { page } = await open();
    await useKey(page, apiKey);
    await expect(page.getByLabel('API key', { exact: true }).inputValue()).resolves.toBe('');
    expect(page.url()).not.toContain(apiKey);
    await expect(page.content()).resolves.not.toContain(apiKey);
    await expect(page.evaluate(() => localStorage.length)).resolves.toBe(0);
    // A reload in the same tab keeps using it.
    await page.reload();
    await page.locator('#key-status', { hasText: 'Using your API key' }).waitFor();
    await page.getByRole('button', { name: 'Forget key' }).click();
    await expect(page.evaluate(() => sessionStorage.length)).resolves.toBe(0);
    await page.close();
  });

  it('opens on the MCP URL itself when a browser is pointed at it', async () => {
    const { page, problems } = await open('/mcp');
    await expect(page.locator('h1').textContent()).resolves.toBe('n8n MCP (edge)');
    expect(problems).toEqual([]);
    await page.close();
  });

  it('has no WCAG 2.1 A/AA violations axe-core can find, with results and a node open', async () => {
    // axe is injected as a script, which the page's CSP forbids: only this context bypasses it.
    const audit = await browser.newContext({ viewport: DESKTOP, bypassCSP: true });
    const page = await audit.newPage();
    await page.goto(baseUrl);
    // The first Tab reaches the skip link.
    await page.keyboard.press('Tab');
    await expect(page.evaluate(() => document.activeElement?.textContent)).resolves.toBe('Skip to content');
    await openBestHit(page, 'google sheets');
    await page.locator('details[data-tool=search_nodes] summary').click();
    await page.addScriptTag({ path: createRequire(import.meta.url).resolve('axe-core/axe.min.js') });
    const violations = await page.evaluate(async () => {
      const result = await (window as any).axe.run(document, { runOnly: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'] });
      return result.violations.map((v: any) => `${v.id}: ${v.nodes.length} × ${v.help}`);
    });
    expect(violations).toEqual([]);
    await audit.close();
  });

  it('fits a phone’s width, and saves desktop and phone screenshots', async () => {
    for (const [name, viewport] of [
      ['desktop', DESKTOP],
      ['phone', PHONE],
    ] as const) {
      const { page } = await open('/', viewport);
      const shoot = async (file: string) => {
        const path = join(SCREENSHOTS, file);
        await page.screenshot({ path });
        // A PNG of the viewport.
        const png = readFileSync(path);
        expect(png.subarray(1, 4).toString()).toBe('PNG');
        expect([png.readUInt32BE(16), png.readUInt32BE(20)]).toEqual([viewport.width, viewport.height]);
      };
      await shoot(`landing-${name}.png`);
      await openBestHit(page, 'slack');
      await page.locator('#spec-title').scrollIntoViewIfNeeded();
      const widths = await page.evaluate(() => ({ page: document.documentElement.scrollWidth, window: innerWidth }));
      expect(widths.page, name).toBeLessThanOrEqual(widths.window);
      await shoot(`landing-explorer-${name}.png`);
      await page.close();
    }
  });
});
