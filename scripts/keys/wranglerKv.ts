import { wrangler } from '../lib/wrangler.ts';

/**
 * The API_KEYS namespace through wrangler, local (`--local [--persist-to DIR]`, what `wrangler dev`
 * reads) or deployed (`--remote`); `target` is those flags. The sync calls are for the key store
 * (./store.ts); `wranglerKv` wraps them as the part of KVNamespace that src/workspaces/ and
 * src/auth/ use, so the script runs the Worker's own code against either namespace.
 */
const BINDING = ['--binding', 'API_KEYS'];

/** What `wrangler kv key get --local` prints for a name with no value (exit code 0). */
const LOCAL_MISSING = 'Value not found\n';
/** How `wrangler kv key get --remote` fails for a name with no value: the API's 404. */
const REMOTE_MISSING = / - 404: /;

/** The value stored under `name`, exactly (no --text: that adds a newline), or null when there is none. */
export function kvGet(name: string, target: string[]): string | null {
  let printed: string;
  try {
    printed = wrangler(['kv', 'key', 'get', name, ...BINDING, ...target]);
  } catch (error) {
    if (error instanceof Error && REMOTE_MISSING.test(error.message)) return null;
    throw error;
  }
  // Every value this namespace holds is JSON, so the local "not found" line is never one of them.
  return target.includes('--local') && printed === LOCAL_MISSING ? null : printed;
}

export function kvPut(name: string, value: string, target: string[], metadata?: unknown): void {
  wrangler(['kv', 'key', 'put', name, value, ...BINDING, ...(metadata === undefined ? [] : ['--metadata', JSON.stringify(metadata)]), ...target]);
}

export function kvDelete(name: string, target: string[]): void {
  wrangler(['kv', 'key', 'delete', name, ...BINDING, ...target]);
}

/** Every name under `prefix` with its metadata (wrangler reads all pages): no values read. */
export function kvList<Metadata = unknown>(prefix: string, target: string[]): { name: string; metadata?: Metadata }[] {
  return JSON.parse(wrangler(['kv', 'key', 'list', ...BINDING, '--prefix', prefix, ...target])) as { name: string; metadata?: Metadata }[];
}

/** The KVNamespace subset src/ uses: get (text or json), put with metadata, delete, list by prefix. */
export function wranglerKv(target: string[]): KVNamespace {
  const kv = {
    async get(name: string, type?: 'text' | 'json' | { type?: string }) {
      const value = kvGet(name, target);
      const json = type === 'json' || (typeof type === 'object' && type.type === 'json');
      return value !== null && json ? JSON.parse(value) : value;
    },
    async put(name: string, value: string, options?: { metadata?: unknown }) {
      kvPut(name, value, target, options?.metadata);
    },
    async delete(name: string) {
      kvDelete(name, target);
    },
    async list(options?: { prefix?: string }) {
      return { keys: kvList(options?.prefix ?? '', target), list_complete: true, cacheStatus: null };
    },
  };
  return kv as unknown as KVNamespace;
}
