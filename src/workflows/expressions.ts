/**
 * n8n expressions: a string parameter starting with `=` whose `{{ … }}` parts are JavaScript. Split
 * as n8n splits them (a part ends at the first `}}` after its `{{`), and read for the nodes they name.
 */
import { setOwn } from '../lib/ownKeys';
import { MAX_PATH } from './findings';
import { isExpression } from './values';

/** The code parts of an expression; `unclosed` when a `{{` has no `}}` after it. */
export function expressionParts(expression: string): { code: string[]; unclosed: boolean } {
  const code: string[] = [];
  let at = 1;
  for (;;) {
    const open = expression.indexOf('{{', at);
    if (open < 0) return { code, unclosed: false };
    const close = expression.indexOf('}}', open + 2);
    if (close < 0) return { code, unclosed: true };
    code.push(expression.slice(open + 2, close));
    at = close + 2;
  }
}

const QUOTED = String.raw`(?:'((?:[^'\\\n]|\\.)*)'|"((?:[^"\\\n]|\\.)*)"|\x60((?:[^\x60\\$]|\\.)*)\x60)`;
/**
 * `$('Name')`, `$node['Name']`, `$node.Name`, `$items('Name')`: the ways code names another node.
 * Linear in the code: within quotes a character is either escaped or not, never both ways, so a
 * failed match gives nothing back to try again, and a match resumes where the last one ended.
 */
const REFERENCE = new RegExp(String.raw`\$\(\s*${QUOTED}\s*\)|\$node\[\s*${QUOTED}\s*\]|\$node\.([A-Za-z_$][\w$]*)|\$items\(\s*${QUOTED}`, 'g');

const unescape = (s: string) => s.replace(/\\(.)/g, '$1');

/** The node names a piece of code refers to; comments and the text of strings do not count (n8n never runs them). */
export function referencedNodes(code: string): string[] {
  const names: string[] = [];
  for (const m of liveCode(code).matchAll(REFERENCE)) {
    const raw = m.slice(1).find((g) => g !== undefined);
    if (raw !== undefined) names.push(unescape(raw));
  }
  return names;
}

/** Characters where liveCode's reading may change: comments, quotes, template braces. */
const SPECIAL = /[/'"`{}]/g;

/** What a string literal opening here is an argument of, when it names a node: `$(`, `$node[`, `$items(`. */
const NAMES_NODE = /(?:\$\(|\$node\[|\$items\()\s*$/;

/**
 * Code as it runs: comments (`//…`, `/* … *\/`) and the text of string literals blanked, except a
 * literal that names a node (`$('Name')`); a template literal's `${…}` parts stay code. One pass
 * with a stack of the template literals and braces it is in, so nesting costs nothing extra.
 */
export function liveCode(code: string): string {
  // No comment, string or template can start: nothing to blank (most expressions).
  if (!/[/'"`]/.test(code)) return code;
  const out: string[] = [];
  // Per open `${`: the braces opened inside it; the top says whether a `}` closes it.
  const templates: number[] = [];
  let i = 0;
  // Looks back a bounded stretch: what precedes a quote is read once per quote, so the pass stays linear.
  const namesNode = (at: number) => NAMES_NODE.test(code.slice(Math.max(0, at - 100), at));
  const blank = (from: number, to: number) => out.push(code.slice(from, to).replace(/[^\n]/g, ' '));
  const scanTemplate = () => {
    // From inside a template literal's text to its closing backtick or the next `${`.
    const start = i;
    while (i < code.length && code[i] !== '`' && !(code[i] === '$' && code[i + 1] === '{')) i += code[i] === '\\' ? 2 : 1;
    blank(start, Math.min(i, code.length));
    if (i >= code.length) return;
    if (code[i] === '`') out.push(code[i++]!);
    else {
      out.push('${');
      i += 2;
      templates.push(0);
    }
  };
  while (i < code.length) {
    const c = code[i]!;
    if (c === '/' && code[i + 1] === '/') {
      const end = code.indexOf('\n', i);
      blank(i, end < 0 ? code.length : end);
      i = end < 0 ? code.length : end;
    } else if (c === '/' && code[i + 1] === '*') {
      const end = code.indexOf('*/', i + 2);
      blank(i, end < 0 ? code.length : end + 2);
      i = end < 0 ? code.length : end + 2;
    } else if (c === "'" || c === '"' || (c === '`' && namesNode(i))) {
      // A quoted string ends at its quote or (an error in JavaScript) the line's end.
      let end = i + 1;
      while (end < code.length && code[end] !== c && code[end] !== '\n') end += code[end] === '\\' ? 2 : 1;
      end = Math.min(code[end] === c ? end + 1 : end, code.length);
      if (namesNode(i)) out.push(code.slice(i, end));
      else blank(i, end);
      i = end;
    } else if (c === '`') {
      out.push(c);
      i++;
      scanTemplate();
    } else if (templates.length > 0 && (c === '{' || c === '}')) {
      out.push(c);
      i++;
      if (c === '{') templates[templates.length - 1]!++;
      else if (templates[templates.length - 1]! > 0) templates[templates.length - 1]!--;
      else {
        templates.pop();
        scanTemplate();
      }
    } else {
      // Ordinary code up to the next character that may open or close something, in one slice.
      SPECIAL.lastIndex = i + 1;
      const next = SPECIAL.exec(code)?.index ?? code.length;
      out.push(code.slice(i, next));
      i = next;
    }
  }
  return out.join('');
}

/**
 * Code with its references to nodes pointed at other nodes, `renames` saying which (from → to):
 * `$('from')`, `$node["from"]`, `$node.from`, `$items("from")`. One pass, however many.
 */
export function renameReferences(code: string, renames: ReadonlyMap<string, string>): string {
  return code.replace(REFERENCE, (whole: string, ...groups: unknown[]) => {
    const raw = groups.slice(0, 10).find((g) => g !== undefined) as string | undefined;
    const to = raw === undefined ? undefined : renames.get(unescape(raw));
    if (raw === undefined || to === undefined) return whole;
    if (whole.startsWith('$node.')) return /^[A-Za-z_$][\w$]*$/.test(to) ? `$node.${to}` : `$node[${JSON.stringify(to)}]`;
    const quote = whole.includes(`'${raw}'`) ? "'" : whole.includes(`"${raw}"`) ? '"' : '`';
    const escaped = to.replace(/\\/g, '\\\\').replace(new RegExp(quote, 'g'), `\\${quote}`);
    return whole.replace(`${quote}${raw}${quote}`, `${quote}${escaped}${quote}`);
  });
}

/** A string in a parameter tree. */
export interface StringValue {
  value: string;
  /** Where: `parameters.options.body`, `…assignments[0].value`, spelt out when asked for. */
  readonly path: string;
  /** The parameter it is in: the first key under the root. */
  readonly top: string;
  /** Replaces the string where it stands (autofix, renames). */
  set(value: string): void;
}

/** A path a step deeper; one past MAX_PATH (where findings clip it) stops growing. */
const deeper = (at: string, key: string | number) => (at.length > MAX_PATH ? at : typeof key === 'number' ? `${at}[${key}]` : `${at}.${key}`);

class StringAt implements StringValue {
  constructor(
    readonly value: string,
    private readonly holder: object,
    private readonly key: string | number,
    private readonly at: string,
    readonly top: string,
  ) {}

  get path(): string {
    return deeper(this.at, this.key);
  }

  set(value: string): void {
    if (typeof this.key === 'number') (this.holder as unknown[])[this.key] = value;
    else setOwn(this.holder, this.key, value);
  }
}

/** An object or list being walked, and where in it the walk is. */
interface Container {
  holder: object;
  entries: [string | number, unknown][];
  next: number;
  path: string;
  top: string | null;
}

const container = (holder: object, path: string, top: string | null): Container => ({
  holder,
  entries: Array.isArray(holder) ? holder.map((value, i): [number, unknown] => [i, value]) : Object.entries(holder),
  next: 0,
  path,
  top,
});

/**
 * Every string in a parameter tree, in order. Walked with a stack of the objects and lists it is in,
 * not recursion, so each string costs the same however deep it sits; its path is spelt out only when
 * asked for, and stops growing past MAX_PATH (findings clip it there), or deep trees of long names
 * would cost their depth times their names' length for every string in them.
 */
export function* strings(root: unknown, path: string): Generator<StringValue> {
  if (!root || typeof root !== 'object') return;
  const stack = [container(root, path, null)];
  while (stack.length > 0) {
    const at = stack.at(-1)!;
    if (at.next === at.entries.length) {
      stack.pop();
      continue;
    }
    const [key, value] = at.entries[at.next++]!;
    const top = at.top ?? String(key);
    if (typeof value === 'string') yield new StringAt(value, at.holder, key, at.path, top);
    else if (value && typeof value === 'object') stack.push(container(value, deeper(at.path, key), top));
  }
}

/** Code parameters holding JavaScript, where a `{{ … }}` is text: the Code node's, the old Function nodes'. */
const JAVASCRIPT_PARAMETERS = new Set(['jsCode', 'functionCode']);

/**
 * Code an n8n string holds: the parts of an expression, or all of a code parameter (`codeParameter`
 * its name, null for other parameters): JavaScript whole; a query only its `{{ … }}` parts, which SQL
 * nodes resolve, `=` or not (n8n's getResolvables), where JavaScript leaves them text.
 */
export function codeIn(value: string, codeParameter: string | null): string[] {
  if (isExpression(value)) return expressionParts(value).code;
  if (codeParameter === null) return [];
  return JAVASCRIPT_PARAMETERS.has(codeParameter) ? [value] : expressionParts(`=${value}`).code;
}

/** What code in an expression starts with: `$json`, `$('Name')`, `$node`… */
const CODE = /\$json|\$\(|\$node|\$input|\$now|\$items|\$vars|\$env|\$workflow|\$execution/;

/**
 * A plain string that reads like an expression but lacks the `=` that makes n8n evaluate it: a `{{`
 * whose text up to the next `}` holds code, and that `}` opens a `}}`. One pass: every `{{` before the
 * same `}` shares its text's end, so only the first of them needs looking at, and each stretch of
 * text is searched once (a pattern that let each `{{` try each `$json` took minutes on 30 KB).
 */
export function looksLikeExpression(value: string): boolean {
  if (value.startsWith('=')) return false;
  for (let from = 0; ;) {
    const open = value.indexOf('{{', from);
    if (open < 0) return false;
    const close = value.indexOf('}', open + 2);
    if (close < 0) return false;
    if (value[close + 1] === '}' && CODE.test(value.slice(open + 2, close))) return true;
    from = close + 1;
  }
}
