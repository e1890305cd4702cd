/**
 * When a parameter applies: n8n's displayOptions, evaluated as n8n-workflow's displayParameter does
 * (show: every key must match; hide: any key hides; `_cnd` operators; `/root` paths; `@version`).
 * Differences are deliberate and named: a condition on a value that is an expression cannot be
 * decided before run time, so it answers "unknown" rather than guessing.
 */
import type { Parameter } from '../catalog/nodeSpec';
import { own } from '../lib/ownKeys';

type Conditions = NonNullable<Parameter['display_options']>;

/** Shown, hidden, or cannot be told before run time (a deciding value is an expression). */
export type Visibility = 'shown' | 'hidden' | 'unknown';

export interface DisplayContext {
  /** The values at the parameter's own level (a collection's, or the node's). */
  values: Record<string, unknown>;
  /** The node's parameters, for `/name` keys. */
  root: Record<string, unknown>;
  typeVersion: number;
  /** The node's type name, for `@tool`. */
  nodeType: string;
}

const isExpression = (v: unknown): boolean => typeof v === 'string' && v.startsWith('=');

function get(values: Record<string, unknown>, path: string): unknown {
  let current: unknown = values;
  for (const part of path.split('.')) {
    if (current === null || typeof current !== 'object') return undefined;
    current = own(current, part);
  }
  return current;
}

function propertyValues(key: string, ctx: DisplayContext): unknown[] {
  let value: unknown;
  if (key.startsWith('/')) value = get(ctx.root, key.slice(1));
  else if (key === '@version') value = ctx.typeVersion || 0;
  else if (key === '@tool') value = ctx.nodeType.endsWith('Tool');
  else if (key === '@feature') return [];
  else value = get(ctx.values, key);
  if (value && typeof value === 'object' && '__rl' in value && value.__rl) value = (value as { value?: unknown }).value;
  return Array.isArray(value) ? value : [value];
}

function deepEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  const ka = Object.keys(a);
  const kb = Object.keys(b);
  return ka.length === kb.length && ka.every((k) => Object.hasOwn(b, k) && deepEqual(own(a, k), own(b, k)));
}

/* eslint-disable @typescript-eslint/no-explicit-any -- n8n compares with JS's own operators */
function operator(key: string, actual: any, target: any): boolean {
  switch (key) {
    case 'eq':
      return deepEqual(actual, target);
    case 'not':
      return !deepEqual(actual, target);
    case 'gte':
      return actual >= target;
    case 'lte':
      return actual <= target;
    case 'gt':
      return actual > target;
    case 'lt':
      return actual < target;
    case 'between':
      return actual >= target?.from && actual <= target?.to;
    case 'includes':
      return typeof actual === 'string' && actual.includes(target);
    case 'startsWith':
      return typeof actual === 'string' && actual.startsWith(target);
    case 'endsWith':
      return typeof actual === 'string' && actual.endsWith(target);
    case 'regex':
      return typeof actual === 'string' && safeRegex(target)?.test(actual) === true;
    case 'exists':
      return actual !== null && actual !== undefined && actual !== '';
    default:
      return false;
  }
}
/* eslint-enable @typescript-eslint/no-explicit-any */

function safeRegex(source: unknown): RegExp | null {
  try {
    return typeof source === 'string' ? new RegExp(source) : null;
  } catch {
    return null;
  }
}

/** n8n's checkConditions: any condition matches; a `_cnd` condition must hold for every actual value. */
export function checkConditions(conditions: unknown[], actual: unknown[]): boolean {
  return conditions.some((condition) => {
    if (condition && typeof condition === 'object' && '_cnd' in condition && Object.keys(condition).length === 1) {
      const [key, target] = Object.entries((condition as { _cnd: Record<string, unknown> })._cnd)[0] ?? [];
      if (key === undefined) return false;
      if (actual.length === 0) return key === 'not';
      return actual.every((value) => operator(key, value, target));
    }
    return actual.some((value) => value === condition);
  });
}

/** Whether a parameter (or credential) with these display options applies, given the values around it. */
export function visibility(options: Conditions | undefined, ctx: DisplayContext): Visibility {
  if (!options) return 'shown';
  let unknown = false;
  for (const [key, conditions] of Object.entries(options.show ?? {})) {
    const values = propertyValues(key, ctx);
    // n8n shows a parameter whose deciding value is an expression; whether it applies is a run-time matter.
    if (values.some(isExpression)) {
      unknown = true;
      continue;
    }
    if (!checkConditions(conditions, values)) return 'hidden';
  }
  for (const [key, conditions] of Object.entries(options.hide ?? {})) {
    const values = propertyValues(key, ctx);
    if (values.some(isExpression)) {
      unknown = true;
      continue;
    }
    if (values.length !== 0 && checkConditions(conditions, values)) return 'hidden';
  }
  return unknown ? 'unknown' : 'shown';
}
