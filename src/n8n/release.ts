/**
 * Which n8n release the configured instance runs. n8n's public API does not say, and its node-type
 * list needs a signed-in session; its editor page does, without sign-in: n8n writes its release into
 * the `n8n:config:sentry` meta tag (`{"dsn":…,"release":"n8n@1.123.81"}`, base64; URL-encoded JSON in
 * some releases). Read once per instance URL and kept a few minutes (an upgrade shows up after that).
 */
import type { N8nConnection } from './client';
import { isRelease } from './releaseTable';

/** What is known of the instance's release. */
export type InstanceRelease =
  | { known: true; release: string }
  /** An instance is configured, but its release could not be read: `reason` says why. */
  | { known: false; reason: string };

/** How long a release read (or a failure to read one) is kept per instance URL. */
export const RELEASE_TTL_MS = 5 * 60_000;
const FAILURE_TTL_MS = 60_000;
/** The editor page is small (15 kB); its meta tags are in the first few. */
const MAX_PAGE_BYTES = 256 * 1024;
const FETCH_TIMEOUT_MS = 5_000;

/** The value of the `n8n:config:sentry` meta tag's release (`1.123.81`), or null when the page has none readable. */
export function releaseFromEditorPage(html: string): string | null {
  for (const tag of html.match(/<meta\b[^>]*>/gi) ?? []) {
    if (!/\bname\s*=\s*["']n8n:config:sentry["']/i.test(tag)) continue;
    const content = /\bcontent\s*=\s*(?:"([^"]*)"|'([^']*)')/i.exec(tag);
    const config = decodeConfig(content?.[1] ?? content?.[2] ?? '');
    const release = config && typeof config === 'object' && 'release' in config ? config.release : undefined;
    const version = typeof release === 'string' ? release.replace(/^n8n@/, '') : '';
    return isRelease(version) ? version : null;
  }
  return null;
}

/** The meta tag's JSON, whichever way n8n encoded it (base64, URL-encoding, or none). */
function decodeConfig(content: string): unknown {
  const attempts = [() => new TextDecoder().decode(Uint8Array.from(atob(content), (c) => c.charCodeAt(0))), () => decodeURIComponent(content), () => content];
  for (const attempt of attempts) {
    try {
      return JSON.parse(attempt());
    } catch {
      // not this encoding
    }
  }
  return null;
}

/** The instance's base URL (where its editor is): N8N_API_URL without `/api/v1`. */
const editorUrl = (apiBase: string): string => `${apiBase.replace(/\/api\/v1$/, '')}/`;

async function readRelease(url: string): Promise<InstanceRelease> {
  let response: Response;
  try {
    // No API key: the page needs none, and the key goes only where the API is.
    response = await fetch(url, { headers: { accept: 'text/html' }, redirect: 'manual', signal: AbortSignal.timeout(FETCH_TIMEOUT_MS) });
  } catch (error) {
    // The error's name only: its message may hold the instance's URL, which callers are not shown.
    return { known: false, reason: `its editor page could not be read (${error instanceof Error ? error.name : 'fetch failed'})` };
  }
  if (!response.ok) {
    await response.body?.cancel();
    // A redirect is not followed: the address is a user's (a workspace's connection), and may point anywhere.
    return { known: false, reason: `its editor page answered HTTP ${response.status}` };
  }
  const release = releaseFromEditorPage(await headOf(response));
  return release ? { known: true, release } : { known: false, reason: 'its editor page does not carry its release (no readable n8n:config:sentry meta tag)' };
}

/** The first MAX_PAGE_BYTES of a page, as text: the head is all that is read. */
async function headOf(response: Response): Promise<string> {
  const reader = response.body?.getReader();
  if (!reader) return '';
  const decoder = new TextDecoder();
  let text = '';
  let bytes = 0;
  while (bytes < MAX_PAGE_BYTES) {
    const { done, value } = await reader.read();
    if (done) return text + decoder.decode();
    bytes += value.byteLength;
    text += decoder.decode(value, { stream: true });
    if (/<\/head>/i.test(text)) break;
  }
  await reader.cancel();
  return text;
}

const cache = new Map<string, { value: Promise<InstanceRelease>; until: number }>();

/**
 * The release of the instance a call acts on (src/workspaces/connectionFor.ts), or undefined when it has
 * none. Kept per instance URL for RELEASE_TTL_MS (a failure for a minute), so a tool call costs one page
 * read in a while.
 */
export async function instanceRelease(connection: N8nConnection | undefined, now = Date.now()): Promise<InstanceRelease | undefined> {
  if (!connection) return undefined;
  const url = editorUrl(connection.apiBase);
  const kept = cache.get(url);
  if (kept && kept.until > now) return kept.value;
  const value = readRelease(url);
  cache.set(url, { value, until: now + RELEASE_TTL_MS });
  const read = await value;
  if (!read.known) cache.set(url, { value, until: now + FAILURE_TTL_MS });
  return read;
}
