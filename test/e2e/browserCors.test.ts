import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { BrowserCall, callServer } from './browserClient';
import { launchChromium, servePage, type PageServer } from './browser';

/**
 * The MCP SDK's 2.x client, bundled for the browser, on a page of another origin (a loopback port of
 * its own, which the local server allows) calling `wrangler dev` from Chromium: each request with a
 * header outside the CORS safelist (Authorization, Mcp-Protocol-Version, Mcp-Method, Mcp-Name,
 * Mcp-Session-Id) waits on a real preflight, and the answer is read only when the server exposes what
 * the client reads.
 */
const endpoint = `${inject('baseUrl')}/mcp`;
const apiKey = inject('apiKey');

let browser: Browser;
let pageServer: PageServer;
let page: Page;
/** What went wrong in the page: a refused preflight shows here as a console error naming the header. */
const problems: string[] = [];

beforeAll(async () => {
  [browser, pageServer] = await Promise.all([launchChromium(), servePage(new URL('browserClient.ts', import.meta.url).pathname)]);
  page = await browser.newPage();
  page.on('console', (message) => message.type() === 'error' && problems.push(message.text()));
  page.on('pageerror', (error) => problems.push(error.message));
  await page.goto(pageServer.origin);
  await page.waitForFunction(() => 'module' in globalThis);
});

afterAll(async () => {
  await browser?.close();
  await pageServer?.stop();
});

/** `callServer` run in the page, from the page's origin; when it throws, the error says what the page logged (the refused header). */
async function callFromPage(era: Parameters<typeof callServer>[2]): Promise<BrowserCall> {
  problems.length = 0;
  try {
    return await page.evaluate(([url, key, era]) => (globalThis as unknown as { module: { callServer: typeof callServer } }).module.callServer(url, key, era), [
      endpoint,
      apiKey,
      era,
    ] as const);
  } catch (error) {
    throw new Error(`${(error as Error).message}\nThe page logged:\n${problems.join('\n')}`, { cause: error });
  }
}

describe('a browser client on an allowed origin', () => {
  it('is served on another origin than the server', () => {
    expect(new URL(pageServer.origin).origin).not.toBe(new URL(endpoint).origin);
  });

  it('calls the 2026-07-28 era through the preflight (Mcp-Method, Mcp-Name, Mcp-Protocol-Version, Authorization)', async () => {
    const call = await callFromPage('2026-07-28');
    expect(problems).toEqual([]);
    expect(call.era).toBe('modern');
    expect(call.protocolVersion).toBe('2026-07-28');
    expect(call.sessionId).toBeUndefined();
    expect(call.tools).toEqual(expect.arrayContaining(['server_info', 'search_nodes']));
    expect(call.serverInfo).toContain('n8n-mcp-edge');
  });

  it('opens a 2025-era session and reads its Mcp-Session-Id', async () => {
    const call = await callFromPage('2025');
    expect(problems).toEqual([]);
    expect(call.era).toBe('legacy');
    expect(call.sessionId).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(call.tools).toContain('server_info');
    expect(call.serverInfo).toContain('n8n-mcp-edge');
  });
});
