import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { generateApiKey, newKeyRecord, sha256Hex, type ApiKeyRecord } from '../../src/auth/apiKeys.ts';
import { devKeyFile } from './devKeyFile.ts';
import { putKey } from './store.ts';

/**
 * The local development key (every scope): made on the first `npm run dev`, then reused. Written to
 * the local KV on every run, since that state may have been wiped while the file stayed.
 */
export async function ensureDevKey(stateDir: string, target: string[]): Promise<string> {
  const file = devKeyFile(stateDir);
  let saved: { key: string; record: ApiKeyRecord } | undefined = existsSync(file) ? JSON.parse(readFileSync(file, 'utf8')) : undefined;
  if (!saved) {
    const key = generateApiKey();
    saved = { key, record: newKeyRecord(await sha256Hex(key), 'local development', ['*']) };
    mkdirSync(stateDir, { recursive: true });
    writeFileSync(file, JSON.stringify(saved), { mode: 0o600 });
  }
  putKey(saved.record, target);
  return saved.key;
}
