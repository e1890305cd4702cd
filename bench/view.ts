/**
 * The workflow view (src/view, an MCP App) measured: its weight, and how long Chromium takes to draw it
 * framed as a real MCP Apps host frames it (test/support/appHost.ts: a sandboxed iframe on an origin of
 * its own, the host's strict CSP, the SDK's AppBridge). Prints a table and writes bench/results/view.json.
 *
 *   npm run bench:view              5 draws per size (after one warm-up)
 *   npm run bench:view -- --quick   2 draws per size        flags: --runs N
 *
 * Size: the HTML as served (src/server/view.ts: a fresh build of src/view, scripts/view/build.ts, with the
 * node looks' JSON block, .catalog/view-looks.json from scripts/view/icons.ts, put in), raw, gzip -9,
 * gzip at zlib's default level and brotli; split into style, script, markup and the looks, the looks
 * and their icons as what they add to the page's weight (the page weighed again without them).
 * Reference: the SDK's own App protocol client (`App` from @modelcontextprotocol/ext-apps, bundled by
 * esbuild for the browser, minified), which the view does without (src/view/bridge.ts).
 *
 * Draw: workflows of 30, 200 and 2,500 nodes made of real ones (the committed templates, then
 * test/fixtures/workflows): copies side by side in rows, names made unique, connections kept within
 * each copy, the last copy cut at the node count. Each draw is a fresh mount (get_workflow, its tool
 * input sent), then the tool-result (the workflow as text). Timed inside the view's frame, from its
 * first message listener beginning on the tool-result (a probe script put first in the document) to
 * the first frame painted with the drawing: a requestAnimationFrame poll until body[data-drawn] is the
 * node count, then a message posted from that frame's rAF, which runs once the frame's style, layout
 * and paint are done (rasterization on the compositor's threads is not waited for). Split into script
 * (until the view's listener is done: reading the message, parsing, laying out, building the DOM, its
 * fit's forced style and layout) and render (the rest of the first frame). Apart: the host page's send
 * to the message reaching the frame, and its wait there (the test host shares the frame's process and
 * records every message it sends; a real host's cost, not the view's).
 * Reference in the same run and frame setup: a bare view drawing one <rect> per node and one <path>
 * per connection through one innerHTML string, fitted by viewBox; the view's time is reported as a
 * ratio to it. On the 2,500-node workflow also #fit's click, then #zoom-in's, each to the next frame
 * painted. Exits 1 when a target (TARGET_DRAW_MS, the SDK client's weight) is missed.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { brotliCompressSync, gzipSync } from 'node:zlib';
import { build } from 'esbuild';
import type { Frame } from 'playwright-core';
import { buildViewHtml } from '../scripts/view/build.ts';
import { LOOKS_FILE } from '../scripts/view/icons.ts';
import { readCollected } from '../scripts/catalog/templates/read.ts';
import { withNodeLooks, type NodeLooks } from '../src/catalog/nodeLooks.ts';
import { VIEW_HTML } from '../src/view/built.ts';
import { launchChromium } from '../test/e2e/browser.ts';
import { openAppHost, UI_PROTOCOL_VERSION, type AppHost } from '../test/support/appHost.ts';
import { percentile, round } from './lib/stats.ts';

const { values: flags } = parseArgs({ options: { quick: { type: 'boolean', default: false }, runs: { type: 'string' } } });
const RUNS = Number(flags.runs ?? (flags.quick ? 2 : 5));
const SIZES = [30, 200, 2500];
const ZOOM_SIZE = 2500;
const FRAME = { width: 600, height: 600 };
/** The speed target: the largest workflow drawn, tool-result to painted (median), within a second. */
const TARGET_DRAW_MS = 1000;
const SDK_ENTRY = "export { App } from '@modelcontextprotocol/ext-apps';";

// ─── Size ────────────────────────────────────────────────────────────────────────────────────────────

interface Weight {
  raw: number;
  gzip9: number;
  gzipDefault: number;
  brotli: number;
}

const weigh = (text: string): Weight => {
  const bytes = Buffer.from(text);
  return { raw: bytes.length, gzip9: gzipSync(bytes, { level: 9 }).length, gzipDefault: gzipSync(bytes).length, brotli: brotliCompressSync(bytes).length };
};

/** What `a` weighs more than `b`, field by field. */
const minus = (a: Weight, b: Weight): Weight => ({
  raw: a.raw - b.raw,
  gzip9: a.gzip9 - b.gzip9,
  gzipDefault: a.gzipDefault - b.gzipDefault,
  brotli: a.brotli - b.brotli,
});

const between = (html: string, open: RegExp, close: string): string => {
  const start = open.exec(html);
  if (!start) throw new Error(`no ${String(open)} in the view's HTML`);
  const from = start.index + start[0].length;
  return html.slice(from, html.indexOf(close, from));
};

/** The node looks the catalog build stores and the server puts into the view's HTML; null before scripts/view/icons.ts has run. */
function readLooks(): NodeLooks | null {
  return existsSync(LOOKS_FILE) ? (JSON.parse(readFileSync(LOOKS_FILE, 'utf8')) as NodeLooks) : null;
}

async function sdkAppClient(): Promise<string> {
  const result = await build({
    stdin: { contents: SDK_ENTRY, resolveDir: process.cwd(), loader: 'ts' },
    bundle: true,
    minify: true,
    platform: 'browser',
    format: 'esm',
    write: false,
    legalComments: 'none',
    logLevel: 'silent',
  });
  return result.outputFiles[0]!.text;
}

/**
 * The view's weight as served (src/server/view.ts: the built HTML with the node looks' JSON block in it),
 * split; the looks, and their icons, as what they add to the served page (its gzip with them less without).
 */
async function measureSize(html: string, looks: NodeLooks | null) {
  const style = between(html, /<style>/, '</style>');
  const script = between(html, /<script>/, '</script>');
  const served = withNodeLooks(html, looks);
  const total = weigh(served);
  const sdk = weigh(await sdkAppClient());
  return {
    total,
    /** The HTML as built (src/view/built.ts), without the looks. */
    built: weigh(html),
    style: weigh(style),
    script: weigh(script),
    /** The page less its style and script (and looks). */
    markup: weigh(html.replace(style, '').replace(script, '')),
    looks: looks && {
      file: LOOKS_FILE,
      ...minus(total, weigh(html)),
      icons: { count: looks.icons.length, ...minus(total, weigh(withNodeLooks(html, { ...looks, icons: [] }))) },
      /** Names, colours and icon numbers by node type, the about text and the licence notices. */
      rest: { types: Object.keys(looks.types).length, ...minus(weigh(withNodeLooks(html, { ...looks, icons: [] })), weigh(html)) },
    },
    committedBuildCurrent: VIEW_HTML === html,
    sdkAppClient: { entry: SDK_ENTRY, ...sdk },
    ratios: {
      gzip9ToSdkApp: round(total.gzip9 / sdk.gzip9, 3),
      gzipDefaultToSdkApp: round(total.gzipDefault / sdk.gzipDefault, 3),
    },
  };
}

// ─── Workflows ───────────────────────────────────────────────────────────────────────────────────────

interface RawNode {
  name: string;
  type?: string;
  id?: string;
  position: [number, number];
  parameters?: Record<string, unknown>;
  [key: string]: unknown;
}
type Target = { node: string; type: string; index: number };
type Connections = Record<string, Record<string, (Target[] | null)[]>>;
interface RawWorkflow {
  name?: string;
  nodes: RawNode[];
  connections?: Connections;
}

/** The real workflows copies are made of: the committed templates, then the test fixtures. */
function realWorkflows(): RawWorkflow[] {
  const dir = 'test/fixtures/workflows';
  const fixtures = readdirSync(dir)
    .filter((file) => file.endsWith('.json'))
    .sort()
    .map((file) => JSON.parse(readFileSync(join(dir, file), 'utf8')) as RawWorkflow);
  const templates = readCollected().map((template) => template.workflow as unknown as RawWorkflow);
  return [...templates, ...fixtures].filter(
    (w) => Array.isArray(w.nodes) && w.nodes.length > 0 && w.nodes.every((n) => typeof n.name === 'string' && Array.isArray(n.position)),
  );
}

/** The box a node takes on the canvas (as src/view/layout.ts draws it, roughly), with room for its name under it. */
function extent(node: RawNode): [number, number] {
  if (node.type === 'n8n-nodes-base.stickyNote') return [Number(node.parameters?.width) || 240, Number(node.parameters?.height) || 160];
  return [240, 160];
}

/**
 * A workflow of exactly `count` nodes: copies of `sources` in turn (cycling), each renamed ("<name> #<copy>")
 * with its own connections, moved into rows about as wide as the whole is tall × 1.6, the last copy cut short.
 */
function composedWorkflow(sources: RawWorkflow[], count: number) {
  const copies: { nodes: RawNode[]; connections: Connections; box: { x: number; y: number; width: number; height: number } }[] = [];
  let total = 0;
  for (let copy = 0; total < count; copy++) {
    const source = sources[copy % sources.length]!;
    const rename = (name: string) => `${name} #${copy + 1}`;
    const kept = source.nodes.slice(0, count - total);
    const names = new Set(kept.map((n) => n.name));
    const nodes = kept.map((node) => ({ ...node, name: rename(node.name), ...(node.id ? { id: `${copy + 1}-${node.id}` } : {}) }));
    const connections: Connections = {};
    for (const [from, byType] of Object.entries(source.connections ?? {})) {
      if (!names.has(from)) continue;
      connections[rename(from)] = Object.fromEntries(
        Object.entries(byType).map(([type, outputs]) => [
          type,
          (Array.isArray(outputs) ? outputs : []).map((targets) =>
            (targets ?? []).filter((t) => names.has(t.node)).map((t) => ({ ...t, node: rename(t.node) })),
          ),
        ]),
      );
    }
    let [minX, minY, maxX, maxY] = [Infinity, Infinity, -Infinity, -Infinity];
    for (const node of nodes) {
      const [w, h] = extent(node);
      minX = Math.min(minX, node.position[0]);
      minY = Math.min(minY, node.position[1]);
      maxX = Math.max(maxX, node.position[0] + w);
      maxY = Math.max(maxY, node.position[1] + h);
    }
    copies.push({ nodes, connections, box: { x: minX, y: minY, width: maxX - minX, height: maxY - minY } });
    total += nodes.length;
  }
  // Rows: shelves about 1.6 times as wide as the whole is tall.
  const GAP = 200;
  const area = copies.reduce((sum, c) => sum + (c.box.width + GAP) * (c.box.height + GAP), 0);
  const rowWidth = Math.max(...copies.map((c) => c.box.width), Math.sqrt(area * 1.6));
  let [x, y, rowHeight] = [0, 0, 0];
  const nodes: RawNode[] = [];
  const connections: Connections = {};
  for (const copy of copies) {
    if (x > 0 && x + copy.box.width > rowWidth) [x, y, rowHeight] = [0, y + rowHeight + GAP, 0];
    const [dx, dy] = [x - copy.box.x, y - copy.box.y];
    for (const node of copy.nodes) nodes.push({ ...node, position: [node.position[0] + dx, node.position[1] + dy] });
    Object.assign(connections, copy.connections);
    x += copy.box.width + GAP;
    rowHeight = Math.max(rowHeight, copy.box.height);
  }
  const edges = Object.values(connections).reduce((n, byType) => n + Object.values(byType).flat(2).length, 0);
  return {
    workflow: { id: 'x', name: `Bench: ${count} nodes`, active: false, nodes, connections, settings: {} },
    copies: copies.length,
    edges,
    stickies: nodes.filter((n) => n.type === 'n8n-nodes-base.stickyNote').length,
  };
}

// ─── The reference view ──────────────────────────────────────────────────────────────────────────────

/**
 * The floor: a view that speaks the same protocol and, on the tool-result, parses the workflow and draws
 * one rect per node and one path per connection through one innerHTML string, fitted by viewBox.
 */
const REFERENCE_HTML = `<!doctype html><html lang="en"><meta charset="utf-8"><title>bare rects</title>
<style>html,body{margin:0;height:100%}body{height:560px;background:#f5f5f5}svg{display:block;width:100%;height:100%}
rect{fill:#fff;stroke:#9ea0a6;stroke-width:2}path{fill:none;stroke:#9ea0a6;stroke-width:2}</style>
<body><svg id="canvas"></svg><script>
let nextId = 1;
const pending = new Map();
const post = (message) => parent.postMessage({ jsonrpc: '2.0', ...message }, '*');
const request = (method, params) => { const id = nextId++; post({ id, method, params }); return new Promise((resolve) => pending.set(id, resolve)); };
function draw(text) {
  const workflow = JSON.parse(text);
  const at = new Map();
  let minX = Infinity, minY = Infinity, maxX = -Infinity, maxY = -Infinity, out = '';
  for (const node of workflow.nodes) {
    const [x, y] = node.position;
    at.set(node.name, [x, y]);
    minX = Math.min(minX, x); minY = Math.min(minY, y); maxX = Math.max(maxX, x + 100); maxY = Math.max(maxY, y + 100);
    out += '<rect x="' + x + '" y="' + y + '" width="100" height="100" rx="8"/>';
  }
  for (const [from, byType] of Object.entries(workflow.connections)) {
    const [ax, ay] = at.get(from);
    for (const outputs of Object.values(byType)) for (const targets of outputs) for (const target of targets || []) {
      const [bx, by] = at.get(target.node);
      const sx = ax + 100, sy = ay + 50, ey = by + 50, reach = Math.max(40, Math.abs(bx - sx) / 2);
      out += '<path d="M' + sx + ' ' + sy + 'C' + (sx + reach) + ' ' + sy + ' ' + (bx - reach) + ' ' + ey + ' ' + bx + ' ' + ey + '"/>';
    }
  }
  const svg = document.getElementById('canvas');
  svg.setAttribute('viewBox', (minX - 40) + ' ' + (minY - 40) + ' ' + (maxX - minX + 80) + ' ' + (maxY - minY + 80));
  svg.innerHTML = out;
  document.body.dataset.drawn = String(workflow.nodes.length);
}
addEventListener('message', (event) => {
  const m = event.data;
  if (event.source !== parent || m?.jsonrpc !== '2.0') return;
  if (m.method === undefined) { pending.get(m.id)?.(m.result); pending.delete(m.id); return; }
  if (m.method === 'ui/notifications/tool-result') draw(m.params.content.map((c) => c.text).join(''));
  else if (m.id !== undefined) post({ id: m.id, result: {} });
});
request('ui/initialize', { protocolVersion: '${UI_PROTOCOL_VERSION}', appInfo: { name: 'bare rects', version: '1' }, appCapabilities: {} })
  .then(() => post({ method: 'ui/notifications/initialized', params: {} }));
</script>`;

// ─── Drawing, timed in the frame ─────────────────────────────────────────────────────────────────────

interface Draw {
  /** The view's listener beginning on the tool-result → the first frame with the drawing painted. */
  totalMs: number;
  /** … → its listener done (body[data-drawn] set): the view's script, its fit's forced layout included. */
  scriptMs: number;
  /** Its listener done → painted: the style, layout and paint left to the frame. */
  renderMs: number;
  /** The host page's send → the message reaching the frame (two frames' clocks: approximate). */
  transitMs: number;
  /** The message reaching the frame → its first listener beginning: waiting in the frame's queue. */
  queueMs: number;
  /** Reading the message's data (deserializing the clone: the workflow's text), part of the script's time. */
  readMs: number;
}

/**
 * The probe: the document's first script (added to the view's HTML and the reference's before they are
 * mounted), so its listener runs before the view's own. For each tool-result it notes when the message
 * reached the frame (the event's creation: it may then wait in the frame's queue) and when the
 * frame's first listener began on it (before its data was read: the clone is deserialized on reading).
 */
/** A script's call with its argument, as an expression to evaluate. */
const call = (fn: string, arg: unknown) => `(${fn})(${JSON.stringify(arg)})`;

const PROBE = `<script>addEventListener('message', (event) => {
  const started = performance.now();
  if (event.data?.method === 'ui/notifications/tool-result') globalThis.__arrived = { queued: event.timeStamp, started, read: performance.now() };
});</script>`;

/** The document with the probe as its first script. */
function probed(html: string): string {
  const charset = /<meta charset="utf-8"\s*\/?>/i.exec(html);
  if (!charset) throw new Error('no <meta charset> in the HTML to put the probe after');
  const at = charset.index + charset[0].length;
  return html.slice(0, at) + PROBE + html.slice(at);
}

/**
 * Arms the frame for one draw, once mounted: a listener registered after the view's own notes when
 * the view's listener is done with the tool-result (the view draws there: body[data-drawn] is set by
 * then; if it were not, an observer notes when it is), and a rAF poll when the frame with the
 * drawing is painted. `globalThis.__draw` resolves with the times.
 * The scripts for the frames are JavaScript in strings: tsx's transform would add a helper (`__name`)
 * to functions written here, which the frames lack.
 */
const ARM = `(count) => {
  const body = document.body;
  const done = () => body.dataset.drawn === String(count);
  globalThis.__draw = new Promise((resolve) => {
    const onMessage = (event) => {
      if (event.data?.method !== 'ui/notifications/tool-result') return;
      removeEventListener('message', onMessage);
      const { queued, started, read } = globalThis.__arrived;
      let drawn = NaN;
      const setDrawn = () => {
        drawn = performance.now();
        performance.mark('bench:drawn', { startTime: drawn });
      };
      if (done()) setDrawn();
      else {
        const observer = new MutationObserver(() => {
          if (!done()) return;
          setDrawn();
          observer.disconnect();
        });
        observer.observe(body, { attributes: true, attributeFilter: ['data-drawn'] });
      }
      const poll = () => {
        if (!done()) return void requestAnimationFrame(poll);
        // Posted from the frame's rAF: runs once that frame's style, layout and paint are done.
        const channel = new MessageChannel();
        channel.port1.onmessage = () => {
          const painted = performance.now();
          performance.measure('bench:draw', { start: started, end: painted });
          resolve({ queued, queuedAt: performance.timeOrigin + queued, started, read, drawn, painted });
        };
        channel.port2.postMessage(null);
      };
      requestAnimationFrame(poll);
    };
    addEventListener('message', onMessage);
  });
}`;

/** A click on the element a selector names, to the next frame painted; and the click's handler alone. */
const CLICK = `(selector) => new Promise((resolve) => {
  const start = performance.now();
  document.querySelector(selector).click();
  const handled = performance.now();
  requestAnimationFrame(() => {
    const channel = new MessageChannel();
    channel.port1.onmessage = () => resolve({ totalMs: performance.now() - start, scriptMs: handled - start });
    channel.port2.postMessage(null);
  });
})`;

/** The host page's send of the tool-result, at the time it was sent (ms since the epoch). */
const SEND = `async (result) => {
  const at = performance.timeOrigin + performance.now();
  await globalThis.appHost.sendToolResult(result);
  return at;
}`;

async function drawOnce(host: AppHost, html: string, result: unknown, nodes: number): Promise<Draw> {
  await host.mount({ html, tool: { name: 'get_workflow' }, args: { id: 'x' }, ...FRAME });
  const frame = host.frame();
  await frame.evaluate(call(ARM, nodes));
  const sentAt = (await host.page.evaluate(call(SEND, result))) as number;
  const t = (await frame.evaluate('globalThis.__draw')) as { queued: number; queuedAt: number; started: number; read: number; drawn: number; painted: number };
  const errors = host.consoleErrors();
  if (errors.length) throw new Error(`the view failed: ${errors.join('; ')}`);
  return {
    totalMs: t.painted - t.started,
    scriptMs: t.drawn - t.started,
    renderMs: t.painted - t.drawn,
    transitMs: t.queuedAt - sentAt,
    queueMs: t.started - t.queued,
    readMs: t.read - t.started,
  };
}

async function clickToPaint(frame: Frame, selector: string): Promise<{ totalMs: number; scriptMs: number }> {
  return (await frame.evaluate(call(CLICK, selector))) as { totalMs: number; scriptMs: number };
}

const sorted = (values: number[]) => [...values].sort((a, b) => a - b);
/** Median and p90 (of 5 runs: the slowest), and every run. */
const stats = (values: number[]) => ({
  medianMs: round(percentile(sorted(values), 50), 1),
  p90Ms: round(percentile(sorted(values), 90), 1),
  runs: values.map((v) => round(v, 1)),
});
const summary = (draws: Draw[]) => ({
  total: stats(draws.map((d) => d.totalMs)),
  script: stats(draws.map((d) => d.scriptMs)),
  render: stats(draws.map((d) => d.renderMs)),
  read: stats(draws.map((d) => d.readMs)),
  transit: stats(draws.map((d) => d.transitMs)),
  queue: stats(draws.map((d) => d.queueMs)),
  fromSend: stats(draws.map((d) => d.transitMs + d.queueMs + d.totalMs)),
});

// ─── Main ────────────────────────────────────────────────────────────────────────────────────────────

const kib = (n: number) => `${round(n / 1024, 1)} KiB`;
const ms = (n: number) => `${round(n, 1)} ms`;
const elementsDrawn = async (host: AppHost) => (await host.frame().evaluate('document.querySelectorAll("#canvas *:not(defs, defs *)").length')) as number;

async function measureDraws(count: number, sources: RawWorkflow[], host: AppHost, viewHtml: string, referenceHtml: string) {
  const composed = composedWorkflow(sources, count);
  const text = JSON.stringify(composed.workflow);
  const result = { content: [{ type: 'text' as const, text }] };
  const view: Draw[] = [];
  const reference: Draw[] = [];
  const fit: { totalMs: number; scriptMs: number }[] = [];
  const zoomIn: { totalMs: number; scriptMs: number }[] = [];
  const elements = { view: 0, reference: 0 };
  // One warm-up of each (not counted), then the view and the reference in turn, so a slow spell hits both.
  for (let run = -1; run < RUNS; run++) {
    const v = await drawOnce(host, viewHtml, result, count);
    elements.view = await elementsDrawn(host);
    if (run >= 0) view.push(v);
    if (count === ZOOM_SIZE && run >= 0) {
      fit.push(await clickToPaint(host.frame(), '#fit'));
      zoomIn.push(await clickToPaint(host.frame(), '#zoom-in'));
    }
    const r = await drawOnce(host, referenceHtml, result, count);
    elements.reference = await elementsDrawn(host);
    if (run >= 0) reference.push(r);
  }
  const median = (draws: Draw[]) => percentile(sorted(draws.map((d) => d.totalMs)), 50);
  const row = {
    nodes: count,
    edges: composed.edges,
    stickies: composed.stickies,
    copies: composed.copies,
    resultBytes: Buffer.byteLength(text),
    elements,
    view: summary(view),
    reference: summary(reference),
    ratio: round(median(view) / median(reference), 2),
  };
  const zoom =
    count === ZOOM_SIZE
      ? {
          nodes: count,
          fit: { total: stats(fit.map((d) => d.totalMs)), handler: stats(fit.map((d) => d.scriptMs)) },
          zoomIn: { total: stats(zoomIn.map((d) => d.totalMs)), handler: stats(zoomIn.map((d) => d.scriptMs)) },
        }
      : undefined;
  return { row, zoom };
}

async function main() {
  const html = await buildViewHtml();
  const looks = readLooks();
  if (!looks) console.error(`no ${LOOKS_FILE} (npx tsx scripts/view/icons.ts builds it): the view is measured without node looks`);
  const size = await measureSize(html, looks);
  const served = withNodeLooks(html, looks);
  const sources = realWorkflows();
  const load = { before: loadavg().map((n) => round(n)), after: [] as number[] };
  const browser = await launchChromium();
  const host = await openAppHost(browser);
  try {
    const draws: Awaited<ReturnType<typeof measureDraws>>['row'][] = [];
    let zoom: Awaited<ReturnType<typeof measureDraws>>['zoom'];
    for (const count of SIZES) {
      const measured = await measureDraws(count, sources, host, probed(served), probed(REFERENCE_HTML));
      draws.push(measured.row);
      zoom ??= measured.zoom;
      console.error(`drew ${count} nodes: view ${ms(measured.row.view.total.medianMs)}, bare ${ms(measured.row.reference.total.medianMs)}`);
    }
    load.after = loadavg().map((n) => round(n));
    const largest = draws.find((d) => d.nodes === Math.max(...SIZES))!;
    const targets = {
      gzip: {
        bytes: size.sdkAppClient.gzip9,
        what: "the view's HTML (gzip -9) weighs less than the SDK's App client alone",
        within: size.total.gzip9 < size.sdkAppClient.gzip9,
      },
      draw: {
        ms: TARGET_DRAW_MS,
        what: `a ${largest.nodes}-node workflow drawn (median) within ${TARGET_DRAW_MS} ms`,
        within: largest.view.total.medianMs <= TARGET_DRAW_MS,
      },
    };
    const result = {
      date: new Date().toISOString(),
      issue: 43,
      quick: flags.quick,
      runs: RUNS,
      chromium: browser.version(),
      machine: { cores: cpus().length, cpu: cpus()[0]?.model ?? '', loadAverage: load },
      frame: FRAME,
      size,
      draws,
      zoom,
      targets,
    };

    console.log(
      `\nworkflow view, Chromium ${result.chromium}, ${result.machine.cores} cores, load average ${load.before.join(' ')} → ${load.after.join(' ')}\n`,
    );
    console.log('size                       raw          gzip -9      gzip (6)     brotli');
    const sizeRows: [string, Weight | null][] = [
      ['view HTML, served', size.total],
      ['  style', size.style],
      ['  script', size.script],
      ['  markup', size.markup],
      ['  node looks', size.looks],
      [`    icons (${size.looks?.icons.count ?? 0})`, size.looks?.icons ?? null],
      [`    types (${size.looks?.rest.types ?? 0}), notices`, size.looks?.rest ?? null],
      ['SDK App client', size.sdkAppClient],
    ];
    for (const [name, w] of sizeRows) {
      if (w) console.log(`${name.padEnd(26)} ${kib(w.raw).padEnd(12)} ${kib(w.gzip9).padEnd(12)} ${kib(w.gzipDefault).padEnd(12)} ${kib(w.brotli)}`);
    }
    console.log(
      `view ÷ SDK App client, gzip -9: ${size.ratios.gzip9ToSdkApp}×` +
        (size.looks ? '' : ' (without node looks)') +
        (size.committedBuildCurrent ? '' : ' (src/view/built.ts is stale: measured a fresh build)'),
    );
    console.log(`\ndraw: the tool-result in the view's frame → its first frame painted; median / p90 of ${RUNS} (script + render medians)`);
    console.log('nodes  edges  stickies  result      elements        view                          bare rects+paths            view ÷ bare  send → view');
    for (const d of draws) {
      const cell = (s: ReturnType<typeof summary>) =>
        `${ms(s.total.medianMs)} / ${ms(s.total.p90Ms)} (${round(s.script.medianMs, 0)} + ${round(s.render.medianMs, 0)})`;
      console.log(
        `${String(d.nodes).padEnd(6)} ${String(d.edges).padEnd(6)} ${String(d.stickies).padEnd(9)} ${kib(d.resultBytes).padEnd(11)} ` +
          `${`${d.elements.view} / ${d.elements.reference}`.padEnd(15)} ${cell(d.view).padEnd(29)} ${cell(d.reference).padEnd(27)} ${`${d.ratio}×`.padEnd(12)} ` +
          `+${ms(d.view.transit.medianMs + d.view.queue.medianMs)}`,
      );
    }
    if (zoom) {
      console.log(
        `\n${zoom.nodes} nodes: #fit click → painted ${ms(zoom.fit.total.medianMs)} / ${ms(zoom.fit.total.p90Ms)} (its handler ${ms(zoom.fit.handler.medianMs)}); ` +
          `#zoom-in click → painted ${ms(zoom.zoomIn.total.medianMs)} / ${ms(zoom.zoomIn.total.p90Ms)} (its handler ${ms(zoom.zoomIn.handler.medianMs)})`,
      );
    }
    for (const target of Object.values(targets)) console.log(`target: ${target.what}: ${target.within ? 'within' : 'OVER'}`);
    mkdirSync('bench/results', { recursive: true });
    writeFileSync('bench/results/view.json', JSON.stringify(result, null, 2) + '\n');
    if (!Object.values(targets).every((t) => t.within)) process.exitCode = 1;
  } finally {
    await host.close();
    await browser.close();
  }
}

await main();
