/**
 * A strict parser and a serializer for the XML of SVG icons: elements, attributes, text, CDATA,
 * comments and processing instructions (both dropped), the five predefined entities and numeric
 * character references. Anything else is an error, never a guess: a DOCTYPE with an internal subset
 * (entity definitions), an unknown entity, a duplicate attribute, a mismatched or unclosed tag, text
 * outside the root. The serializer escapes every text and attribute value, so what it writes parses to
 * the same tree in a browser's XML parser (DOMParser, image/svg+xml) and inside HTML.
 */

export interface XmlElement {
  type: 'element';
  name: string;
  attributes: [name: string, value: string][];
  children: XmlNode[];
}

export interface XmlText {
  type: 'text';
  value: string;
}

export type XmlNode = XmlElement | XmlText;

export class XmlError extends Error {}

const NAME = /[A-Za-z_][\w.:-]*/y;
const SPACE = /[ \t\r\n]*/y;
const ENTITIES: Record<string, string> = { lt: '<', gt: '>', amp: '&', quot: '"', apos: "'" };

/** The root element of an XML document. */
export function parseXml(text: string): XmlElement {
  let at = 0;
  const fail = (why: string): never => {
    throw new XmlError(`${why} at offset ${at}`);
  };
  const skipSpace = () => {
    SPACE.lastIndex = at;
    SPACE.exec(text);
    at = SPACE.lastIndex;
  };
  const name = (): string => {
    NAME.lastIndex = at;
    const match = NAME.exec(text);
    if (!match) return fail('expected a name');
    at = NAME.lastIndex;
    return match[0];
  };
  const until = (end: string, what: string): string => {
    const stop = text.indexOf(end, at);
    if (stop < 0) fail(`unterminated ${what}`);
    const body = text.slice(at, stop);
    at = stop + end.length;
    return body;
  };
  /** Comments, processing instructions and the DOCTYPE: skipped, or false when none is here. */
  const skipMarkup = (): boolean => {
    if (text.startsWith('<!--', at)) {
      at += 4;
      until('-->', 'comment');
    } else if (text.startsWith('<?', at)) {
      at += 2;
      until('?>', 'processing instruction');
    } else if (text.startsWith('<!DOCTYPE', at)) {
      const body = until('>', 'DOCTYPE');
      if (body.includes('[')) fail('DOCTYPE with an internal subset (entity definitions) refused');
    } else return false;
    return true;
  };

  const element = (): XmlElement => {
    at++; // <
    const tag = name();
    const node: XmlElement = { type: 'element', name: tag, attributes: [], children: [] };
    const seen = new Set<string>();
    for (;;) {
      const before = at;
      skipSpace();
      if (text.startsWith('/>', at)) {
        at += 2;
        return node;
      }
      if (text[at] === '>') {
        at++;
        break;
      }
      if (at === before) fail(`expected a space before an attribute of <${tag}>`);
      const attribute = name();
      if (seen.has(attribute)) fail(`duplicate attribute ${attribute} on <${tag}>`);
      seen.add(attribute);
      skipSpace();
      if (text[at] !== '=') fail(`attribute ${attribute} without a value`);
      at++;
      skipSpace();
      const quote = text[at];
      if (quote !== '"' && quote !== "'") return fail(`unquoted value of ${attribute}`);
      at++;
      const raw = until(quote, 'attribute value');
      if (raw.includes('<')) fail(`"<" in the value of ${attribute}`);
      // XML normalizes whitespace characters in attribute values to spaces.
      node.attributes.push([attribute, decode(raw, fail).replace(/[\t\r\n]/g, ' ')]);
    }
    for (;;) {
      if (at >= text.length) fail(`<${tag}> is not closed`);
      if (text.startsWith('</', at)) {
        at += 2;
        const closing = name();
        if (closing !== tag) fail(`</${closing}> closes <${tag}>`);
        skipSpace();
        if (text[at] !== '>') fail(`malformed </${closing}>`);
        at++;
        return node;
      }
      if (text.startsWith('<![CDATA[', at)) {
        at += 9;
        node.children.push({ type: 'text', value: until(']]>', 'CDATA section') });
      } else if (text.startsWith('<!DOCTYPE', at)) {
        fail('DOCTYPE inside an element');
      } else if (skipMarkup()) {
        // a comment or processing instruction
      } else if (text[at] === '<') {
        node.children.push(element());
      } else {
        const stop = text.indexOf('<', at);
        const raw = text.slice(at, stop < 0 ? text.length : stop);
        at += raw.length;
        node.children.push({ type: 'text', value: decode(raw, fail) });
      }
    }
  };

  // A byte order mark, then the prolog: comments, processing instructions, one DOCTYPE, whitespace.
  if (text.charCodeAt(0) === 0xfeff) at = 1;
  for (;;) {
    skipSpace();
    if (!skipMarkup()) break;
  }
  if (text[at] !== '<') fail('expected the root element');
  const root = element();
  for (;;) {
    skipSpace();
    if (at >= text.length) break;
    if (!skipMarkup()) fail('content after the root element');
  }
  return root;
}

/** Entities and character references decoded; anything else named is refused. */
function decode(raw: string, fail: (why: string) => never): string {
  return raw.replace(/&([^;&]*);?/g, (whole, ref: string) => {
    if (!whole.endsWith(';')) return fail(`"&" that starts no entity`);
    if (ENTITIES[ref] !== undefined) return ENTITIES[ref];
    const code = /^#x([0-9a-fA-F]{1,6})$/.exec(ref)?.[1] ?? /^#([0-9]{1,7})$/.exec(ref)?.[1];
    if (code === undefined) return fail(`unknown entity &${ref};`);
    const point = Number.parseInt(code, ref.startsWith('#x') ? 16 : 10);
    if (point === 0 || point > 0x10ffff || (point >= 0xd800 && point <= 0xdfff)) return fail(`invalid character reference &${ref};`);
    return String.fromCodePoint(point);
  });
}

const escapeText = (value: string) => value.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
const escapeAttribute = (value: string) => escapeText(value).replace(/"/g, '&quot;');

/** Compact XML: no whitespace between tags, attributes in double quotes, empty elements self-closed. */
export function serializeXml(node: XmlNode): string {
  if (node.type === 'text') return escapeText(node.value);
  const attributes = node.attributes.map(([name, value]) => ` ${name}="${escapeAttribute(value)}"`).join('');
  if (node.children.length === 0) return `<${node.name}${attributes}/>`;
  return `<${node.name}${attributes}>${node.children.map(serializeXml).join('')}</${node.name}>`;
}
