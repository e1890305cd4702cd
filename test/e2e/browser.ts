import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
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
