import { describe, expect, inject, it } from 'vitest';
import { instanceRelease, releaseFromEditorPage, RELEASE_TTL_MS } from '../../src/n8n/release';
import realPage from '../fixtures/n8n/editor-1.123.81.html?raw';

const n8nUrl = inject('n8nUrl');
const requests = () => fetch(`${n8nUrl}/__fake/requests`).then((r) => r.json() as Promise<string[]>);

describe('the release on an n8n editor page', () => {
  it('is read from the n8n:config:sentry meta tag of a real n8n 1.123.81 (base64 JSON)', () => {
    expect(releaseFromEditorPage(realPage)).toBe('1.123.81');
  });

  it('is read when the JSON is URL-encoded or plain, and whatever the attribute order and quotes', () => {
    const json = JSON.stringify({ dsn: '', environment: 'production', release: 'n8n@1.90.2' });
    expect(releaseFromEditorPage(`<meta name="n8n:config:sentry" content="${encodeURIComponent(json)}">`)).toBe('1.90.2');
    expect(releaseFromEditorPage(`<meta content='${json}' name='n8n:config:sentry'>`)).toBe('1.90.2');
    expect(releaseFromEditorPage(`<META NAME="n8n:config:sentry" CONTENT="${btoa(json.replace('1.90.2', '2.0.0-rc.1'))}">`)).toBe('2.0.0-rc.1');
  });

  it('is null when the page has no such tag, or its content is not a release', () => {
    expect(releaseFromEditorPage('<html><head><title>Sign in</title></head></html>')).toBeNull();
    expect(releaseFromEditorPage(realPage.replace('n8n:config:sentry', 'n8n:config:other'))).toBeNull();
    expect(releaseFromEditorPage('<meta name="n8n:config:sentry" content="bm90IGpzb24=">')).toBeNull();
    const notRelease = btoa(JSON.stringify({ release: 'n8n@latest' }));
    expect(releaseFromEditorPage(`<meta name="n8n:config:sentry" content="${notRelease}">`)).toBeNull();
  });
});

describe('the configured instance’s release', () => {
  /** The fake n8n served under /n8n-<release>/ runs that release (test/fakes/n8n/server.ts). */
  const servedAs = (path: string) => ({ apiBase: `${n8nUrl}${path}/api/v1`, apiKey: 'unused' });

  it('is undefined without an instance', async () => {
    expect(await instanceRelease(undefined)).toBeUndefined();
  });

  it('is read from the instance’s editor page, once in a few minutes', async () => {
    const instance = servedAs('/n8n-1.123.81');
    const reads = async () => (await requests()).filter((r) => r === 'GET /n8n-1.123.81/').length;
    const start = 1_000_000_000_000;
    const before = await reads();
    expect(await instanceRelease(instance, start)).toEqual({ known: true, release: '1.123.81' });
    expect(await instanceRelease(instance, start + RELEASE_TTL_MS - 1)).toEqual({ known: true, release: '1.123.81' });
    expect(await reads()).toBe(before + 1);
    expect(await instanceRelease(instance, start + RELEASE_TTL_MS)).toEqual({ known: true, release: '1.123.81' });
    expect(await reads()).toBe(before + 2);
  });

  it('is unknown, saying why, when the instance has no editor page there; the reason names no URL', async () => {
    expect(await instanceRelease(servedAs(''))).toEqual({ known: false, reason: 'its editor page answered HTTP 404' });
  });

  it('is unknown when the instance cannot be reached', async () => {
    const result = await instanceRelease({ apiBase: 'http://127.0.0.1:1/api/v1', apiKey: 'unused' });
    expect(result).toMatchObject({ known: false, reason: expect.stringMatching(/^its editor page could not be read/) });
    expect(JSON.stringify(result)).not.toContain('127.0.0.1');
  });
});
