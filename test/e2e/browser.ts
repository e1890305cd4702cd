import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { chromium, type Browser } from 'playwright-core';

/** Debian's chromium (`apt-get install chromium`); playwright-core drives it and downloads nothing. */
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/** Screenshots the browser tests take, kept after the run (git-ignored). */
export const SCREENSHOTS = join(import.meta.dirname, '.artifacts', 'screenshots');

export async function launchChromium(): Promise<Browser> {
  if (!existsSync(CHROMIUM)) {
    throw new Error(`No Chromium at ${CHROMIUM}: install Debian's (apt-get install chromium) or set CHROMIUM_PATH`);
  }
  mkdirSync(SCREENSHOTS, { recursive: true });
  return chromium.launch({
    executablePath: CHROMIUM,
    // Without the background-networking flags Chromium keeps calling Google's hosts, which a closed network refuses.
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run'],
  });
}
