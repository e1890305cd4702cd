/**
 * The test a connection passes before it is saved (issue 41, item 3): n8n answers at the base URL, its
 * public API takes the key, and its release is read from the editor page. Each failure is said in
 * words that name the fix, with neither the key nor n8n's own answer in it (an answer may echo what it
 * was sent). Redirects are not followed: the key goes only to the host it was given for.
 */
import { releaseFromEditorPage } from '../n8n/release';

export type ConnectionTest = { ok: true; release: string | null } | { ok: false; problem: string };

export interface TestOptions {
  fetch?: typeof fetch;
  timeoutMs?: number;
}

const TIMEOUT_MS = 10_000;

export async function testConnection(base: string, apiKey: string, options: TestOptions = {}): Promise<ConnectionTest> {
  const call = options.fetch ?? fetch;
  const timeoutMs = options.timeoutMs ?? TIMEOUT_MS;
  const host = new URL(base).host;
  let response: Response;
  try {
    response = await call(`${base}/api/v1/workflows?limit=1`, {
      headers: { 'x-n8n-api-key': apiKey, accept: 'application/json' },
      redirect: 'manual',
      signal: AbortSignal.timeout(timeoutMs),
    });
  } catch (error) {
    const name = error instanceof Error ? error.name : '';
    if (name === 'TimeoutError' || name === 'AbortError')
      return {
        ok: false,
        problem: `${host} did not answer in ${timeoutMs / 1000} s: check that n8n is running and reachable from the internet at that address`,
      };
    return { ok: false, problem: `${host} could not be reached (${name || 'connection failed'}): check the address, and that its TLS certificate is valid` };
  }
  if (response.status >= 300 && response.status < 400) {
    const to = response.headers.get('location');
    const elsewhere = to ? new URL(to, base).host : '';
    return {
      ok: false,
      problem: `${host} redirects the API${elsewhere && elsewhere !== host ? ` to ${elsewhere}` : ''}, which is not followed with the key: give the address n8n answers at itself`,
    };
  }
  if (response.status === 401 || response.status === 403)
    return { ok: false, problem: `n8n at ${host} refused the API key: create one in n8n (Settings → n8n API) and give it whole` };
  if (response.status === 404)
    return {
      ok: false,
      problem: `no n8n public API at ${base}/api/v1: give the instance's own address (what its editor opens at), and check that its public API is on (N8N_PUBLIC_API_DISABLED unset)`,
    };
  if (!response.ok) return { ok: false, problem: `n8n at ${host} answered ${response.status}: try again once it is healthy` };
  const body: unknown = await response.json().catch(() => null);
  if (typeof body !== 'object' || body === null || !Array.isArray((body as { data?: unknown }).data))
    return { ok: false, problem: `${host} answered, but not as n8n's public API does: check that the address is n8n's` };
  return { ok: true, release: await editorRelease(base, call, timeoutMs) };
}

/** The release the editor page says (no key sent: the page needs none), or null when it cannot be read. */
async function editorRelease(base: string, call: typeof fetch, timeoutMs: number): Promise<string | null> {
  try {
    const page = await call(`${base}/`, { headers: { accept: 'text/html' }, redirect: 'manual', signal: AbortSignal.timeout(timeoutMs) });
    return page.ok ? releaseFromEditorPage(await page.text()) : null;
  } catch {
    return null;
  }
}
