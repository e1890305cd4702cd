/**
 * n8n expressions: a string parameter starting with `=` whose `{{ … }}` parts are JavaScript. Split
 * as n8n splits them (a part ends at the first `}}` after its `{{`), and read for the nodes they name.
 */
import { own, setOwn } from '../lib/ownKeys';
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
/** `$('Name')`, `$node['Name']`, `$node.Name`, `$items('Name')`: the ways code names another node. */
const REFERENCE = new RegExp(String.raw`\$\(\s*${QUOTED}\s*\)|\$node\[\s*${QUOTED}\s*\]|\$node\.([A-Za-z_$][\w$]*)|\$items\(\s*${QUOTED}`, 'g');

const unescape = (s: string) => s.replace(/\\(.)/g, '$1');

/** The node names a piece of code refers to. */
export function referencedNodes(code: string): string[] {
  const names: string[] = [];
  for (const m of code.matchAll(REFERENCE)) {
    const raw = m.slice(1).find((g) => g !== undefined);
    if (raw !== undefined) names.push(unescape(raw));
  }
  return names;
}

/** Code with its references to node `from` pointed at node `to` (`$('from')`, `$node["from"]`, `$node.from`, `$items("from")`). */
export function renameReferences(code: string, from: string, to: string): string {
  return code.replace(REFERENCE, (whole: string, ...groups: unknown[]) => {
    const raw = groups.slice(0, 10).find((g) => g !== undefined) as string | undefined;
    if (raw === undefined || unescape(raw) !== from) return whole;
    if (whole.startsWith('$node.')) return /^[A-Za-z_$][\w$]*$/.test(to) ? `$node.${to}` : `$node[${JSON.stringify(to)}]`;
    const quote = whole.includes(`'${raw}'`) ? "'" : whole.includes(`"${raw}"`) ? '"' : '`';
    const escaped = to.replace(/\\/g, '\\\\').replace(new RegExp(quote, 'g'), `\\${quote}`);
    return whole.replace(`${quote}${raw}${quote}`, `${quote}${escaped}${quote}`);
  });
}

export interface StringValue {
  path: string;
  value: string;
  /** Replaces the string where it stands (autofix). */
  set(value: string): void;
}

/** Every string in a parameter tree, with its path (`parameters.options.body`, `…assignments[0].value`). */
export function* strings(root: unknown, path: string): Generator<StringValue> {
  const visit = function* (value: unknown, at: string, set: (v: string) => void): Generator<StringValue> {
    if (typeof value === 'string') yield { path: at, value, set };
    else if (Array.isArray(value)) for (let i = 0; i < value.length; i++) yield* visit(value[i], `${at}[${i}]`, (v) => (value[i] = v));
    else if (value && typeof value === 'object') for (const k of Object.keys(value)) yield* visit(own(value, k), `${at}.${k}`, (v) => setOwn(value, k, v));
  };
  if (root && typeof root === 'object') yield* visit(root, path, () => {});
}

/** Code an n8n string holds: the parts of an expression, or all of a code parameter (a Code node's jsCode). */
export function codeIn(value: string, isCodeParameter: boolean): string[] {
  if (isExpression(value)) return expressionParts(value).code;
  return isCodeParameter ? [value] : [];
}

/** A plain string that reads like an expression but lacks the `=` that makes n8n evaluate it. */
export function looksLikeExpression(value: string): boolean {
  return !isExpression(value) && /\{\{[^}]*(\$json|\$\(|\$node|\$input|\$now|\$items|\$vars|\$env|\$workflow|\$execution)[^}]*\}\}/.test(value);
}
