import { mkdirSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { build } from 'esbuild';
import { chromium, type Browser } from 'playwright-core';
import { CHROMIUM_ARGS, chromiumExecutable } from '../../scripts/lib/chromium';

/** Screenshots the browser tests take, kept after the run (git-ignored). */
export const SCREENSHOTS = join(import.meta.dirname, '.artifacts', 'screenshots');

/** playwright-core drives a Chromium found or unpacked by scripts/lib/chromium.ts; it downloads nothing. */
export async function launchChromium(): Promise<Browser> {
  const binary = await chromiumExecutable((line) => process.stderr.write(`${line}\n`));
  mkdirSync(SCREENSHOTS, { recursive: true });
  return chromium.launch({ executablePath: binary.path, args: CHROMIUM_ARGS });
}

export interface PageServer {
  /** Where the page is, e.g. `http://127.0.0.1:40123`: an origin of its own, apart from the server under test. */
  origin: string;
  stop(): Promise<void>;
}

/**
 * Serves a blank page on a loopback port of its own whose script bundles `entry` for the browser and
 * puts its exports on `globalThis.module`, for `page.evaluate` to call: code running there talks to the
 * server under test cross-origin, as a web app would, preflights and all.
 */
export async function servePage(entry: string): Promise<PageServer> {
  const bundle = await build({ entryPoints: [entry], bundle: true, format: 'esm', platform: 'browser', target: 'es2022', write: false, logLevel: 'silent' });
  const script = bundle.outputFiles[0]!.text;
  const html = '<!doctype html><title>browser client</title><script type="module">import * as module from "/module.js"; globalThis.module = module;</script>';
  const server = createServer((request, response) => {
    if (request.url === '/module.js') response.writeHead(200, { 'content-type': 'text/javascript' }).end(script);
    else if (request.url === '/') response.writeHead(200, { 'content-type': 'text/html' }).end(html);
    else response.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    stop: () => new Promise<void>((resolve, reject) => server.close((error) => (error ? reject(error) : resolve()))),
  };
}
