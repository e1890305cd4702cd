/**
 * The workflow view in Chromium for the DOM tests: its HTML built fresh from src/view (scripts/view/build.ts)
 * with node looks put in as the server puts them (src/catalog/nodeLooks.ts withNodeLooks), framed by the
 * MCP Apps test host (test/support/appHost.ts: the SDK's own AppBridge, the strict CSP a host gives it),
 * and what the tests read back from its DOM.
 */
import type { Browser, Frame } from 'playwright-core';
import { afterAll, afterEach, beforeAll, expect } from 'vitest';
import { buildViewHtml } from '../../scripts/view/build';
import { withNodeLooks } from '../../src/catalog/nodeLooks';
import { launchChromium } from '../e2e/browser';
import { openAppHost, type AppHost, type MountOptions } from '../support/appHost';
import { nodeLooks } from './answers';

/** The looks every page of these tests is given. */
export const LOOKS = nodeLooks();

export interface ViewSession {
  html: string;
  browser: Browser;
  host: AppHost;
  close(): Promise<void>;
}

/** Builds the view and opens Chromium with the test host: once per test file. */
export async function openView(): Promise<ViewSession> {
  const [built, browser] = await Promise.all([buildViewHtml(), launchChromium()]);
  const html = withNodeLooks(built, LOOKS);
  const host = await openAppHost(browser);
  return {
    html,
    browser,
    host,
    async close() {
      await host.close();
      await browser.close();
    },
  };
}

/** The view showing a call: mounted, then settled once the reads it makes through the host (at least `reads` of them) are answered and drawn. */
export async function showCall(session: ViewSession, options: Omit<MountOptions, 'html'>, reads = 0): Promise<Frame> {
  await session.host.mount({ html: session.html, ...options });
  const frame = session.host.frame();
  if (options.result) await expect.poll(() => frame.locator('body').getAttribute('data-drawn')).not.toBeNull();
  await settled(session.host, reads);
  return frame;
}

/** Waits until the view made at least `calls` tools/call requests, each was answered, and the view has drawn since. */
export async function settled(host: AppHost, calls = 0): Promise<void> {
  const open = () => {
    const traffic = host.traffic();
    const asked = traffic.filter((t) => t.direction === 'view→host' && t.message?.method === 'tools/call').map((t) => t.message.id);
    const answered = new Set(traffic.filter((t) => t.direction === 'host→view' && t.message?.method === undefined).map((t) => t.message?.id));
    return asked.length < calls ? -1 : asked.filter((id) => !answered.has(id)).length;
  };
  await expect.poll(open, { timeout: 20_000 }).toBe(0);
  // The answers are posted to the view: a task later, and a frame drawn.
  await host.frame().evaluate(() => new Promise((resolve) => setTimeout(() => requestAnimationFrame(() => resolve(null)), 30)));
}

/** What the view drew of one node. */
export interface DrawnNode {
  name: string;
  type: string;
  shape: string;
  /** "after" (the one version, or the after side), "before" (the before side, or the before mode), "ghost" (the before-version overlaid). */
  version: 'after' | 'before' | 'ghost';
  disabled: boolean;
  mark: string | null;
  run: string | null;
  findings: string | null;
  findingCount: string | null;
  runBadge: string | null;
  icon: string | null;
  badge: string | null;
  label: string;
  typeLabel: string;
}

export function drawnNodes(frame: Frame): Promise<DrawnNode[]> {
  return frame.evaluate(() =>
    [...document.querySelectorAll<SVGGElement>('#world g.node')].map((g) => {
      const version = g.closest('g.version');
      return {
        name: g.dataset.name!,
        type: g.dataset.type!,
        shape: g.dataset.shape!,
        version: version?.classList.contains('ghost')
          ? ('ghost' as const)
          : version?.getAttribute('data-version') === 'before'
            ? ('before' as const)
            : ('after' as const),
        disabled: g.hasAttribute('data-disabled'),
        mark: g.getAttribute('data-mark'),
        run: g.getAttribute('data-run'),
        findings: g.getAttribute('data-findings'),
        findingCount: g.querySelector('.finding-badge text')?.textContent ?? null,
        runBadge: g.querySelector('.run-badge')?.getAttribute('class') ?? null,
        icon: g.querySelector('use.icon')?.getAttribute('href') ?? null,
        badge: g.querySelector('g.badge text')?.textContent ?? null,
        label: g.querySelector('text.name')?.textContent ?? '',
        typeLabel: g.querySelector('text.type')?.textContent ?? '',
      };
    }),
  );
}

export interface DrawnEdge {
  from: string;
  to: string;
  type: string;
  output: number;
  input: number;
  ai: boolean;
  ran: boolean;
  dashed: boolean;
}

export function drawnEdges(frame: Frame): Promise<DrawnEdge[]> {
  return frame.evaluate(() =>
    [...document.querySelectorAll<SVGPathElement>('#world path.edge')].map((p) => ({
      from: p.dataset.from!,
      to: p.dataset.to!,
      type: p.dataset.type!,
      output: Number(p.dataset.output),
      input: Number(p.dataset.input),
      ai: p.classList.contains('ai'),
      ran: p.classList.contains('ran'),
      dashed: getComputedStyle(p).strokeDasharray !== 'none' && getComputedStyle(p).strokeDasharray !== '',
    })),
  );
}

/** Each drawn node's box on the screen of the frame, and the canvas's. */
export function screenBoxes(frame: Frame): Promise<{ canvas: DOMRect; nodes: { name: string; box: DOMRect }[] }> {
  return frame.evaluate(() => ({
    canvas: JSON.parse(JSON.stringify(document.querySelector('#canvas')!.getBoundingClientRect())),
    nodes: [...document.querySelectorAll<SVGGElement>('#world g.node')].map((g) => ({
      name: g.dataset.name!,
      box: JSON.parse(JSON.stringify(g.querySelector('.body')!.getBoundingClientRect())),
    })),
  }));
}

export const text = (frame: Frame, selector: string) => frame.locator(selector).first().textContent();

/** The view's status line: its words and kind, or null when hidden. */
export const status = (frame: Frame) =>
  frame.evaluate(() => {
    const el = document.querySelector<HTMLElement>('#status')!;
    return el.hidden ? null : { text: el.textContent ?? '', kind: el.dataset.kind ?? '' };
  });

/** No CSP violation, no console error of the view (CSP reports arrive a moment later: waited for). */
export async function expectClean(host: AppHost): Promise<void> {
  await new Promise((resolve) => setTimeout(resolve, 150));
  expect(host.cspViolations()).toEqual([]);
  expect(host.consoleErrors()).toEqual([]);
}

/**
 * One view host in Chromium for a test file (`view.session`), closed after it; after each test, it has
 * had no CSP report and no console error (unless `clean: false`: a file that makes the view fail on purpose).
 */
export function viewPerFile({ clean = true } = {}): { readonly session: ViewSession } {
  const holder = {} as { session: ViewSession };
  beforeAll(async () => {
    holder.session = await openView();
  });
  afterAll(async () => {
    await holder.session?.close();
  });
  if (clean)
    afterEach(async () => {
      await expectClean(holder.session.host);
    });
  return holder;
}
