/**
 * When a parameter applies, in words: n8n's display conditions (`show`/`hide`, `_cnd` operators,
 * `/name` for a parameter of the node's top level, `@version`, `@tool`) as get_node_details says them
 * ("mode is combine and combineBy is combineByFields"). Pure.
 */
import { own } from '../lib/ownKeys';
import type { Parameter } from './nodeSpec';

type Conditions = NonNullable<Parameter['display_options']>;

/** What a `_cnd` operator says of the value it tests. */
const OPERATORS: Record<string, (target: unknown) => string> = {
  eq: (t) => `is ${value(t)}`,
  not: (t) => `is not ${value(t)}`,
  gte: (t) => `is at least ${value(t)}`,
  lte: (t) => `is at most ${value(t)}`,
  gt: (t) => `is above ${value(t)}`,
  lt: (t) => `is below ${value(t)}`,
  between: (t) => `is between ${value((t as { from?: unknown })?.from)} and ${value((t as { to?: unknown })?.to)}`,
  includes: (t) => `contains ${value(t)}`,
  startsWith: (t) => `starts with ${value(t)}`,
  endsWith: (t) => `ends with ${value(t)}`,
  regex: (t) => `matches /${String(t)}/`,
  exists: () => 'is set',
};

const value = (v: unknown) => (typeof v === 'string' ? v : JSON.stringify(v));

/** The name a condition key stands for: a parameter (`/name` is one of the node's top level, said the same), the typeVersion, or tool use. */
function subject(key: string): string {
  if (key === '@version') return 'typeVersion';
  return key.replace(/^\//, '');
}

/** One key's conditions: any of them holds ("is a or b", "is at least 2.2"). */
function alternatives(conditions: unknown[]): string {
  const plain = conditions.filter((c) => typeof c !== 'object' || c === null);
  const operators = conditions.flatMap((c) => {
    const cnd = typeof c === 'object' && c !== null ? (c as { _cnd?: Record<string, unknown> })._cnd : undefined;
    return cnd ? Object.entries(cnd).map(([op, target]) => own(OPERATORS, op)?.(target) ?? `${op} ${value(target)}`) : [];
  });
  return [...(plain.length > 0 ? [`is ${plain.map(value).join(' or ')}`] : []), ...operators].join(' or ');
}

/**
 * The conditions in words, those on keys `said(key)` answers true for left out (already said by the
 * answer: the typeVersion described, the values asked for); undefined when none is left.
 */
export function conditionInWords(options: Conditions | undefined, said: (key: string) => boolean = () => false): string | undefined {
  const parts = (kind: 'show' | 'hide') =>
    Object.entries(options?.[kind] ?? {})
      .filter(([key]) => !said(key))
      .map(([key, conditions]) =>
        key === '@tool' ? `${conditions.includes(true) ? '' : 'not '}used as an AI tool` : `${subject(key)} ${alternatives(conditions)}`,
      );
  const shown = parts('show');
  const hidden = parts('hide');
  const text = [shown.join(' and '), hidden.length > 0 ? `unless ${hidden.join(' or ')}` : ''].filter((t) => t !== '').join(', ');
  return text === '' ? undefined : text;
}
