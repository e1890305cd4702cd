/**
 * The landing page's weight and load time, in Chromium (scripts/lib/chromium.ts) against `npm run dev` (wrangler dev),
 * beside two references in the same run: GET /health on the same server (the floor: one small Worker
 * response) and the MCP Inspector's web UI (@modelcontextprotocol/inspector-client, the page developers
 * otherwise open to look at a server's tools), served from loopback by a plain Node server.
 *
 *   npm run bench:page              15 cold loads per page     flags: --runs N
 *   npm run bench:page -- --quick   5 loads (CI)
 *
 * Bytes: what the browser fetched for the page (HTML, CSS, JS), raw and as gzip/brotli would send them
 * (wrangler dev does not compress; Cloudflare's edge does). Times: medians over cold loads (a new
 * browser context each: no cache) of time to first byte, DOMContentLoaded and load, and the landing
 * page's search round trip (type a query, results on screen). Writes bench/results/page.json.
 * Exits 1 if the landing page is over its budget: 50 KB compressed (gzip), everything included.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { extname, join } from 'node:path';
import { parseArgs } from 'node:util';
import { brotliCompressSync, gzipSync } from 'node:zlib';
import { chromium, type Browser } from 'playwright-core';
import { CHROMIUM_ARGS, chromiumExecutable } from '../scripts/lib/chromium.ts';
import { startWranglerDev } from '../scripts/lib/wranglerDev.ts';
import { percentile, round } from './lib/stats.ts';

const { values: flags } = parseArgs({ options: { quick: { type: 'boolean', default: false }, runs: { type: 'string' } } });
const RUNS = Number(flags.runs ?? (flags.quick ? 5 : 15));
const BUDGET_GZIP_BYTES = 50 * 1024;
const INSPECTOR = '@modelcontextprotocol/inspector-client@1.0.3';

interface Load {
  ttfbMs: number;
  domContentLoadedMs: number;
  loadMs: number;
  /** URL → bytes of body the browser received. */
  resources: Record<string, number>;
}

const median = (values: number[]) =>
  round(
    percentile(
      [...values].sort((a, b) => a - b),
      50,
    ),
  );

/** The Inspector's built UI, from the npm registry once (cached); null without the registry. */
function inspectorDist(): string | null {
  const cache = join(tmpdir(), 'n8n-edge-bench', INSPECTOR.replace(/[@/]/g, '_'));
  const dist = join(cache, 'package', 'dist');
  if (existsSync(join(dist, 'index.html'))) return dist;
  try {
    mkdirSync(cache, { recursive: true });
    const tarball = execFileSync('npm', ['pack', INSPECTOR, '--pack-destination', cache, '--silent'], { encoding: 'utf8' }).trim().split('\n').at(-1)!;
    execFileSync('tar', ['xzf', join(cache, tarball), '-C', cache]);
    return dist;
  } catch (error) {
    console.warn(`No Inspector reference (${String(error).split('\n')[0]})`);
    return null;
  }
}

const TYPES: Record<string, string> = { '.html': 'text/html', '.js': 'text/javascript', '.css': 'text/css', '.svg': 'image/svg+xml' };

/** A static file server on loopback for the Inspector's dist (index.html for unknown paths, as a SPA). */
async function serveStatic(root: string): Promise<{ url: string; server: Server }> {
  const server = createServer((request, response) => {
    const path = new URL(request.url!, 'http://x').pathname;
    const file = join(root, path === '/' || !existsSync(join(root, path)) ? 'index.html' : path);
    response.writeHead(200, { 'content-type': TYPES[extname(file)] ?? 'application/octet-stream' });
    response.end(readFileSync(file));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as { port: number }).port}`, server };
}

async function coldLoad(browser: Browser, url: string): Promise<Load> {
  const context = await browser.newContext();
  const page = await context.newPage();
  await page.goto(url, { waitUntil: 'load' });
  const timing = await page.evaluate(() => {
    const nav = performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming;
    const resources = performance.getEntriesByType('resource') as PerformanceResourceTiming[];
    return {
      ttfbMs: nav.responseStart - nav.startTime,
      domContentLoadedMs: nav.domContentLoadedEventEnd - nav.startTime,
      loadMs: nav.loadEventEnd - nav.startTime,
      resources: Object.fromEntries([[nav.name, nav.encodedBodySize], ...resources.map((r) => [r.name, r.encodedBodySize])]),
    };
  });
  await context.close();
  return timing;
}

/**
 * A fetch tried once more if the connection is reset: the Inspector's static server (a plain Node
 * server here) now and then resets the first request after Chromium's loads (seen in about one quick run
 * in three), and a byte count read again is the same count.
 */
async function fetchOnceMore(url: string): Promise<Response> {
  try {
    return await fetch(url);
  } catch (error) {
    if ((error as { cause?: { code?: string } }).cause?.code !== 'ECONNRESET') throw error;
    return fetch(url);
  }
}

/** What the page's files weigh raw and compressed, fetched again here so the compression is ours to measure. */
async function weigh(urls: string[]) {
  let raw = 0;
  let gzip = 0;
  let brotli = 0;
  const files: Record<string, number> = {};
  for (const url of urls) {
    const body = Buffer.from(await (await fetchOnceMore(url)).arrayBuffer());
    files[new URL(url).pathname] = body.length;
    raw += body.length;
    gzip += gzipSync(body, { level: 9 }).length;
    brotli += brotliCompressSync(body).length;
  }
  return { files, raw, gzip, brotli };
}

async function measure(browser: Browser, url: string) {
  const loads: Load[] = [];
  await coldLoad(browser, url); // warm the server, not the browser
  for (let i = 0; i < RUNS; i++) loads.push(await coldLoad(browser, url));
  // The page's own files: the Inspector's UI also tries its proxy on another port, which is not running.
  const own = Object.keys(loads[0]!.resources).filter((u) => new URL(u).origin === new URL(url).origin);
  const bytes = await weigh(own);
  return {
    url,
    requests: own.length,
    bytes,
    ttfbMs: median(loads.map((l) => l.ttfbMs)),
    domContentLoadedMs: median(loads.map((l) => l.domContentLoadedMs)),
    loadMs: median(loads.map((l) => l.loadMs)),
  };
}

/** Type a query with a key entered, until the ranked results are on screen. */
async function searchRoundTrips(browser: Browser, url: string, apiKey: string) {
  const context = await browser.newContext();
  const page = await context.newPage();
  await page.goto(url);
  await page.locator('#api-key').fill(apiKey);
  await page.getByRole('button', { name: 'Use key' }).click();
  await page.locator('#key-status', { hasText: 'Using your' }).waitFor();
  const times: number[] = [];
  const queries = ['send email', 'google sheets', 'vector store', 'http request', 'slack', 'postgres', 'schedule', 'ai agent'];
  for (let i = 0; i < RUNS * 2; i++) {
    const query = queries[i % queries.length]!;
    const started = performance.now();
    await page.locator('#q').fill(query);
    await page.locator('#q').press('Enter');
    await page.locator('#search-status', { hasText: `for “${query}”` }).waitFor();
    times.push(performance.now() - started);
  }
  await context.close();
  return {
    runs: times.length,
    medianMs: median(times),
    p90Ms: round(
      percentile(
        [...times].sort((a, b) => a - b),
        90,
      ),
    ),
  };
}

const kb = (n: number) => `${round(n / 1024, 1)} KB`;

async function main() {
  // With an n8n configured, the page lists all 40 tools: the heaviest it gets.
  const server = await startWranglerDev({ vars: { N8N_API_URL: 'http://127.0.0.1:9', N8N_API_KEY: 'bench' } });
  const dist = inspectorDist();
  const inspector = dist ? await serveStatic(dist) : null;
  const browser = await chromium.launch({ executablePath: (await chromiumExecutable()).path, args: CHROMIUM_ARGS });
  try {
    const landing = await measure(browser, `${server.url}/`);
    const floor = await measure(browser, `${server.url}/health`);
    const reference = inspector ? await measure(browser, `${inspector.url}/`) : null;
    const search = await searchRoundTrips(browser, `${server.url}/`, server.apiKey!);
    const result = {
      date: new Date().toISOString(),
      runs: RUNS,
      landing,
      floor,
      inspector: reference && { package: INSPECTOR, ...reference },
      search,
      ratios: {
        landingLoadToHealthLoad: round(landing.loadMs / floor.loadMs),
        landingGzipToInspectorGzip: reference ? round(landing.bytes.gzip / reference.bytes.gzip, 4) : null,
        landingLoadToInspectorLoad: reference ? round(landing.loadMs / reference.loadMs) : null,
      },
      budget: { gzipBytes: BUDGET_GZIP_BYTES, within: landing.bytes.gzip <= BUDGET_GZIP_BYTES },
    };
    console.log(`cold loads: ${RUNS} per page, Chromium ${browser.version()}, medians`);
    console.log('page               requests    raw        gzip       brotli     TTFB      DCL       load');
    for (const [name, m] of [['landing /', landing], ['/health (floor)', floor], ...(reference ? [['Inspector UI', reference] as const] : [])] as const) {
      console.log(
        `${name.padEnd(18)} ${String(m.requests).padEnd(11)} ${kb(m.bytes.raw).padEnd(10)} ${kb(m.bytes.gzip).padEnd(10)} ${kb(m.bytes.brotli).padEnd(10)} ${`${m.ttfbMs} ms`.padEnd(9)} ${`${m.domContentLoadedMs} ms`.padEnd(9)} ${m.loadMs} ms`,
      );
    }
    console.log(
      `landing files: ${Object.entries(landing.bytes.files)
        .map(([f, n]) => `${f} ${kb(n)}`)
        .join(', ')}`,
    );
    console.log(`search in the page (type, Enter, results shown): median ${search.medianMs} ms, p90 ${search.p90Ms} ms over ${search.runs}`);
    console.log(
      `ratios: load ${result.ratios.landingLoadToHealthLoad}× /health` +
        (reference ? `; gzip weight ${result.ratios.landingGzipToInspectorGzip}× and load ${result.ratios.landingLoadToInspectorLoad}× the Inspector UI` : ''),
    );
    console.log(`budget: ${kb(landing.bytes.gzip)} gzip of ${kb(BUDGET_GZIP_BYTES)}: ${result.budget.within ? 'within' : 'OVER'}`);
    mkdirSync('bench/results', { recursive: true });
    writeFileSync('bench/results/page.json', JSON.stringify(result, null, 2));
    if (!result.budget.within) process.exitCode = 1;
  } finally {
    await browser.close();
    inspector?.server.close();
    await server.stop();
  }
}

await main();
