/** HTML the Worker renders itself: one escaping rule, one set of security headers. */

/** Markup that is already safe: `html` inserts it as is. */
export class Html {
  constructor(readonly text: string) {}
}

const escapeHtml = (value: string): string => value.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/**
 * A template tag that escapes every interpolated value unless it is Html (hono's `html` does the same):
 * arrays are joined, and null, undefined and false render as nothing.
 */
export function html(strings: TemplateStringsArray, ...values: unknown[]): Html {
  let out = strings[0]!;
  values.forEach((value, i) => (out += render(value) + strings[i + 1]!));
  return new Html(out);
}

function render(value: unknown): string {
  if (value instanceof Html) return value.text;
  if (Array.isArray(value)) return value.map(render).join('');
  if (value === null || value === undefined || value === false) return '';
  return escapeHtml(typeof value === 'string' ? value : (JSON.stringify(value) ?? ''));
}

export interface HtmlPage {
  title: string;
  body: Html;
  /** What the page may load: its Content-Security-Policy, minus framing (never allowed). */
  csp: string;
  /** Extra markup in <head> (stylesheet, script). */
  head?: Html;
  status?: number;
  headers?: Headers;
}

/** A whole document, never cached (it can be about the caller), never framed, never leaking the URL onwards. */
export function htmlResponse({ title, body, csp, head, status = 200, headers = new Headers() }: HtmlPage): Response {
  headers.set('Content-Type', 'text/html; charset=utf-8');
  headers.set('Cache-Control', 'no-store');
  headers.set('Referrer-Policy', 'no-referrer');
  headers.set('X-Content-Type-Options', 'nosniff');
  headers.set('Content-Security-Policy', `${csp}; frame-ancestors 'none'; base-uri 'none'`);
  const document = html`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${title}</title>${head}</head>
<body>${body}</body></html>`;
  return new Response(document.text, { status, headers });
}
