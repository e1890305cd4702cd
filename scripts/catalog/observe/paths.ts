import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { ObservedFile } from './observe.ts';

/** Where `npm run catalog:observe` writes what it saw, committed beside the seed specs. */
export const OBSERVED_FILE = join(resolve(import.meta.dirname, '../../..'), 'specs/observed/behaviour.json');

export function readObserved(file = OBSERVED_FILE): ObservedFile | undefined {
  return existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as ObservedFile) : undefined;
}
