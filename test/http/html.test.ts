import { describe, expect, it } from 'vitest';
import { html, htmlResponse } from '../../src/http/html';

describe('html', () => {
  it('escapes every interpolated value that is not already Html', () => {
    const evil = `<script>alert("x")</script>&'`;
    expect(html`<p title="${evil}">${evil}</p>`.text).toBe(
      '<p title="&#60;script&#62;alert(&#34;x&#34;)&#60;/script&#62;&#38;&#39;">&#60;script&#62;alert(&#34;x&#34;)&#60;/script&#62;&#38;&#39;</p>',
    );
  });

  it('inserts Html as is, joins arrays, and renders nothing for null, undefined and false', () => {
    const items = ['a<b', 'c'].map((s) => html`<li>${s}</li>`);
    expect(html`<ul>${items}</ul>${null}${undefined}${false}${0}`.text).toBe('<ul><li>a&#60;b</li><li>c</li></ul>0');
  });
});

describe('htmlResponse', () => {
  it('sends the document with its CSP, no framing, no caching and no referrer', async () => {
    const response = htmlResponse({ title: 'T & t', body: html`<p>hi</p>`, csp: "default-src 'none'", status: 418 });
    expect(response.status).toBe(418);
    expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(response.headers.get('content-security-policy')).toBe("default-src 'none'; frame-ancestors 'none'; base-uri 'none'");
    expect(response.headers.get('cache-control')).toBe('no-store');
    expect(response.headers.get('referrer-policy')).toBe('no-referrer');
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
    const text = await response.text();
    expect(text).toMatch(/^<!doctype html>\n<html lang="en">/);
    expect(text).toContain('<title>T &#38; t</title>');
    expect(text).toContain('<body><p>hi</p></body>');
  });
});
