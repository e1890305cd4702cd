/**
 * How the workflow view (src/view) draws each node type: its display name, its colour and its icon,
 * taken from the node packages the catalog is built from (scripts/view/icons.ts: sanitised SVG, within
 * a size budget, docs/view-icons.md). Stored with the catalog in KV, like the node descriptions, so n8n's
 * own files are never part of this repository; the view's HTML gets them as a JSON block when it is read.
 */
export interface NodeLooks {
  /** How the table was made: sources and versions, licences, budget. */
  about: string;
  /** By node type (`n8n-nodes-base.httpRequest`): `icon` indexes `icons`, absent when the type has none here. */
  types: Record<string, { name: string; color: string | null; icon?: number }>;
  /** Sanitised SVG documents, their ids prefixed so all can share one page. */
  icons: string[];
  /** Licence notices the icons must carry, by the package they come from. */
  notices?: Record<string, string>;
}

/**
 * The view's HTML with the looks in it, as a JSON block (`<script type="application/json">`: data, not
 * run, so no CSP is involved) where the page marks its place. Every `<` is escaped, so nothing in the
 * JSON can close the block.
 */
export function withNodeLooks(html: string, looks: NodeLooks | null): string {
  if (!looks) return html;
  const json = JSON.stringify(looks).replace(/</g, '\\u003c');
  return html.replace('<!--node-looks-->', () => `<script type="application/json" id="node-looks">${json}</script>`);
}
