/**
 * A test host for MCP Apps (SEP-1865, `io.modelcontextprotocol/ui`) in Chromium: it renders a view's HTML
 * as a real host does, in an `<iframe sandbox="allow-scripts">` on an origin of its own, served with the
 * strict CSP a host gives a resource that declares no domains, and talks to it through the SDK's own
 * host side (`AppBridge` over `PostMessageTransport`, in test/support/appHostPage.ts). The Node side
 * answers the view's tools/call requests and records what the view did: its calls, its CSP violations
 * (reported by Chromium to the view's server through `report-uri`), its console errors, its size changes
 * and every JSON-RPC message either way.
 *
 *   const browser = await launchChromium();
 *   const host = await openAppHost(browser);
 *   await host.mount({ html, tool, args: { q: 'x' }, result: { content: [{ type: 'text', text: 'ok' }] } });
 *   await host.frame().locator('#out').textContent();
 */
import { mkdirSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { dirname, isAbsolute, join } from 'node:path';
import type { CallToolResult, Tool } from '@modelcontextprotocol/client';
import type { McpUiHostCapabilities, McpUiHostContext } from '@modelcontextprotocol/ext-apps/app-bridge';
import { build } from 'esbuild';
import type { Browser, BrowserContext, Frame, Page } from 'playwright-core';
import { SCREENSHOTS } from '../e2e/browser';

/**
 * The CSP a host serves a view with when its resource declares no domains (`_meta.ui.csp` absent): inline
 * script and style, data: images and fonts, nothing fetched, framed or navigated to. `report-uri` is added
 * per mount (report-to is not used: Chromium queues those reports for up to a minute, and ignores
 * report-uri when both are present).
 */
export const VIEW_CSP =
  "default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; img-src data:; font-src data:; connect-src 'none'; frame-src 'none'; base-uri 'none'";

/** The protocol version the hand-written views speak (the SDK's LATEST_PROTOCOL_VERSION). */
export const UI_PROTOCOL_VERSION = '2026-01-26';

/** A tool definition: a name at least; `inputSchema` defaults to `{ type: 'object' }`. */
export type ToolDefinition = Pick<Tool, 'name'> & Partial<Tool>;

export interface ToolCall {
  name: string;
  arguments: Record<string, unknown>;
}

/** A tools/call the view made, with what it was answered (once answered). */
export interface RecordedCall extends ToolCall {
  result?: CallToolResult;
  /** The answer function threw: the view got a JSON-RPC error with this message. */
  error?: string;
}

export interface MountOptions {
  /** The view: one self-contained HTML document (the `ui://` resource's text). */
  html: string;
  /** The tool whose call the view shows: in hostContext.toolInfo.tool. */
  tool: ToolDefinition;
  /** Sent as ui/notifications/tool-input once the view is initialized; not sent when absent. */
  args?: Record<string, unknown>;
  /** Sent as ui/notifications/tool-result after the input; not sent when absent (send it later with sendToolResult). */
  result?: CallToolResult;
  theme?: 'light' | 'dark';
  /** The container: a fixed width and a maximum height (hostContext.containerDimensions), 600 × 600 by default. */
  width?: number;
  height?: number;
  /** Merged over the host context the host builds (theme, toolInfo, containerDimensions, displayMode, locale, …). */
  hostContext?: McpUiHostContext;
  /** Replaces the host's capabilities (default: serverTools, openLinks, logging, message and updateModelContext with text). */
  hostCapabilities?: McpUiHostCapabilities;
  /**
   * Answers the view's tools/call requests (recorded by calls()). A throw becomes a JSON-RPC error to the
   * view. Without it every call is answered `isError: true`, "no answer for <name>".
   */
  answer?: (call: ToolCall) => CallToolResult | Promise<CallToolResult>;
  /** How long the view has to send ui/notifications/initialized before mount() fails; 10 s by default. */
  initializeTimeoutMs?: number;
}

/** One JSON-RPC message on the postMessage channel, as sent (view → host messages raw, even malformed ones). */
export interface TrafficEntry {
  direction: 'view→host' | 'host→view';
  message: any;
}

/** A CSP violation report Chromium sent for the view's document (report-uri's `csp-report` body). */
export interface CspReport {
  effectiveDirective: string;
  blockedUri: string;
  sourceFile?: string;
  lineNumber?: number;
  sample?: string;
}

export interface ConsoleEntry {
  /** `view` for the view's document, `host` for the host page. */
  frame: 'view' | 'host';
  type: string;
  text: string;
}

export interface AppHost {
  /** The host page (origin A); the view is its iframe (origin B). */
  readonly page: Page;
  /** Loads a view in a fresh iframe (the previous one is torn down), resolves once it is initialized and the input and result given are sent. Resets every record. */
  mount(options: MountOptions): Promise<void>;
  /** The view's frame, for DOM assertions (`host.frame().locator('#x')`); throws before mount(). */
  frame(): Frame;
  /** The tools/call requests the view made, in order. */
  calls(): RecordedCall[];
  /** `<effective-directive> <blocked-uri>` per CSP violation Chromium reported for the view, e.g. `connect-src https://example.com/`. Arrives asynchronously: poll. */
  cspViolations(): string[];
  cspReports(): CspReport[];
  /** console.error lines and uncaught errors of the view and of the host page. CSP refusals are not here: see cspViolations(). */
  consoleErrors(): string[];
  /** console.warn lines (the bridge warns, e.g., of a request sent before ui/notifications/initialized). */
  consoleWarnings(): string[];
  console(): ConsoleEntry[];
  /** The view's ui/notifications/size-changed params, in order (the host sizes the iframe's height by them, up to `height`). */
  sizeChanges(): { width?: number; height?: number }[];
  /** Every message between host and view, in order: ui/initialize and its answer, notifications, tools/call, … */
  traffic(): TrafficEntry[];
  /** Messages from the view with this method (requests and notifications). */
  received(method: string): any[];
  sendToolInput(args: Record<string, unknown>): Promise<void>;
  sendToolInputPartial(args: Record<string, unknown>): Promise<void>;
  sendToolResult(result: CallToolResult): Promise<void>;
  sendToolCancelled(reason?: string): Promise<void>;
  /** Changes the host context; the bridge sends the view the changed fields (ui/notifications/host-context-changed). */
  setHostContext(changes: McpUiHostContext): Promise<void>;
  /** ui/resource-teardown: resolves with the view's answer. */
  teardown(): Promise<unknown>;
  /** A PNG of the view's iframe; a relative path is under test/e2e/.artifacts/screenshots. Resolves with the path written. */
  screenshot(path: string): Promise<string>;
  /** Closes the tab and the two servers (not the browser). */
  close(): Promise<void>;
}

/** What the Node side hands the page's mount() (JSON). */
export interface MountRequest {
  mountId: number;
  viewUrl: string;
  tool: Tool;
  args?: Record<string, unknown>;
  result?: CallToolResult;
  hostContext: McpUiHostContext;
  hostCapabilities: McpUiHostCapabilities;
  width: number;
  height: number;
  initializeTimeoutMs: number;
}

/** What the page posts to the host server's /host/event, in order. */
export type HostEvent = { kind: 'traffic'; entry: TrafficEntry } | { kind: 'sizechange'; params: { width?: number; height?: number } };

const DEFAULT_HOST_CAPABILITIES: McpUiHostCapabilities = {
  serverTools: {},
  openLinks: {},
  logging: {},
  message: { text: {} },
  updateModelContext: { text: {} },
};

/**
 * Chromium's console lines for a CSP refusal (the report-uri report says the same, structured): "Loading the
 * image 'x' violates the following Content Security Policy directive: …", "Fetch API cannot load x. Refused
 * to connect because it violates the document's Content Security Policy.", older "Refused to …".
 */
const CSP_REFUSAL = /violates the (following|document's) Content Security Policy/;

let hostScript: Promise<string> | undefined;

/** The page's script, bundled once per process. */
function bundleHostScript(): Promise<string> {
  hostScript ??= build({
    entryPoints: [join(import.meta.dirname, 'appHostPage.ts')],
    bundle: true,
    format: 'esm',
    platform: 'browser',
    target: 'es2022',
    write: false,
    logLevel: 'silent',
  }).then((result) => result.outputFiles[0]!.text);
  return hostScript;
}

const HOST_HTML =
  '<!doctype html><html lang="en"><meta charset="utf-8"><title>test host</title><link rel="icon" href="data:,">' +
  '<style>body{margin:16px;font-family:system-ui,sans-serif} iframe{display:block;border:1px solid #8884;border-radius:8px}</style>' +
  '<body><main id="host"></main><script type="module">import * as host from "/host.js"; globalThis.appHost = host;</script>';

async function readBody(request: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

async function listen(server: Server): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

function stop(server: Server): Promise<void> {
  server.closeAllConnections();
  return new Promise((resolve, reject) => server.close((error) => (error ? reject(error) : resolve())));
}

/** Opens the host page in a new context of `browser`, with its two loopback servers. */
export async function openAppHost(browser: Browser): Promise<AppHost> {
  const script = await bundleHostScript();

  // Per mount: what the view is and what it did.
  let mountId = 0;
  let viewHtml = '';
  let answer: MountOptions['answer'];
  let calls: RecordedCall[] = [];
  let reports: CspReport[] = [];
  let consoleEntries: ConsoleEntry[] = [];
  let sizeChanges: { width?: number; height?: number }[] = [];
  let traffic: TrafficEntry[] = [];
  let viewFrame: Frame | undefined;

  const json = (body: unknown) => JSON.stringify(body);

  // Origin A: the host page, its script, and the page's channel back to Node (events in order, tools/call answers).
  const hostServer = createServer((request, response) => {
    void (async () => {
      const url = request.url ?? '/';
      if (request.method === 'GET' && url === '/') return response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(HOST_HTML);
      if (request.method === 'GET' && url === '/host.js') return response.writeHead(200, { 'content-type': 'text/javascript' }).end(script);
      if (request.method === 'POST' && url === '/host/event') {
        const { mount, event } = JSON.parse(await readBody(request)) as { mount: number; event: HostEvent };
        if (mount === mountId) {
          if (event.kind === 'traffic') traffic.push(event.entry);
          else sizeChanges.push(event.params);
        }
        return response.writeHead(204).end();
      }
      if (request.method === 'POST' && url === '/host/answer') {
        const { mount, call } = JSON.parse(await readBody(request)) as { mount: number; call: ToolCall };
        const recorded: RecordedCall = { name: call.name, arguments: call.arguments ?? {} };
        if (mount === mountId) calls.push(recorded);
        try {
          const result = answer
            ? await answer({ name: recorded.name, arguments: recorded.arguments })
            : { isError: true, content: [{ type: 'text' as const, text: `no answer for ${call.name}` }] };
          recorded.result = result;
          return response.writeHead(200, { 'content-type': 'application/json' }).end(json({ result }));
        } catch (error) {
          recorded.error = error instanceof Error ? error.message : String(error);
          return response.writeHead(200, { 'content-type': 'application/json' }).end(json({ error: recorded.error }));
        }
      }
      response.writeHead(404).end();
    })().catch((error: unknown) => {
      if (!response.headersSent) response.writeHead(500).end(String(error));
    });
  });

  // Origin B: the view's document with the host's CSP, and the reports of what that CSP refused.
  const viewServer = createServer((request, response) => {
    void (async () => {
      const url = request.url ?? '/';
      const view = /^\/view\/(\d+)$/.exec(url);
      if (request.method === 'GET' && view && Number(view[1]) === mountId) {
        return response
          .writeHead(200, {
            'content-type': 'text/html; charset=utf-8',
            'cache-control': 'no-store',
            'content-security-policy': `${VIEW_CSP}; report-uri ${viewOrigin}/csp-report/${mountId}`,
          })
          .end(viewHtml);
      }
      const report = /^\/csp-report\/(\d+)$/.exec(url);
      if (request.method === 'POST' && report) {
        // report-uri's body (application/csp-report): { "csp-report": { "effective-directive", "blocked-uri", … } }.
        const body = JSON.parse(await readBody(request)) as { 'csp-report'?: Partial<Record<string, string | number>> };
        const r = body['csp-report'] ?? {};
        if (Number(report[1]) === mountId) {
          reports.push({
            effectiveDirective: `${r['effective-directive'] ?? r['violated-directive'] ?? ''}`,
            blockedUri: `${r['blocked-uri'] ?? ''}`,
            sourceFile: r['source-file'] === undefined ? undefined : `${r['source-file']}`,
            lineNumber: typeof r['line-number'] === 'number' ? r['line-number'] : undefined,
            sample: r['script-sample'] ? `${r['script-sample']}` : undefined,
          });
        }
        return response.writeHead(204).end();
      }
      response.writeHead(404).end();
    })().catch((error: unknown) => {
      if (!response.headersSent) response.writeHead(500).end(String(error));
    });
  });

  const hostOrigin = await listen(hostServer);
  const viewOrigin = await listen(viewServer);

  const context: BrowserContext = await browser.newContext({ viewport: { width: 900, height: 900 } });
  const page = await context.newPage();
  const frameOf = (url: string): 'view' | 'host' => (url.startsWith(viewOrigin) ? 'view' : 'host');
  page.on('console', (message) => {
    if (message.type() === 'debug') return; // the transport logs every message it parses
    consoleEntries.push({ frame: frameOf(message.location().url), type: message.type(), text: message.text() });
  });
  page.on('pageerror', (error) => {
    // Uncaught errors of the iframe are reported on the page too; the stack names the document.
    consoleEntries.push({ frame: error.stack?.includes(viewOrigin) ? 'view' : 'host', type: 'pageerror', text: `uncaught: ${error.message}` });
  });
  await page.goto(`${hostOrigin}/`);
  await page.waitForFunction(() => (globalThis as any).appHost !== undefined);

  const inPage = <T>(fn: string, arg?: unknown): Promise<T> =>
    page.evaluate(([name, value]) => (globalThis as any).appHost[name as string](value), [fn, arg] as const) as Promise<T>;

  return {
    page,
    async mount(options) {
      mountId += 1;
      viewHtml = options.html;
      answer = options.answer;
      calls = [];
      reports = [];
      consoleEntries = [];
      sizeChanges = [];
      traffic = [];
      viewFrame = undefined;
      const width = options.width ?? 600;
      const height = options.height ?? 600;
      const theme = options.theme ?? 'light';
      const tool = { inputSchema: { type: 'object' }, ...options.tool } as Tool;
      const request: MountRequest = {
        mountId,
        viewUrl: `${viewOrigin}/view/${mountId}`,
        tool,
        args: options.args,
        result: options.result,
        hostContext: {
          toolInfo: { tool },
          theme,
          displayMode: 'inline',
          availableDisplayModes: ['inline'],
          containerDimensions: { width, maxHeight: height },
          locale: 'en-US',
          timeZone: 'UTC',
          platform: 'web',
          userAgent: 'test-host/1',
          deviceCapabilities: { touch: false, hover: true },
          ...options.hostContext,
        },
        hostCapabilities: options.hostCapabilities ?? DEFAULT_HOST_CAPABILITIES,
        width,
        height,
        initializeTimeoutMs: options.initializeTimeoutMs ?? 10_000,
      };
      await inPage('mount', request);
      const frame = await (await page.$('iframe#view'))?.contentFrame();
      if (!frame) throw new Error('the view iframe has no frame');
      viewFrame = frame;
    },
    frame() {
      if (!viewFrame) throw new Error('no view: mount() one first');
      return viewFrame;
    },
    calls: () => [...calls],
    cspViolations: () => reports.map((r) => `${r.effectiveDirective} ${r.blockedUri}`),
    cspReports: () => [...reports],
    consoleErrors: () =>
      consoleEntries.filter((e) => (e.type === 'error' || e.type === 'pageerror') && !CSP_REFUSAL.test(e.text)).map((e) => `${e.frame}: ${e.text}`),
    consoleWarnings: () => consoleEntries.filter((e) => e.type === 'warning').map((e) => `${e.frame}: ${e.text}`),
    console: () => [...consoleEntries],
    sizeChanges: () => [...sizeChanges],
    traffic: () => [...traffic],
    received: (method) => traffic.filter((t) => t.direction === 'view→host' && t.message?.method === method).map((t) => t.message),
    sendToolInput: (args) => inPage('sendToolInput', args),
    sendToolInputPartial: (args) => inPage('sendToolInputPartial', args),
    sendToolResult: (result) => inPage('sendToolResult', result),
    sendToolCancelled: (reason) => inPage('sendToolCancelled', reason),
    setHostContext: (changes) => inPage('setHostContext', changes),
    teardown: () => inPage('teardown'),
    async screenshot(path) {
      const file = isAbsolute(path) ? path : join(SCREENSHOTS, path);
      mkdirSync(dirname(file), { recursive: true });
      await page.locator('iframe#view').screenshot({ path: file });
      return file;
    },
    async close() {
      await context.close();
      await Promise.all([stop(hostServer), stop(viewServer)]);
    },
  };
}
