/**
 * Our own strict SVG sanitizer, for icons inlined many to one document under a strict CSP. What it keeps
 * is an allowlist: shapes, paths, groups, text, gradients, patterns, clip paths, masks, markers and the
 * simpler filter primitives, with their geometric and presentation attributes. It drops with their
 * content: scripts, <style> (scripts/view/icons/minify.ts inlines its rules first), foreignObject,
 * images, animation (<set>/<animate> can rewrite an href), anything namespaced or unknown; it unwraps
 * <a> and <switch>, keeping what they hold. It drops every event handler (no on* attribute is allowed),
 * every reference that is not to an id of the same icon (href, xlink:href, url(…)), every value with a
 * CSS escape, a script or data URL, or a CSS function that fetches, and every style declaration of a
 * property that is not a presentation property. Text is kept in <text> and <tspan> only.
 *
 * The result has a root of `<svg xmlns viewBox>` only: what the source set on its root (fill, stroke…)
 * moves to a group around its children, so a consumer that copies the root's children into a <symbol>
 * loses nothing. Ids are kept (dangling references dropped) and prefixed apart (prefixIds), so many
 * icons live in one document.
 */
import { parseXml, serializeXml, type XmlElement, type XmlNode } from './xml.ts';

const SVG_NS = 'http://www.w3.org/2000/svg';

/** Elements kept, with their allowed content. */
const ELEMENTS = new Set([
  'svg',
  'g',
  'defs',
  'symbol',
  'use',
  'path',
  'rect',
  'circle',
  'ellipse',
  'line',
  'polyline',
  'polygon',
  'text',
  'tspan',
  'linearGradient',
  'radialGradient',
  'stop',
  'pattern',
  'clipPath',
  'mask',
  'marker',
  'filter',
  'feBlend',
  'feColorMatrix',
  'feComponentTransfer',
  'feComposite',
  'feDropShadow',
  'feFlood',
  'feFuncA',
  'feFuncB',
  'feFuncG',
  'feFuncR',
  'feGaussianBlur',
  'feMerge',
  'feMergeNode',
  'feMorphology',
  'feOffset',
]);

/** Elements dropped but whose children are kept. */
const UNWRAPPED = new Set(['a', 'switch']);

/** Elements that draw something: an icon without one is empty. */
const DRAWING = new Set(['path', 'rect', 'circle', 'ellipse', 'line', 'polyline', 'polygon', 'text', 'use']);

/** Elements that may name another by href (always an id of the same icon). */
const HREF_HOLDERS = new Set(['use', 'linearGradient', 'radialGradient', 'pattern', 'filter']);

/** CSS properties allowed, as attributes and in style attributes: presentation only. */
const PRESENTATION = new Set([
  'alignment-baseline',
  'baseline-shift',
  'clip-path',
  'clip-rule',
  'color',
  'color-interpolation',
  'color-interpolation-filters',
  'direction',
  'display',
  'dominant-baseline',
  'fill',
  'fill-opacity',
  'fill-rule',
  'filter',
  'flood-color',
  'flood-opacity',
  'font-family',
  'font-size',
  'font-stretch',
  'font-style',
  'font-variant',
  'font-weight',
  'image-rendering',
  'isolation',
  'letter-spacing',
  'lighting-color',
  'marker-end',
  'marker-mid',
  'marker-start',
  'mask',
  'mask-type',
  'mix-blend-mode',
  'opacity',
  'overflow',
  'paint-order',
  'shape-rendering',
  'stop-color',
  'stop-opacity',
  'stroke',
  'stroke-dasharray',
  'stroke-dashoffset',
  'stroke-linecap',
  'stroke-linejoin',
  'stroke-miterlimit',
  'stroke-opacity',
  'stroke-width',
  'text-anchor',
  'text-decoration',
  'text-rendering',
  'transform',
  'transform-origin',
  'unicode-bidi',
  'vector-effect',
  'visibility',
  'word-spacing',
  'writing-mode',
]);

/** Other attributes allowed: geometry, gradient, pattern, marker and filter parameters. */
const GEOMETRY = new Set([
  'id',
  'd',
  'x',
  'y',
  'x1',
  'y1',
  'x2',
  'y2',
  'cx',
  'cy',
  'r',
  'rx',
  'ry',
  'fx',
  'fy',
  'fr',
  'dx',
  'dy',
  'width',
  'height',
  'points',
  'pathLength',
  'viewBox',
  'preserveAspectRatio',
  'transform',
  'offset',
  'gradientUnits',
  'gradientTransform',
  'spreadMethod',
  'clipPathUnits',
  'maskUnits',
  'maskContentUnits',
  'patternUnits',
  'patternContentUnits',
  'patternTransform',
  'markerWidth',
  'markerHeight',
  'markerUnits',
  'refX',
  'refY',
  'orient',
  'rotate',
  'textLength',
  'lengthAdjust',
  'filterUnits',
  'primitiveUnits',
  'in',
  'in2',
  'result',
  'stdDeviation',
  'mode',
  'operator',
  'k1',
  'k2',
  'k3',
  'k4',
  'values',
  'type',
  'tableValues',
  'slope',
  'intercept',
  'amplitude',
  'exponent',
  'radius',
  'style',
  'href',
  'xlink:href',
]);

const ID = /^[A-Za-z_][\w.-]*$/;
/** A reference to an id, the only url() kept: url(#id), url('#id'), url("#id"). */
const URL_REF = /url\(\s*(['"]?)#([A-Za-z_][\w.-]*)\1\s*\)/gi;
const ANY_URL = /url\s*\(/gi;
/** What no kept value may hold: CSS escapes and comments, script and data URLs, CSS functions that fetch. */
const FORBIDDEN_VALUE =
  /\\|\/\*|<|>|(?:java|vb)script\s*:|data\s*:|expression\s*\(|@import|\b(?:image|image-set|-webkit-image-set|element|cross-fade|src|paint)\s*\(/i;

export interface Sanitized {
  /** The clean icon, ids not yet prefixed. */
  root: XmlElement;
  /** What was dropped, sorted: "element script", "attribute onload", "href (not #id)"… */
  removed: string[];
}

export class RejectedSvg extends Error {}

/** Parses and sanitizes one SVG document; throws (XmlError, RejectedSvg) when nothing safe and drawable is left. */
export function sanitizeSvg(text: string): Sanitized {
  const source = parseXml(text);
  if (source.name !== 'svg') throw new RejectedSvg(`root is <${source.name}>, not <svg>`);
  const removed = new Set<string>();

  const clean = (node: XmlElement, inText: boolean): XmlNode[] => {
    if (UNWRAPPED.has(node.name)) {
      removed.add(`element ${node.name} (unwrapped)`);
      return node.children.flatMap((child) => cleanChild(child, inText));
    }
    if (!ELEMENTS.has(node.name)) {
      removed.add(`element ${node.name}`);
      return [];
    }
    const textual = node.name === 'text' || node.name === 'tspan';
    return [
      {
        type: 'element',
        name: node.name,
        attributes: cleanAttributes(node.name, node.attributes, removed),
        children: node.children.flatMap((child) => cleanChild(child, textual)),
      },
    ];
  };
  const cleanChild = (child: XmlNode, inText: boolean): XmlNode[] => {
    if (child.type === 'element') return clean(child, inText);
    if (inText) return [child];
    if (child.value.trim() !== '') removed.add('text outside <text>');
    return [];
  };

  const viewBox = viewBoxOf(source);
  if (!viewBox) throw new RejectedSvg('no viewBox, and no numeric width and height to make one of');
  const children = source.children.flatMap((child) => cleanChild(child, false));
  // The root keeps its namespace and viewBox; what else it draws with goes to a group around its children.
  const ROOT_ONLY = new Set(['viewBox', 'width', 'height', 'x', 'y', 'preserveAspectRatio', 'id', 'xmlns', 'version']);
  const inherited = cleanAttributes(
    'g',
    source.attributes.filter(([name]) => !ROOT_ONLY.has(name) && !name.startsWith('xmlns:')),
    removed,
  );
  const content: XmlNode[] = inherited.length > 0 && children.length > 0 ? [{ type: 'element', name: 'g', attributes: inherited, children }] : children;
  const root: XmlElement = {
    type: 'element',
    name: 'svg',
    attributes: [
      ['xmlns', SVG_NS],
      ['viewBox', viewBox],
    ],
    children: content,
  };
  dropDuplicateIds(root, new Set(), removed);
  // Each pass drops references to ids no element has, and <use>s left without one (which may take ids with them).
  while (dropDangling(root, idsOf(root, new Set()), removed));
  if (!draws(root)) throw new RejectedSvg('nothing drawable left');
  return { root, removed: [...removed].sort() };
}

/** An element's attributes as kept: allowed names, safe values, href normalized from xlink:href (href wins when both are set). */
function cleanAttributes(element: string, attributes: [string, string][], removed: Set<string>): [string, string][] {
  const kept: [string, string][] = [];
  const hasHref = attributes.some(([name]) => name === 'href');
  for (const [name, value] of attributes) {
    if (name === 'xlink:href' && hasHref) {
      removed.add('xlink:href beside href');
      continue;
    }
    const attribute = cleanAttribute(element, name, value, removed);
    if (attribute) kept.push(attribute);
  }
  return kept;
}

/** An attribute as kept (href normalized from xlink:href), or undefined when dropped. */
function cleanAttribute(element: string, name: string, value: string, removed: Set<string>): [string, string] | undefined {
  if (name === 'href' || name === 'xlink:href') {
    const target = /^\s*#([A-Za-z_][\w.-]*)\s*$/.exec(value)?.[1];
    if (!HREF_HOLDERS.has(element)) removed.add(`href on <${element}>`);
    else if (target === undefined) removed.add('href (not #id)');
    else return ['href', `#${target}`];
    return undefined;
  }
  if (!PRESENTATION.has(name) && !GEOMETRY.has(name)) {
    removed.add(`attribute ${name}`);
    return undefined;
  }
  if (name === 'id') {
    if (ID.test(value)) return [name, value];
    removed.add('id (invalid)');
    return undefined;
  }
  if (name === 'style') {
    const style = cleanStyle(value, removed);
    return style ? [name, style] : undefined;
  }
  const safe = safeValue(value);
  if (typeof safe !== 'string') {
    removed.add(`${name} (${safe.why})`);
    return undefined;
  }
  return [name, safe];
}

/** A style attribute's presentation declarations, each value checked as an attribute's. */
function cleanStyle(style: string, removed: Set<string>): string | undefined {
  if (/\\|\/\*/.test(style)) {
    removed.add('style (escape or comment)');
    return undefined;
  }
  const kept: string[] = [];
  for (const declaration of style.split(';')) {
    if (declaration.trim() === '') continue;
    const colon = declaration.indexOf(':');
    const property = colon < 0 ? '' : declaration.slice(0, colon).trim().toLowerCase();
    const value = colon < 0 ? '' : declaration.slice(colon + 1).trim();
    if (!PRESENTATION.has(property)) {
      removed.add(`style ${property || '(malformed)'}`);
      continue;
    }
    const safe = safeValue(value);
    if (typeof safe !== 'string') removed.add(`style ${property} (${safe.why})`);
    else kept.push(`${property}:${safe}`);
  }
  return kept.length > 0 ? kept.join(';') : undefined;
}

/** The value, or why it is refused: no url() but url(#id), nothing that fetches or runs. */
function safeValue(value: string): string | { why: string } {
  if (FORBIDDEN_VALUE.test(value)) return { why: 'forbidden value' };
  const urls = value.match(ANY_URL)?.length ?? 0;
  if (urls === 0) return value;
  if ([...value.matchAll(URL_REF)].length !== urls) return { why: 'url() not to #id' };
  return value.replace(URL_REF, (_, __, id: string) => `url(#${id})`);
}

/** Keeps the first element of each id (document order), drops the id of the others. */
function dropDuplicateIds(node: XmlElement, seen: Set<string>, removed: Set<string>): void {
  node.attributes = node.attributes.filter(([name, value]) => {
    if (name !== 'id') return true;
    if (!seen.has(value)) return seen.add(value);
    removed.add('id (duplicate)');
    return false;
  });
  for (const child of node.children) if (child.type === 'element') dropDuplicateIds(child, seen, removed);
}

const idsOf = (node: XmlElement, ids: Set<string>): Set<string> => {
  for (const [name, value] of node.attributes) if (name === 'id') ids.add(value);
  for (const child of node.children) if (child.type === 'element') idsOf(child, ids);
  return ids;
};

/** Drops references to ids not in `ids` and the <use>s left without one; whether anything was dropped. */
function dropDangling(node: XmlElement, ids: Set<string>, removed: Set<string>): boolean {
  let changed = false;
  const resolves = (value: string) => [...value.matchAll(URL_REF)].every((ref) => ids.has(ref[2]!));
  node.attributes = node.attributes.flatMap(([name, value]): [string, string][] => {
    if (name === 'href' ? ids.has(value.slice(1)) : name === 'style' || resolves(value)) return [[name, value]];
    removed.add(`${name} (to a missing id)`);
    changed = true;
    return [];
  });
  const style = node.attributes.find(([name]) => name === 'style');
  if (style) {
    const declarations = style[1].split(';').filter((declaration) => resolves(declaration));
    if (declarations.length < style[1].split(';').length) {
      removed.add('style (to a missing id)');
      changed = true;
      style[1] = declarations.join(';');
      if (style[1] === '') node.attributes = node.attributes.filter((attribute) => attribute !== style);
    }
  }
  node.children = node.children.filter((child) => {
    if (child.type !== 'element' || child.name !== 'use' || child.attributes.some(([name]) => name === 'href')) return true;
    removed.add('element use without a reference to the icon');
    changed = true;
    return false;
  });
  for (const child of node.children) if (child.type === 'element' && dropDangling(child, ids, removed)) changed = true;
  return changed;
}

/** The root's viewBox, or one made from a numeric width and height. */
function viewBoxOf(root: XmlElement): string | undefined {
  const attribute = (name: string) => root.attributes.find(([n]) => n === name)?.[1];
  const box = attribute('viewBox')
    ?.trim()
    .split(/[\s,]+/)
    .map(Number);
  if (box?.length === 4 && box.every(Number.isFinite) && box[2]! > 0 && box[3]! > 0) return box.join(' ');
  const size = ['width', 'height'].map((name) => /^\s*([\d.]+)\s*(px)?\s*$/.exec(attribute(name) ?? '')?.[1]).map(Number);
  if (size.every((n) => Number.isFinite(n) && n > 0)) return `0 0 ${size[0]} ${size[1]}`;
  return undefined;
}

const draws = (node: XmlElement): boolean => DRAWING.has(node.name) || node.children.some((child) => child.type === 'element' && draws(child));

/** A copy with every id, href and url(#id) prefixed: `a` → `${prefix}a`. */
export function prefixIds(node: XmlElement, prefix: string): XmlElement {
  const attributes = node.attributes.map(([name, value]): [string, string] => {
    if (name === 'id') return [name, `${prefix}${value}`];
    if (name === 'href') return [name, `#${prefix}${value.slice(1)}`];
    return [name, value.replace(URL_REF, (_, __, id: string) => `url(#${prefix}${id})`)];
  });
  return { ...node, attributes, children: node.children.map((child) => (child.type === 'element' ? prefixIds(child, prefix) : child)) };
}

/** Sanitized, prefixed and serialized: the markup one icon is stored as. */
export const cleanMarkup = (text: string, prefix: string): string => serializeXml(prefixIds(sanitizeSvg(text).root, prefix));
