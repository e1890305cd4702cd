import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium } from '../e2e/browser';
import { openAppHost, UI_PROTOCOL_VERSION, type AppHost } from '../support/appHost';

/**
 * A view of the kind the real ones are: no SDK, the protocol spoken by hand over postMessage. It shows the
 * tool's name (from the host context), the tool input and the tool result, and calls `echo` on a click.
 */
const viewHtml = (extra = '') => `<!doctype html>
<html lang="en"><meta charset="utf-8"><title>smoke view</title>
<h1 id="tool">…</h1><pre id="input"></pre><pre id="result"></pre>
<button id="echo">Echo</button><pre id="answer"></pre>
${extra}
<script>
  let nextId = 1;
  const pending = new Map();
  const post = (message) => parent.postMessage({ jsonrpc: '2.0', ...message }, '*');
  const request = (method, params) => {
    const id = nextId++;
    post({ id, method, params });
    return new Promise((resolve, reject) => pending.set(id, { resolve, reject }));
  };
  const show = (id, text) => (document.getElementById(id).textContent = text);
  addEventListener('message', (event) => {
    if (event.source !== parent || event.data?.jsonrpc !== '2.0') return;
    const m = event.data;
    if (m.method === undefined) {
      const waiting = pending.get(m.id);
      pending.delete(m.id);
      return m.error ? waiting?.reject(new Error(m.error.message)) : waiting?.resolve(m.result);
    }
    if (m.method === 'ui/notifications/tool-input') show('input', JSON.stringify(m.params.arguments));
    if (m.method === 'ui/notifications/tool-result') show('result', m.params.content.map((c) => c.text).join(''));
    if (m.id !== undefined) post({ id: m.id, result: {} });
  });
  document.getElementById('echo').addEventListener('click', async () => {
    const answer = await request('tools/call', { name: 'echo', arguments: { x: 1 } });
    show('answer', answer.content[0].text);
  });
  (async () => {
    const init = await request('ui/initialize', {
      protocolVersion: '${UI_PROTOCOL_VERSION}',
      appInfo: { name: 'smoke-view', version: '1' },
      appCapabilities: {},
    });
    show('tool', init.hostContext.toolInfo.tool.name);
    document.documentElement.dataset.theme = init.hostContext.theme;
    post({ method: 'ui/notifications/initialized', params: {} });
    const height = () => Math.ceil(document.body.getBoundingClientRect().bottom) + 8;
    new ResizeObserver(() => post({ method: 'ui/notifications/size-changed', params: { height: height() } })).observe(document.body);
  })();
</script>`;

const tool = { name: 'search_nodes', inputSchema: { type: 'object' as const, properties: { query: { type: 'string' } } } };

let browser: Browser;
let host: AppHost;
beforeAll(async () => {
  browser = await launchChromium();
  host = await openAppHost(browser);
}, 60_000);
afterAll(async () => {
  await host?.close();
  await browser?.close();
});

describe('the MCP Apps test host', () => {
  it('initializes a hand-written view, sends it the tool input and result, and answers its tools/call', { timeout: 60_000 }, async () => {
    await host.mount({
      html: viewHtml(),
      tool,
      args: { query: 'slack' },
      result: { content: [{ type: 'text', text: '3 nodes found' }] },
      answer: ({ name, arguments: args }) => ({ content: [{ type: 'text', text: `${name} said ${JSON.stringify(args)}` }] }),
    });
    const view = host.frame();
    // Sandboxed without allow-same-origin, from an origin other than the host page's.
    await expect(view.evaluate('origin')).resolves.toBe('null');
    expect(new URL(view.url()).origin).not.toBe(new URL(host.page.url()).origin);
    await expect(view.locator('#tool').textContent()).resolves.toBe('search_nodes');
    await expect.poll(() => view.locator('#input').textContent()).toBe('{"query":"slack"}');
    await expect.poll(() => view.locator('#result').textContent()).toBe('3 nodes found');
    await expect(view.locator('html').getAttribute('data-theme')).resolves.toBe('light');

    await view.locator('#echo').click();
    await expect.poll(() => view.locator('#answer').textContent()).toBe('echo said {"x":1}');
    expect(host.calls()).toEqual([{ name: 'echo', arguments: { x: 1 }, result: { content: [{ type: 'text', text: 'echo said {"x":1}' }] } }]);

    // What went over the wire, in order, and what the host made of it.
    await expect.poll(() => host.received('tools/call').length).toBe(1);
    expect(host.received('ui/initialize')[0].params.appInfo).toEqual({ name: 'smoke-view', version: '1' });
    const sent = host
      .traffic()
      .filter((t) => t.direction === 'host→view' && t.message.method)
      .map((t) => t.message.method);
    expect(sent).toEqual(['ui/notifications/tool-input', 'ui/notifications/tool-result']);
    // The host sizes the iframe to the height the view last reported (below the 600 px maximum).
    const iframeHeight = () => host.page.locator('iframe#view').evaluate((f) => (f as { clientHeight: number }).clientHeight);
    await expect.poll(async () => (await iframeHeight()) === host.sizeChanges().at(-1)?.height).toBe(true);
    expect(await iframeHeight()).toBeGreaterThan(100);
    expect(await iframeHeight()).toBeLessThan(600);

    // Sent later by the test: a second result, and a teardown the view answers.
    await host.sendToolResult({ content: [{ type: 'text', text: 'updated' }] });
    await expect.poll(() => view.locator('#result').textContent()).toBe('updated');
    await expect(host.teardown()).resolves.toEqual({});

    const screenshot = await host.screenshot('appHost-smoke.png');
    expect(screenshot).toMatch(/appHost-smoke\.png$/);
    expect(host.cspViolations()).toEqual([]);
    expect(host.consoleErrors()).toEqual([]);
  });

  it('records what the CSP refused the view: a fetch and an image from elsewhere', { timeout: 60_000 }, async () => {
    await host.mount({
      html: viewHtml(`<img alt="" src="http://127.0.0.1:1/x.png"><script>fetch('https://example.com/').catch(() => {});</script>`),
      tool,
      theme: 'dark',
    });
    await expect.poll(() => host.cspViolations().sort()).toEqual(['connect-src https://example.com/', 'img-src http://127.0.0.1:1/x.png']);
    // The first mount's records are gone; the tool input and result were not sent (none given).
    expect(host.calls()).toEqual([]);
    expect(host.traffic().filter((t) => t.direction === 'host→view' && t.message.method)).toEqual([]);
    await expect(host.frame().locator('html').getAttribute('data-theme')).resolves.toBe('dark');
    // Chromium's console lines about the refusals are CSP violations, not console errors.
    expect(host.console().some((e) => e.frame === 'view' && /Content Security Policy/.test(e.text))).toBe(true);
    expect(host.consoleErrors()).toEqual([]);
  });

  it('answers a tools/call the test does not answer with an error result, and fails a view that never initializes', { timeout: 60_000 }, async () => {
    await host.mount({ html: viewHtml(), tool });
    await host.frame().locator('#echo').click();
    await expect
      .poll(() => host.calls())
      .toEqual([{ name: 'echo', arguments: { x: 1 }, result: { isError: true, content: [{ type: 'text', text: 'no answer for echo' }] } }]);

    const mute = '<!doctype html><title>mute</title><script>throw new Error("boom")</script>';
    await expect(host.mount({ html: mute, tool, initializeTimeoutMs: 500 })).rejects.toThrow(
      /no ui\/notifications\/initialized within 500 ms; it sent: nothing/,
    );
    expect(host.consoleErrors()).toEqual(['view: uncaught: boom']);
  });
});
