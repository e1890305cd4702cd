import { mkdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { CallToolResult } from '@modelcontextprotocol/client';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { APP_MIME_TYPE, APPS_EXTENSION, VIEW_URI } from '../../src/server/view';
import { launchChromium } from '../e2e/browser';
import { openAppHost, type AppHost, type RecordedCall } from '../support/appHost';
import { connectTo, n8nApi as n8n, type Json } from './client';
import { greeterWorkflow } from './greeter';

/**
 * The workflow view (src/view, an MCP App) on real answers: a real SDK client that declares app support
 * makes each drawn tool's call against this server driving a real n8n, and the view — the HTML the
 * server serves as its `ui://` resource — is framed in Chromium by the test host with that call's tool,
 * arguments and answer. The view's own reads and actions (tools/call through the host) go to the same
 * real client, so they hit the server and n8n too. What is drawn is checked, and a screenshot of each is
 * kept in docs/view/. A client without app support sees the same tools (less `_meta.ui`) and the same
 * answers. `RECORD_VIEW_FIXTURES=1` writes each call and the view's reads to test/fixtures/view/real/.
 */

const ROOT = join(import.meta.dirname, '../..');
const SHOTS = join(ROOT, 'docs/view');
const FIXTURES = join(ROOT, 'test/fixtures/view/real');
const RECORD = process.env.RECORD_VIEW_FIXTURES === '1';
const MAX_SHOT_BYTES = 250_000;
/** The view's size in the host: a wide chat column, the height the view asks for. */
const WIDTH = 1000;
const HEIGHT = 560;

const RENDERS_APPS = { extensions: { [APPS_EXTENSION]: { mimeTypes: [APP_MIME_TYPE] } } };
/** The tools the view draws (`view: true`), all served by this deployment. */
const DRAWN = [
  'get_template',
  'validate_workflow',
  'autofix_workflow',
  'get_workflow',
  'get_workflow_version',
  'create_workflow',
  'update_workflow',
  'edit_workflow',
  'test_workflow',
  'run_workflow_tests',
  'try_nodes',
  'get_execution',
  'diff_workflow_versions',
  'restore_workflow_version',
];

type Tool = { name: string; _meta?: Record<string, unknown> } & Json;

/** A real SDK client of this server, with these capabilities. */
function sdkClient(name: string, capabilities: Record<string, unknown>) {
  const client = new Client({ name, version: '1.0.0' }, { capabilities });
  return { client, connect: () => connectTo(client, inject('serverUrl'), inject('serverKey')) };
}

const apps = sdkClient('e2e-real-n8n-view', RENDERS_APPS);
const plain = sdkClient('e2e-real-n8n-no-view', {});

let browser: Browser;
let host: AppHost;
let html = '';
let appTools: Tool[] = [];
const created: string[] = [];

/** Every call this file made (tool, arguments, answer), and what the view asked for in each step. */
interface Made {
  label: string;
  tool: string;
  arguments: Json;
  result: CallToolResult;
  /** The view's tools/call requests while this call was shown (reads and actions), answered by the real server. */
  view: RecordedCall[];
  ms: number;
}
const made: Made[] = [];
const timings: Record<string, number> = {};

/** The answer's JSON (the text of the result). */
const json = (result: CallToolResult): Json => JSON.parse((result.content[0] as { text: string }).text);

/** A real call, through the client that renders apps, recorded. */
async function real(tool: string, args: Json, label = tool): Promise<{ result: CallToolResult; answer: Json; record: Made }> {
  const started = Date.now();
  const result = (await apps.client.callTool({ name: tool, arguments: args }, undefined, { timeout: 110_000 })) as CallToolResult;
  const record: Made = { label, tool, arguments: args, result, view: [], ms: Date.now() - started };
  made.push(record);
  expect(result.isError ?? false, `${tool}: ${JSON.stringify(result.content)}`).toBe(false);
  return { result, answer: json(result), record };
}

/** Any other call this file makes (set-up, read-backs), not drawn. */
async function plainCall(tool: string, args: Json): Promise<Json> {
  const result = (await apps.client.callTool({ name: tool, arguments: args }, undefined, { timeout: 110_000 })) as CallToolResult;
  expect(result.isError ?? false, `${tool}: ${JSON.stringify(result.content)}`).toBe(false);
  return json(result);
}

/** The view's tools/call, made by the same real client: the server and n8n answer it. */
const forward = async (call: { name: string; arguments: Record<string, unknown> }): Promise<CallToolResult> =>
  (await apps.client.callTool({ name: call.name, arguments: call.arguments }, undefined, { timeout: 110_000 })) as CallToolResult;

/** Frames the view with a call made here, as a host does after tools/call. */
async function show(record: Made): Promise<void> {
  const tool = appTools.find((t) => t.name === record.tool);
  expect(tool?._meta?.ui, `${record.tool} is drawn`).toEqual({ resourceUri: VIEW_URI });
  await host.mount({ html, tool: tool as never, args: record.arguments, result: record.result, answer: forward, width: WIDTH, height: HEIGHT });
}

/** The view's calls so far, once all are answered: `count` of them. */
async function viewCalls(record: Made, count: number): Promise<RecordedCall[]> {
  await expect
    .poll(() => host.calls().filter((c) => c.result !== undefined || c.error !== undefined).length, { timeout: 60_000 })
    .toBeGreaterThanOrEqual(count);
  const calls = host.calls();
  record.view = calls;
  for (const call of calls) expect(call.error, `${call.name} through the host`).toBeUndefined();
  return calls;
}

interface DrawnNode {
  name: string;
  type: string;
  shape: string;
  disabled: boolean;
  mark?: string;
  run?: string;
  findings?: string;
  findingCount?: string;
  x: number;
  y: number;
  width: number;
  height: number;
}
interface DrawnEdge {
  from: string;
  to: string;
  type: string;
  output: number;
  input: number;
  ai: boolean;
  ran: boolean;
  dash: string;
}
interface DrawnVersion {
  /** `only` (one version drawn), `ghost` (the before-version overlaid), `before` / `after` (side by side), `current` (the one over a ghost). */
  kind: string;
  nodes: DrawnNode[];
  edges: DrawnEdge[];
  items: { from: string; to: string; output: number; text: string }[];
  stickies: { name: string; color: string; text: string; x: number; y: number; width: number; height: number }[];
}
interface Drawn {
  title: string;
  summary: string;
  status: { hidden: boolean; kind?: string; text: string };
  drawn: number;
  theme?: string;
  actions: { tool: string; label: string; disabled: boolean }[];
  modes: { hidden: boolean; pressed?: string };
  panel?: { node: string; text: string; sections: Record<string, string> };
  versions: DrawnVersion[];
}

/** What the view shows now, read from its DOM (docs: the view's DOM contract). */
function drawn(): Promise<Drawn> {
  return host.frame().evaluate(() => {
    const doc = (globalThis as any).document;
    const all = (root: any, selector: string): any[] => Array.from(root.querySelectorAll(selector));
    const groups = all(doc, '#world g.version');
    const versions = groups.map((g: any) => ({
      kind: g.classList.contains('ghost') ? 'ghost' : (g.dataset.version ?? (groups.length > 1 ? 'current' : 'only')),
      nodes: all(g, 'g.node').map((n: any) => {
        const box = n.querySelector('.body').getBBox();
        return {
          name: n.dataset.name,
          type: n.dataset.type,
          shape: n.dataset.shape,
          disabled: n.hasAttribute('data-disabled'),
          mark: n.dataset.mark,
          run: n.dataset.run,
          findings: n.dataset.findings,
          findingCount: n.querySelector('g.finding-badge')?.textContent ?? undefined,
          x: box.x,
          y: box.y,
          width: box.width,
          height: box.height,
        };
      }),
      edges: all(g, 'path.edge').map((e: any) => ({
        from: e.dataset.from,
        to: e.dataset.to,
        type: e.dataset.type,
        output: Number(e.dataset.output),
        input: Number(e.dataset.input),
        ai: e.classList.contains('ai'),
        ran: e.classList.contains('ran'),
        dash: (globalThis as any).getComputedStyle(e).strokeDasharray,
      })),
      items: all(g, 'text.items').map((t: any) => ({ from: t.dataset.from, to: t.dataset.to, output: Number(t.dataset.output), text: t.textContent })),
      stickies: all(g, 'g.sticky').map((s: any) => {
        const rect = s.querySelector('rect');
        return {
          name: s.dataset.name,
          color: s.dataset.color,
          text: s.querySelector('.sticky-text')?.textContent ?? '',
          x: Number(rect.getAttribute('x')),
          y: Number(rect.getAttribute('y')),
          width: Number(rect.getAttribute('width')),
          height: Number(rect.getAttribute('height')),
        };
      }),
    }));
    const panel = doc.querySelector('#panel');
    const status = doc.querySelector('#status');
    return {
      title: doc.querySelector('#title').textContent,
      summary: doc.querySelector('#summary').textContent,
      status: { hidden: status.hidden, kind: status.dataset.kind, text: status.textContent },
      drawn: Number(doc.body.dataset.drawn ?? -1),
      theme: doc.documentElement.dataset.theme,
      actions: all(doc, '#actions button').map((b: any) => ({ tool: b.dataset.action, label: b.textContent, disabled: b.disabled })),
      modes: { hidden: doc.querySelector('#modes').hidden, pressed: all(doc, '#modes button[aria-pressed="true"]')[0]?.dataset.mode },
      panel: panel.hidden
        ? undefined
        : {
            node: panel.dataset.node,
            text: panel.textContent,
            sections: Object.fromEntries(all(panel, 'section').map((s: any) => [s.dataset.section, s.textContent])),
          },
      versions,
    };
  });
}

/** The view once `ready` holds of what it draws. */
async function drawnWhen(ready: (d: Drawn) => boolean, what: string): Promise<Drawn> {
  let last: Drawn | undefined;
  await expect
    .poll(
      async () => {
        last = await drawn();
        return ready(last);
      },
      { timeout: 30_000, message: `the view should draw ${what}` },
    )
    .toBe(true);
  return last!;
}

const version = (d: Drawn, kind: string) => d.versions.find((v) => v.kind === kind);
const main = (d: Drawn) => d.versions.find((v) => v.kind === 'only' || v.kind === 'current' || v.kind === 'after')!;
const nodeIn = (v: DrawnVersion | undefined, name: string) => v?.nodes.find((n) => n.name === name);
/** `name` in the version drawn in front (not the ghost nor the before-side). */
const front = (name: string) => `#world g.version:not(.ghost):not([data-version="before"]) g.node[data-name="${name}"]`;

/** Selects a node as a person does, and waits for its panel. */
async function select(name: string): Promise<Drawn> {
  await host.frame().locator(front(name)).click();
  return drawnWhen((d) => d.panel?.node === name, `the panel of "${name}"`);
}

async function act(tool: string): Promise<void> {
  await host.frame().locator(`#actions button[data-action="${tool}"]`).click();
}

async function mode(name: 'after' | 'before' | 'side' | 'overlay'): Promise<Drawn> {
  await host.frame().locator(`#modes button[data-mode="${name}"]`).click();
  return drawnWhen((d) => d.modes.pressed === name, `mode ${name}`);
}

/**
 * As a person does before looking closer: with a node's panel open, the drawing zoomed out (the wheel,
 * about its left edge) and dragged so that all of it is beside the panel, then the node selected again
 * (the drag's click closes the panel).
 */
async function besidePanel(name: string): Promise<void> {
  const geometry = () =>
    host.frame().evaluate(() => {
      const doc = (globalThis as any).document;
      const world = doc.querySelector('#world').getBoundingClientRect();
      const canvas = doc.querySelector('#canvas').getBoundingClientRect();
      const panel = doc.querySelector('#panel');
      return {
        left: world.left,
        top: world.top,
        width: world.width,
        height: world.height,
        canvasLeft: canvas.left,
        canvasTop: canvas.top,
        right: panel.hidden ? canvas.right : panel.getBoundingClientRect().left,
      };
    });
  const frame = (await host.page.locator('iframe#view').boundingBox())!;
  const margin = 24;
  let g = await geometry();
  const room = g.right - g.canvasLeft - 2 * margin;
  if (g.width > room) {
    const before = g.width;
    await host.page.mouse.move(frame.x + Math.max(g.left, g.canvasLeft + 1), frame.y + g.top + g.height / 2);
    await host.page.mouse.wheel(0, Math.log(g.width / room) / 0.002);
    await expect.poll(async () => (g = await geometry()).width).toBeLessThan(before);
  }
  const dx = g.canvasLeft + margin + (room - g.width) / 2 - g.left;
  if (Math.abs(dx) > 2) {
    await host.page.mouse.move(frame.x + g.canvasLeft + 6, frame.y + g.canvasTop + 6);
    await host.page.mouse.down();
    await host.page.mouse.move(frame.x + g.canvasLeft + 6 + dx, frame.y + g.canvasTop + 6, { steps: 4 });
    await host.page.mouse.up();
  }
  await select(name);
}

/** No CSP violation and no console error while it was shown; a screenshot of it, kept small (the open panel's node beside it). */
async function clean(shot: string): Promise<void> {
  const open = (await drawn()).panel?.node;
  if (open !== undefined) await besidePanel(open);
  // Chromium sends CSP reports on its own time: a moment for them to arrive.
  await new Promise((resolve) => setTimeout(resolve, 300));
  expect(host.cspViolations()).toEqual([]);
  expect(host.consoleErrors()).toEqual([]);
  expect(host.sizeChanges().map((change) => change.height)).toContain(HEIGHT);
  const file = await host.screenshot(join(SHOTS, `${shot}.png`));
  expect(statSync(file).size, `${shot}.png`).toBeLessThan(MAX_SHOT_BYTES);
}

/** Calls as one line each, in an order of their own: the view's reads go out together. */
const sorted = (calls: ({ name: string; arguments: Json } | [string, Json])[]) =>
  calls.map((c) => JSON.stringify(Array.isArray(c) ? c : [c.name, c.arguments])).sort();

const edgeKey = (e: { from: string; to: string; output: number; type?: string }) => `${e.from} ${e.type ?? 'main'}[${e.output}] → ${e.to}`;
/** The connections of n8n's map, one line each. */
const edgesOf = (connections: Json) =>
  Object.entries(connections).flatMap(([from, byType]) =>
    Object.entries(byType as Json).flatMap(([type, outputs]) =>
      (outputs as ({ node: string }[] | null)[]).flatMap((targets, output) => (targets ?? []).map((t) => edgeKey({ from, type, output, to: t.node }))),
    ),
  );

// ——— The workflows ———

const stamp = Date.now();
const webhookPath = `view-${stamp}`;
const setNode = (name: string, position: number[], assignments: Json[]) => ({
  name,
  type: 'n8n-nodes-base.set',
  typeVersion: 3.4,
  position,
  parameters: { assignments: { assignments }, options: {} },
});

const NOTE = '## Orders\nPOST `{ kind, price }`: an order is priced, anything else is answered as it is.';
/** Webhook → "Is order?" (IF) → true: Price (Code, throws without a price) → Answer; false: Other → Answer, and a deactivated Audit; a sticky note. */
const ordersWorkflow = {
  name: 'Orders (view e2e)',
  settings: { executionOrder: 'v1' },
  nodes: [
    {
      name: 'Note',
      type: 'n8n-nodes-base.stickyNote',
      typeVersion: 1,
      position: [-40, -330],
      parameters: { content: NOTE, width: 420, height: 150, color: 4 },
    },
    {
      name: 'Hook',
      type: 'n8n-nodes-base.webhook',
      typeVersion: 2,
      webhookId: crypto.randomUUID(),
      position: [0, 0],
      parameters: { path: webhookPath, httpMethod: 'POST', responseMode: 'responseNode', options: {} },
    },
    {
      name: 'Is order?',
      type: 'n8n-nodes-base.if',
      typeVersion: 2.2,
      position: [220, 0],
      parameters: {
        conditions: {
          options: { caseSensitive: true, leftValue: '', typeValidation: 'strict', version: 2 },
          combinator: 'and',
          conditions: [{ id: 'k1', leftValue: '={{ $json.body.kind }}', rightValue: 'order', operator: { type: 'string', operation: 'equals' } }],
        },
        options: {},
      },
    },
    {
      name: 'Price',
      type: 'n8n-nodes-base.code',
      typeVersion: 2,
      position: [440, -120],
      parameters: {
        mode: 'runOnceForEachItem',
        jsCode:
          "if ($json.body.price === undefined) throw new Error('the order has no price');\nreturn { json: { kind: 'order', total: $json.body.price * 2 } };",
      },
    },
    setNode('Other', [440, 120], [{ id: 'o1', name: 'note', value: 'not an order', type: 'string' }]),
    {
      name: 'Answer',
      type: 'n8n-nodes-base.respondToWebhook',
      typeVersion: 1.1,
      position: [900, 0],
      parameters: { respondWith: 'allIncomingItems', options: {} },
    },
    { name: 'Audit', type: 'n8n-nodes-base.noOp', typeVersion: 1, position: [680, 240], parameters: {}, disabled: true },
  ],
  connections: {
    Hook: { main: [[{ node: 'Is order?', type: 'main', index: 0 }]] },
    'Is order?': { main: [[{ node: 'Price', type: 'main', index: 0 }], [{ node: 'Other', type: 'main', index: 0 }]] },
    Price: { main: [[{ node: 'Answer', type: 'main', index: 0 }]] },
    Other: {
      main: [
        [
          { node: 'Answer', type: 'main', index: 0 },
          { node: 'Audit', type: 'main', index: 0 },
        ],
      ],
    },
  },
};
const nodeNames = (workflow: { nodes: { name: string; type: string }[] }) =>
  workflow.nodes.filter((n) => n.type !== 'n8n-nodes-base.stickyNote').map((n) => n.name);

/** The greeter with a Set node of a typeVersion Edit Fields never had: one error, one sure fix. */
const greeter = greeterWorkflow(`planted-${stamp}`);
const plantedWorkflow = {
  ...greeter,
  name: 'Greeter with a planted error (view e2e)',
  nodes: greeter.nodes.map((node) => (node.name === 'Greeting' ? { ...node, typeVersion: 9 } : node)),
};

/** A chat trigger into an AI Agent with a chat model, a memory and a tool: created, never run. */
const agentWorkflow = {
  name: 'Shop assistant (view e2e)',
  settings: { executionOrder: 'v1' },
  nodes: [
    {
      name: 'Chat',
      type: '@n8n/n8n-nodes-langchain.chatTrigger',
      typeVersion: 1.1,
      webhookId: crypto.randomUUID(),
      position: [0, 0],
      parameters: { options: {} },
    },
    {
      name: 'Assistant',
      type: '@n8n/n8n-nodes-langchain.agent',
      typeVersion: 1.7,
      position: [240, 0],
      parameters: { agent: 'toolsAgent', options: { systemMessage: 'You help the customers of a shop. Use the calculator for sums.' } },
    },
    {
      name: 'Model',
      type: '@n8n/n8n-nodes-langchain.lmChatOpenAi',
      typeVersion: 1,
      position: [160, 240],
      parameters: { model: 'gpt-4o-mini', options: {} },
    },
    { name: 'Memory', type: '@n8n/n8n-nodes-langchain.memoryBufferWindow', typeVersion: 1.2, position: [320, 240], parameters: { contextWindowLength: 8 } },
    { name: 'Calculator', type: '@n8n/n8n-nodes-langchain.toolCalculator', typeVersion: 1, position: [480, 240], parameters: {} },
    { name: 'Reply', type: 'n8n-nodes-base.noOp', typeVersion: 1, position: [600, 0], parameters: {} },
  ],
  connections: {
    Chat: { main: [[{ node: 'Assistant', type: 'main', index: 0 }]] },
    Assistant: { main: [[{ node: 'Reply', type: 'main', index: 0 }]] },
    Model: { ai_languageModel: [[{ node: 'Assistant', type: 'ai_languageModel', index: 0 }]] },
    Memory: { ai_memory: [[{ node: 'Assistant', type: 'ai_memory', index: 0 }]] },
    Calculator: { ai_tool: [[{ node: 'Assistant', type: 'ai_tool', index: 0 }]] },
  },
};

beforeAll(async () => {
  const started = Date.now();
  await Promise.all([apps.connect(), plain.connect()]);
  appTools = (await apps.client.listTools()).tools as Tool[];
  const read = await apps.client.readResource({ uri: VIEW_URI });
  html = (read.contents[0] as { text: string }).text;
  browser = await launchChromium();
  host = await openAppHost(browser);
  // Room for the 1000-pixel view and the host page's margin.
  await host.page.setViewportSize({ width: WIDTH + 40, height: HEIGHT + 40 });
  mkdirSync(SHOTS, { recursive: true });
  timings['set-up (clients, browser)'] = Date.now() - started;
}, 120_000);

afterAll(async () => {
  for (const id of created) await apps.client.callTool({ name: 'delete_workflow', arguments: { id } }).catch(() => {});
  await host?.close();
  await browser?.close();
  await Promise.all([apps.client.close(), plain.client.close()]);
  console.log(
    [
      `${made.length} real calls drawn; the view's own calls:`,
      ...made.map((m) => `  ${m.label} (${m.ms} ms): ${m.view.map((c) => `${c.name} ${JSON.stringify(c.arguments).slice(0, 120)}`).join('; ') || 'none'}`),
      'timings:',
      ...Object.entries(timings).map(([step, ms]) => `  ${step}: ${ms} ms`),
    ].join('\n'),
  );
});

/** Times a step; with RECORD_VIEW_FIXTURES=1, writes its calls to test/fixtures/view/real/<label>.json. */
function step(name: string, body: () => Promise<void>, timeout = 120_000) {
  it(
    name,
    async () => {
      const from = made.length;
      const started = Date.now();
      await body();
      timings[name] = Date.now() - started;
      // No answer holds a key: not this server's, not n8n's.
      const secrets = [inject('serverKey'), inject('realN8nKey')];
      for (const m of made.slice(from)) {
        const text = JSON.stringify(m);
        for (const secret of secrets) expect(text.includes(secret), `${m.label} holds a key`).toBe(false);
        if (RECORD) {
          mkdirSync(FIXTURES, { recursive: true });
          const view = m.view.map((c) => ({ name: c.name, arguments: c.arguments, result: c.result }));
          writeFileSync(join(FIXTURES, `${m.label}.json`), `${JSON.stringify({ tool: m.tool, arguments: m.arguments, result: m.result, view }, null, 2)}\n`);
        }
      }
    },
    timeout,
  );
}

describe('the workflow view, on real answers of a real n8n', () => {
  let id = '';
  /** Version numbers of this server's history: the one the edit replaced, and the edited one the undo kept. */
  let original = 0;
  let edited = 0;
  let failedExecution = '';

  step('links the drawn tools to the view for a client that renders apps, and changes nothing for one that does not', async () => {
    const linked = appTools.filter((t) => t._meta?.ui);
    expect(linked.map((t) => t.name).sort()).toEqual([...DRAWN].sort());
    for (const tool of linked) expect(tool._meta!.ui).toEqual({ resourceUri: VIEW_URI });

    const resources = (await apps.client.listResources()).resources;
    expect(resources).toContainEqual(expect.objectContaining({ uri: VIEW_URI, mimeType: APP_MIME_TYPE }));
    const read = await apps.client.readResource({ uri: VIEW_URI });
    expect(read.contents).toEqual([{ uri: VIEW_URI, mimeType: APP_MIME_TYPE, text: html, _meta: { ui: { csp: {}, prefersBorder: true } } }]);
    expect(html).toMatch(/^<!doctype html>/i);
    expect(html).not.toMatch(/<(script|link|img)[^>]+(src|href)=|@import|url\((?!#)/i);

    // The client without app support: the same list byte for byte, without `_meta.ui`; no view resource.
    const plainTools = (await plain.client.listTools()).tools;
    const withoutView = appTools.map(({ _meta, ...tool }) => {
      if (!_meta) return tool;
      const { ui: _, ...rest } = _meta;
      return Object.keys(rest).length ? { ...tool, _meta: rest } : tool;
    });
    expect(JSON.stringify(plainTools)).toBe(JSON.stringify(withoutView));
    expect(JSON.stringify(plainTools)).not.toContain('ui://');
    expect((await plain.client.listResources()).resources.map((r) => r.uri)).not.toContain(VIEW_URI);
  });

  step('validate_workflow: the planted error on its node; "Apply the sure fixes" draws autofix_workflow before and after', async () => {
    const { result, answer, record } = await real('validate_workflow', { workflow: plantedWorkflow });
    expect(answer.valid).toBe(false);
    expect(answer.errors).toContainEqual(expect.objectContaining({ node: 'Greeting', code: 'invalid_type_version' }));
    const errorNodes = new Set(answer.errors.map((f: Json) => f.node));
    // The client without app support gets the same answer.
    const same = await plain.client.callTool({ name: 'validate_workflow', arguments: { workflow: plantedWorkflow } });
    expect(same).toEqual(result);

    await show(record);
    let view = await drawnWhen((d) => d.drawn === 3, 'the three nodes');
    expect(view.title).toContain('Greeter with a planted error');
    expect(view.summary).toMatch(/^Not valid: 1 error/);
    const greeting = nodeIn(main(view), 'Greeting')!;
    expect(greeting).toMatchObject({
      findings: 'error',
      findingCount: String(answer.errors.filter((f: Json) => f.node === 'Greeting').length + answer.warnings.filter((f: Json) => f.node === 'Greeting').length),
    });
    for (const node of main(view).nodes) if (!errorNodes.has(node.name)) expect(node.findings, node.name).not.toBe('error');
    expect(view.actions).toContainEqual({ tool: 'autofix_workflow', label: 'Apply the sure fixes', disabled: false });
    view = await select('Greeting');
    const finding = answer.errors.find((f: Json) => f.node === 'Greeting');
    expect(view.panel!.sections.findings).toContain(finding.message);
    expect(host.calls()).toEqual([]);
    await clean('validate_workflow');

    // The action: autofix_workflow through the host, on the workflow the call checked; its answer is drawn.
    await act('autofix_workflow');
    const [fix] = await viewCalls(record, 1);
    expect(fix).toMatchObject({ name: 'autofix_workflow', arguments: { workflow: plantedWorkflow } });
    const fixed = json(fix!.result!);
    expect(fix!.result!.isError ?? false).toBe(false);
    expect(fixed.fixes).toContainEqual(expect.objectContaining({ kind: 'type_version', node: 'Greeting', applied: true }));
    expect(fixed.after.valid).toBe(true);
    made.push({ label: 'autofix_workflow', tool: 'autofix_workflow', arguments: fix!.arguments, result: fix!.result!, view: [], ms: 0 });

    view = await drawnWhen((d) => d.title.startsWith('Sure fixes') && d.versions.length === 2, 'the fixed workflow over the one sent');
    expect(view.modes).toEqual({ hidden: false, pressed: 'overlay' });
    expect(view.versions.map((v) => v.kind)).toEqual(['ghost', 'current']);
    expect(nodeIn(version(view, 'current'), 'Greeting')).toMatchObject({ mark: 'changed' });
    expect(nodeIn(version(view, 'current'), 'Hook')?.mark).toBeUndefined();
    expect(view.summary).toMatch(/^1 sure fix made; errors 1 → 0/);

    view = await mode('side');
    expect(view.versions.map((v) => v.kind)).toEqual(['before', 'after']);
    expect(nodeIn(version(view, 'after'), 'Greeting')?.mark).toBe('changed');
    view = await select('Greeting');
    expect(view.panel!.text).toContain('typeVersion 9 → 3.4');
    expect(view.panel!.text).toMatch(/This node was changed/);
    for (const kind of ['before', 'after'] as const) {
      view = await mode(kind);
      expect(view.versions.map((v) => v.kind)).toEqual(['only']);
      expect(view.drawn).toBe(3);
    }
    await mode('side');
    await select('Greeting');
    expect(host.calls()).toHaveLength(1);
    await clean('autofix_workflow');
  });

  step('create_workflow: every node drawn as added, an edge per output, the deactivated node and the sticky note', async () => {
    const { answer, record } = await real('create_workflow', { workflow: ordersWorkflow });
    id = answer.id;
    created.push(id);
    await show(record);
    const view = await drawnWhen((d) => d.drawn === ordersWorkflow.nodes.length, 'every node');
    const drawnHere = main(view);
    expect(view.title).toBe(`Created: ${ordersWorkflow.name}`);
    expect(view.summary).toContain(`Created workflow ${id}`);
    expect(drawnHere.nodes.map((n) => n.name).sort()).toEqual(nodeNames(ordersWorkflow).sort());
    for (const node of drawnHere.nodes) expect(node.mark, node.name).toBe('added');
    expect(drawnHere.edges.map(edgeKey).sort()).toEqual(edgesOf(ordersWorkflow.connections).sort());
    expect(drawnHere.edges.filter((e) => e.from === 'Is order?').map((e) => [e.output, e.to])).toEqual([
      [0, 'Price'],
      [1, 'Other'],
    ]);
    expect(nodeIn(drawnHere, 'Audit')).toMatchObject({ disabled: true });
    expect(drawnHere.nodes.filter((n) => n.disabled).map((n) => n.name)).toEqual(['Audit']);
    expect(nodeIn(drawnHere, 'Hook')?.shape).toBe('trigger');
    expect(drawnHere.stickies).toEqual([expect.objectContaining({ name: 'Note', color: '4', text: NOTE })]);
    // create_workflow names no version it replaced: nothing to read.
    expect(host.calls()).toEqual([]);
    await clean('create_workflow');
  });

  step('get_workflow: the nodes where n8n saved them, the sticky note, the deactivated node; the same answer for every client', async () => {
    const { result, answer, record } = await real('get_workflow', { id });
    const same = await plain.client.callTool({ name: 'get_workflow', arguments: { id } });
    expect(same).toEqual(result);

    await show(record);
    let view = await drawnWhen((d) => d.drawn === answer.nodes.length, 'the saved workflow');
    expect(view.title).toBe(`Workflow: ${ordersWorkflow.name}`);
    expect(view.summary).toMatch(/^Inactive/);
    const drawnHere = main(view);
    for (const node of answer.nodes as Json[]) {
      if (node.type === 'n8n-nodes-base.stickyNote') continue;
      expect(nodeIn(drawnHere, node.name), node.name).toMatchObject({ x: node.position[0], y: node.position[1], disabled: node.disabled === true });
      expect(nodeIn(drawnHere, node.name)?.mark).toBeUndefined();
    }
    const note = (answer.nodes as Json[]).find((n) => n.type === 'n8n-nodes-base.stickyNote')!;
    expect(drawnHere.stickies).toEqual([
      {
        name: 'Note',
        color: '4',
        text: note.parameters.content,
        x: note.position[0],
        y: note.position[1],
        width: note.parameters.width,
        height: note.parameters.height,
      },
    ]);
    expect(drawnHere.edges.map(edgeKey).sort()).toEqual(edgesOf(answer.connections).sort());
    expect(view.actions).toContainEqual({ tool: 'run_workflow_tests', label: 'Run the saved tests', disabled: false });
    view = await select('Price');
    expect(view.panel!.sections.parameters).toContain('the order has no price');
    expect(host.calls()).toEqual([]);
    await clean('get_workflow');

    // "Check it", where the view offers it: validate_workflow on the answer as it is, through the host.
    if (view.actions.some((a) => a.tool === 'validate_workflow')) {
      await act('validate_workflow');
      const [check] = await viewCalls(record, 1);
      expect(check).toMatchObject({ name: 'validate_workflow', arguments: { workflow: answer } });
      expect(check!.result!.isError ?? false, JSON.stringify(check!.result!.content)).toBe(false);
      view = await drawnWhen((d) => d.title.startsWith('Checked'), 'the check');
      expect(view.drawn).toBe(answer.nodes.length);
    }
  });

  step('edit_workflow: the view reads the workflow and the version the edit replaced; "Undo this change" restores it on n8n', async () => {
    const operations = [
      { type: 'setParameter', name: 'Other', path: '/assignments/assignments/0/value', value: 'not an order, edited' },
      {
        type: 'addNode',
        node: { ...setNode('Stamp', [680, -120], [{ id: 's1', name: 'pricedAt', value: '={{ $now.toISO() }}', type: 'string' }]) },
      },
      { type: 'rewireConnection', source: 'Price', from: 'Answer', to: 'Stamp' },
      { type: 'addConnection', source: 'Stamp', target: 'Answer' },
      { type: 'removeNode', name: 'Audit' },
    ];
    const { answer, record } = await real('edit_workflow', { id, operations });
    expect(answer).toMatchObject({ saved: true, operations: 5, previousVersion: expect.any(Number) });
    original = answer.previousVersion;

    await show(record);
    const calls = await viewCalls(record, 2);
    expect(sorted(calls)).toEqual(
      sorted([
        ['get_workflow', { id }],
        ['get_workflow_version', { id, version: original }],
      ]),
    );
    for (const call of calls) expect(call.result!.isError ?? false, call.name).toBe(false);
    let view = await drawnWhen((d) => d.versions.length === 2, 'the edited workflow over the one it replaced');
    expect(view.modes).toEqual({ hidden: false, pressed: 'overlay' });
    expect(view.summary).toMatch(/^Saved: 5 operations/);
    const after = version(view, 'current')!;
    expect(after.nodes.map((n) => n.name).sort()).toEqual([...nodeNames(ordersWorkflow).filter((n) => n !== 'Audit'), 'Stamp'].sort());
    expect(nodeIn(after, 'Stamp')?.mark).toBe('added');
    expect(nodeIn(after, 'Other')?.mark).toBe('changed');
    expect(nodeIn(after, 'Price')?.mark).toBe('changed');
    expect(nodeIn(after, 'Hook')?.mark).toBeUndefined();
    expect(after.edges.map(edgeKey)).toEqual(expect.arrayContaining(['Price main[0] → Stamp', 'Stamp main[0] → Answer']));
    expect(after.edges.map(edgeKey)).not.toContain('Price main[0] → Answer');
    // The removed node is drawn where it was, marked removed.
    expect(nodeIn(version(view, 'ghost'), 'Audit')).toBeDefined();
    expect
      .soft(
        view.versions
          .flatMap((v) => v.nodes)
          .filter((n) => n.name === 'Audit')
          .map((n) => n.mark),
      )
      .toContain('removed');

    view = await mode('side');
    expect(nodeIn(version(view, 'before'), 'Audit')).toBeDefined();
    expect(nodeIn(version(view, 'before'), 'Stamp')).toBeUndefined();
    expect(nodeIn(version(view, 'after'), 'Stamp')?.mark).toBe('added');
    await mode('overlay');
    view = await select('Other');
    expect(view.panel!.text).toContain('not an order, edited');
    expect(view.actions).toContainEqual({ tool: 'restore_workflow_version', label: 'Undo this change', disabled: false });
    await clean('edit_workflow');

    // Undo: restore_workflow_version of the version the edit replaced, made on n8n.
    await act('restore_workflow_version');
    const [, , undo] = await viewCalls(record, 3);
    expect(undo).toMatchObject({ name: 'restore_workflow_version', arguments: { id, version: original } });
    const restored = json(undo!.result!);
    expect(restored).toMatchObject({ restored: true, id, version: original, kept: expect.any(Number) });
    edited = restored.kept;
    const saved = await n8n('GET', `/workflows/${id}`);
    expect(saved.nodes.map((n: Json) => n.name).sort()).toEqual(ordersWorkflow.nodes.map((n) => n.name).sort());
    expect(saved.nodes.find((n: Json) => n.name === 'Other').parameters.assignments.assignments[0].value).toBe('not an order');
    made.push({ label: 'restore_workflow_version', tool: 'restore_workflow_version', arguments: undo!.arguments, result: undo!.result!, view: [], ms: 0 });

    // The restore's answer is the new scene: it reads the workflow and the version it replaced.
    const reads = (await viewCalls(record, 5)).slice(3);
    expect(sorted(reads)).toEqual(
      sorted([
        ['get_workflow', { id }],
        ['get_workflow_version', { id, version: edited }],
      ]),
    );
    made.at(-1)!.view = reads;
    view = await drawnWhen((d) => d.title.startsWith('Restored') && d.versions.length === 2, 'the restored workflow over the edited one');
    expect(view.summary).toBe(`Version ${original} restored`);
    expect(nodeIn(version(view, 'current'), 'Audit')?.mark).toBe('added');
    expect(view.actions).toContainEqual({ tool: 'restore_workflow_version', label: 'Undo the restore', disabled: false });
    await mode('side');
    await clean('restore_workflow_version');
  });

  step('diff_workflow_versions: marks from the diff on both versions, read through the host; "Restore version N" restores', async () => {
    const { answer, record } = await real('diff_workflow_versions', { id, from: original, to: edited });
    expect(answer.nodes).toMatchObject({ added: ['Stamp'], removed: ['Audit'] });
    expect(answer.nodes.changed.map((c: Json) => c.node)).toContain('Other');
    expect(answer.connections.added.length + answer.connections.removed.length).toBe(4);

    await show(record);
    const calls = await viewCalls(record, 2);
    expect(sorted(calls)).toEqual(
      sorted([
        ['get_workflow_version', { id, version: edited }],
        ['get_workflow_version', { id, version: original }],
      ]),
    );
    let view = await drawnWhen((d) => d.versions.length === 2, 'both versions');
    expect(view.summary).toBe(`${original} → ${edited}: 1 added, 1 removed, ${answer.nodes.changed.length} changed; 4 connections changed`);
    const after = version(view, 'current')!;
    expect(nodeIn(after, 'Stamp')?.mark).toBe('added');
    expect(nodeIn(after, 'Other')?.mark).toBe('changed');
    expect(nodeIn(after, 'Hook')?.mark).toBeUndefined();
    expect
      .soft(
        view.versions
          .flatMap((v) => v.nodes)
          .filter((n) => n.name === 'Audit')
          .map((n) => n.mark),
      )
      .toContain('removed');
    expect(view.actions).toContainEqual({ tool: 'restore_workflow_version', label: `Restore version ${original}`, disabled: false });
    view = await mode('side');
    expect(nodeIn(version(view, 'before'), 'Audit')).toBeDefined();
    expect(nodeIn(version(view, 'after'), 'Stamp')?.mark).toBe('added');
    await mode('overlay');
    await select('Stamp');
    await clean('diff_workflow_versions');

    await act('restore_workflow_version');
    const restore = (await viewCalls(record, 3))[2]!;
    expect(restore).toMatchObject({ name: 'restore_workflow_version', arguments: { id, version: original } });
    expect(json(restore.result!)).toMatchObject({ restored: true, id, version: original });
    await drawnWhen((d) => d.title.startsWith('Restored'), 'the restore');
    expect((await n8n('GET', `/workflows/${id}`)).nodes.map((n: Json) => n.name).sort()).toEqual(ordersWorkflow.nodes.map((n) => n.name).sort());
  });

  step('test_workflow: each node’s run, the failing node’s error and the items it got, item counts on the edges', async () => {
    const { answer, record } = await real('test_workflow', { id, payload: { kind: 'order' } });
    expect(answer.workflow).toMatchObject({ id, activatedForTheRun: true });
    expect(answer.execution).toMatchObject({ status: 'error', failed: { node: 'Price' }, path: ['Hook', 'Is order?', 'Price'] });
    failedExecution = answer.execution.id;

    await show(record);
    const calls = await viewCalls(record, 1);
    expect(calls.map((c) => [c.name, c.arguments])).toEqual([['get_workflow', { id }]]);
    let view = await drawnWhen((d) => d.drawn === ordersWorkflow.nodes.length, 'the workflow that ran');
    expect(view.summary).toBe(answer.execution.verdict);
    const ran = main(view);
    expect(Object.fromEntries(ran.nodes.filter((n) => n.run).map((n) => [n.name, n.run]))).toEqual({ Hook: 'success', 'Is order?': 'success', Price: 'error' });
    expect(ran.items.map((i) => `${i.from}[${i.output}] → ${i.to}: ${i.text}`).sort()).toEqual([
      'Hook[0] → Is order?: 1 item',
      'Is order?[0] → Price: 1 item',
      'Is order?[1] → Other: 0 items',
    ]);
    expect(
      ran.edges
        .filter((e) => e.ran)
        .map(edgeKey)
        .sort(),
    ).toEqual(['Hook main[0] → Is order?', 'Is order? main[0] → Price']);
    view = await select('Price');
    const run = view.panel!.sections.run!;
    expect(run).toContain(answer.execution.failed.error);
    expect(run).toContain('Items it got');
    expect(run).toContain('"kind": "order"');
    expect(view.actions).toContainEqual({ tool: 'run_workflow_tests', label: 'Run the saved tests', disabled: false });
    await clean('test_workflow');
  });

  step('run_workflow_tests: the failed test’s run, read with get_execution’s error view', async () => {
    await plainCall('save_workflow_test', { id, test: { name: 'not an order', payload: { kind: 'other' }, expect: { status: 200, items: { Answer: 1 } } } });
    await plainCall('save_workflow_test', { id, test: { name: 'an order without a price', payload: { kind: 'order' }, expect: { status: 200 } } });
    const { answer, record } = await real('run_workflow_tests', { id });
    expect(answer).toMatchObject({ id, passed: false });
    const failed = (answer.tests as Json[]).find((t) => !t.passed)!;
    expect(failed).toMatchObject({ name: 'an order without a price', execution: expect.any(String) });

    await show(record);
    const calls = await viewCalls(record, 2);
    expect(sorted(calls)).toEqual(
      sorted([
        ['get_execution', { id: failed.execution, view: 'error' }],
        ['get_workflow', { id }],
      ]),
    );
    let view = await drawnWhen((d) => d.drawn === ordersWorkflow.nodes.length && main(d).nodes.some((n) => n.run), 'the failed test’s run');
    // The answer's count, then the failing node its run names (read with get_execution's error view).
    expect(view.summary).toBe('1 of 2 tests passed · failed at "Price": the order has no price [line 1]');
    expect(
      Object.fromEntries(
        main(view)
          .nodes.filter((n) => n.run)
          .map((n) => [n.name, n.run]),
      ),
    ).toEqual({ Hook: 'success', 'Is order?': 'success', Price: 'error' });
    view = await select('Price');
    expect(view.panel!.sections.run).toContain('the order has no price');
    await clean('run_workflow_tests');
  });

  step('get_execution: the failed run, from its data (includeData) and from its record alone (read through the host)', async () => {
    const withData = await real('get_execution', { id: failedExecution, includeData: true }, 'get_execution');
    expect(withData.answer.workflowData).toBeDefined();
    await show(withData.record);
    let view = await drawnWhen((d) => d.drawn === ordersWorkflow.nodes.length, 'the workflow as it ran');
    // The answer holds the workflow and the run: nothing to read.
    expect(host.calls()).toEqual([]);
    expect(view.title).toBe(`Execution: #${failedExecution}`);
    expect(view.summary).toMatch(/^error/);
    const ran = main(view);
    expect(Object.fromEntries(ran.nodes.filter((n) => n.run).map((n) => [n.name, n.run]))).toEqual({ Hook: 'success', 'Is order?': 'success', Price: 'error' });
    expect(
      ran.items
        .filter((i) => i.text !== '0 items')
        .map((i) => `${i.from}[${i.output}] → ${i.to}: ${i.text}`)
        .sort(),
    ).toEqual(['Hook[0] → Is order?: 1 item', 'Is order?[0] → Price: 1 item']);
    view = await select('Price');
    expect(view.panel!.sections.run).toContain('the order has no price');
    await clean('get_execution');

    const bare = await real('get_execution', { id: failedExecution }, 'get_execution-record');
    expect(bare.answer).toMatchObject({ id: failedExecution, status: 'error', workflowId: id });
    expect(bare.answer.data).toBeUndefined();
    await show(bare.record);
    const calls = await viewCalls(bare.record, 2);
    expect(sorted(calls)).toEqual(
      sorted([
        ['get_execution', { id: failedExecution, view: 'error' }],
        ['get_workflow', { id }],
      ]),
    );
    view = await drawnWhen((d) => d.drawn === ordersWorkflow.nodes.length && main(d).nodes.some((n) => n.run), 'the run on the saved workflow');
    expect(
      Object.fromEntries(
        main(view)
          .nodes.filter((n) => n.run)
          .map((n) => [n.name, n.run]),
      ),
    ).toEqual({ Hook: 'success', 'Is order?': 'success', Price: 'error' });
    await select('Price');
    await clean('get_execution-record');
  });

  step('try_nodes: the chain it ran, with the items each node put out', async () => {
    const nodes = [
      setNode('Double', [0, 0], [{ id: 'd1', name: 'total', value: '={{ $json.price * 2 }}', type: 'number' }]),
      {
        name: 'Big?',
        type: 'n8n-nodes-base.if',
        typeVersion: 2.2,
        parameters: {
          conditions: {
            options: { caseSensitive: true, leftValue: '', typeValidation: 'strict', version: 2 },
            combinator: 'and',
            conditions: [{ id: 'b1', leftValue: '={{ $json.total }}', rightValue: 10, operator: { type: 'number', operation: 'gt' } }],
          },
          options: {},
        },
      },
      {
        ...setNode('Label', [0, 0], [{ id: 'l1', name: 'size', value: 'big', type: 'string' }]),
        parameters: { assignments: { assignments: [{ id: 'l1', name: 'size', value: 'big', type: 'string' }] }, includeOtherFields: true, options: {} },
      },
    ].map(({ position: _, ...node }: Json) => node);
    const { answer, record } = await real('try_nodes', { nodes, items: [{ price: 3 }, { price: 8 }, { price: 12 }] });
    expect(answer.output).toMatchObject({ node: 'Label', count: 2 });

    await show(record);
    let view = await drawnWhen((d) => d.drawn === 3, 'the three nodes tried');
    expect(host.calls()).toEqual([]);
    expect(view.summary).toBe('Ran: 2 items out of "Label"');
    const chain = main(view);
    expect(chain.nodes.map((n) => [n.name, n.run])).toEqual([
      ['Double', 'success'],
      ['Big?', 'success'],
      ['Label', 'success'],
    ]);
    expect(chain.nodes.map((n) => n.x)).toEqual([400, 600, 800]);
    expect(chain.edges.map(edgeKey)).toEqual(['Double main[0] → Big?', 'Big? main[0] → Label']);
    expect(chain.items.map((i) => `${i.from}[${i.output}] → ${i.to}: ${i.text}`)).toEqual(['Double[0] → Big?: 3 items', 'Big?[0] → Label: 2 items']);
    view = await select('Label');
    expect(view.panel!.sections.run).toContain('Items it put out');
    expect(view.panel!.sections.run).toContain('"size": "big"');
    expect(view.panel!.sections.run).toContain('"total": 24');
    await clean('try_nodes');
  });

  step('get_workflow of an AI agent: the root node, its sub-nodes and the dashed AI connections', async () => {
    const creation = (await apps.client.callTool({ name: 'create_workflow', arguments: { workflow: agentWorkflow } })) as CallToolResult;
    expect(creation.isError ?? false, JSON.stringify(creation.content)).toBe(false);
    const agent = json(creation);
    created.push(agent.id);
    const { answer, record } = await real('get_workflow', { id: agent.id }, 'get_workflow-ai');

    await show(record);
    let view = await drawnWhen((d) => d.drawn === agentWorkflow.nodes.length, 'the agent workflow');
    const drawnHere = main(view);
    expect(Object.fromEntries(drawnHere.nodes.map((n) => [n.name, n.shape]))).toEqual({
      Chat: 'trigger',
      Assistant: 'root',
      Model: 'subnode',
      Memory: 'subnode',
      Calculator: 'subnode',
      Reply: 'node',
    });
    expect(drawnHere.edges.map((e) => [edgeKey(e), e.ai]).sort()).toEqual(
      edgesOf(answer.connections)
        .map((e) => [e, !e.includes(' main[')])
        .sort(),
    );
    for (const edge of drawnHere.edges) {
      if (edge.ai) expect(edge.dash, edgeKey(edge)).not.toBe('none');
      else expect(edge.dash, edgeKey(edge)).toBe('none');
    }
    view = await select('Assistant');
    expect(view.panel!.sections.parameters).toContain('toolsAgent');
    expect(host.calls()).toEqual([]);
    await clean('get_workflow-ai');
  });
});
