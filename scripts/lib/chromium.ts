/**
 * Finds a Chromium for the browser tests and the page benchmark, without ever downloading one from a
 * browser CDN: CHROMIUM_PATH, then a Chrome or Chromium the system has, then Playwright's own browser
 * cache, then the Chromium that the `@sparticuz/chromium` npm package ships (Linux x64), unpacked on
 * first use. Where none can be had, one error line names the fix.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { homedir, tmpdir } from 'node:os';
import { delimiter, dirname, join } from 'node:path';

export interface ChromiumBinary {
  path: string;
  /** Where it was found, for the line the caller prints. */
  source: string;
}

type Platform = NodeJS.Platform;

/** Command names a system Chrome or Chromium goes by on PATH (Debian, Ubuntu, Fedora, Google's packages). */
const SYSTEM_COMMANDS = ['chromium', 'chromium-browser', 'google-chrome', 'google-chrome-stable', 'chrome'];

const MAC_APPS = ['/Applications/Google Chrome.app/Contents/MacOS/Google Chrome', '/Applications/Chromium.app/Contents/MacOS/Chromium'];

/** What the `@sparticuz/chromium` package's own brotli archive holds a build for. */
const PACKAGED_PLATFORM = { platform: 'linux', arch: 'x64' } as const;

/** The executable inside one Playwright cache entry (`chromium-1200`, `chromium_headless_shell-1200`). */
function playwrightExecutables(entry: string, platform: Platform): string[] {
  if (platform === 'darwin') {
    return ['chrome-mac', 'chrome-mac-arm64', 'chrome-mac-x64'].flatMap((dir) => [
      join(entry, dir, 'Chromium.app', 'Contents', 'MacOS', 'Chromium'),
      join(entry, dir, 'Google Chrome for Testing.app', 'Contents', 'MacOS', 'Google Chrome for Testing'),
      join(entry, dir, 'chrome-headless-shell'),
      join(entry, dir, 'headless_shell'),
    ]);
  }
  return ['chrome-linux', 'chrome-linux64', 'chrome-headless-shell-linux64'].flatMap((dir) => [
    join(entry, dir, 'chrome'),
    join(entry, dir, 'headless_shell'),
    join(entry, dir, 'chrome-headless-shell'),
  ]);
}

/** Playwright's browser cache: PLAYWRIGHT_BROWSERS_PATH, else its per-platform default. */
function playwrightCache(env: NodeJS.ProcessEnv, platform: Platform, home: string): string {
  if (env.PLAYWRIGHT_BROWSERS_PATH && env.PLAYWRIGHT_BROWSERS_PATH !== '0') return env.PLAYWRIGHT_BROWSERS_PATH;
  if (platform === 'darwin') return join(home, 'Library', 'Caches', 'ms-playwright');
  return join(env.XDG_CACHE_HOME ?? join(home, '.cache'), 'ms-playwright');
}

export interface FindOptions {
  env?: NodeJS.ProcessEnv;
  platform?: Platform;
  home?: string;
  exists?: (path: string) => boolean;
  list?: (dir: string) => string[];
}

/**
 * A browser already on this machine, in the order above, or null. Pure over its options so the order
 * can be tested without the machine's own browsers.
 */
export function findInstalledChromium(options: FindOptions = {}): ChromiumBinary | null {
  const env = options.env ?? process.env;
  const platform = options.platform ?? process.platform;
  const exists = options.exists ?? existsSync;
  const list = options.list ?? ((dir: string) => (existsSync(dir) ? readdirSync(dir) : []));

  if (env.CHROMIUM_PATH) {
    if (!exists(env.CHROMIUM_PATH)) throw new Error(`CHROMIUM_PATH is ${env.CHROMIUM_PATH}, and there is no file there: fix it or unset it`);
    return { path: env.CHROMIUM_PATH, source: 'CHROMIUM_PATH' };
  }
  for (const dir of (env.PATH ?? '').split(delimiter).filter(Boolean)) {
    for (const command of SYSTEM_COMMANDS) {
      const path = join(dir, command);
      if (exists(path)) return { path, source: 'the system' };
    }
  }
  if (platform === 'darwin') {
    const app = MAC_APPS.find(exists);
    if (app) return { path: app, source: 'the system' };
  }
  const cache = playwrightCache(env, platform, options.home ?? homedir());
  // Newest revision first; a full Chromium before a headless shell of the same revision.
  const entries = list(cache)
    .filter((name) => /^chromium(_headless_shell)?-\d+$/.test(name))
    .sort((a, b) => Number(b.split('-').pop()) - Number(a.split('-').pop()) || a.length - b.length);
  for (const entry of entries) {
    const path = playwrightExecutables(join(cache, entry), platform).find(exists);
    if (path) return { path, source: `Playwright's cache (${entry})` };
  }
  return null;
}

/** The one line a machine without any browser gets. */
export function noChromiumMessage(platform: Platform, arch: string): string {
  return (
    `No Chrome or Chromium found (CHROMIUM_PATH, PATH, Playwright's cache) and @sparticuz/chromium ships none for ${platform}-${arch}: ` +
    `install Chrome or Chromium (Debian: apt-get install chromium) or set CHROMIUM_PATH to one`
  );
}

/**
 * A Chromium to drive: one already here, else the one `@sparticuz/chromium` (a devDependency) ships,
 * unpacked into the system's temporary folder the first time (about 1 s), saying so through `log`.
 */
export async function chromiumExecutable(log: (line: string) => void = console.log): Promise<ChromiumBinary> {
  const installed = findInstalledChromium();
  if (installed) return installed;
  if (process.platform !== PACKAGED_PLATFORM.platform || process.arch !== PACKAGED_PLATFORM.arch) {
    throw new Error(noChromiumMessage(process.platform, process.arch));
  }
  // The package exports no package.json: read it beside its entry point (build/index.js).
  const entry = createRequire(import.meta.url).resolve('@sparticuz/chromium');
  const { version } = JSON.parse(readFileSync(join(dirname(entry), '..', 'package.json'), 'utf8')) as { version: string };
  const { default: Chromium } = await import('@sparticuz/chromium');
  const started = performance.now();
  const unpacked = join(tmpdir(), 'chromium');
  if (!existsSync(unpacked)) {
    log(`No system Chromium: unpacking Chromium ${version} from the @sparticuz/chromium npm package to ${unpacked} (~200 MB, once per machine)…`);
  }
  const path = await Chromium.executablePath();
  log(`Chromium ${version} from @sparticuz/chromium at ${path} (${Math.round(performance.now() - started)} ms)`);
  return { path, source: `@sparticuz/chromium ${version}` };
}

/** Flags for a headless run on a closed network: without the background-networking ones Chromium keeps calling Google's hosts. */
export const CHROMIUM_ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run'];
