import { own } from '../../src/lib/ownKeys.ts';

/**
 * How a workflow's answer is held against the expected one: the same JSON value, with object keys in
 * any order and numbers equal up to floating-point noise (30.299999999999997 is 30.3; 30.31 is not).
 * Answers the first difference as a path and both values, or undefined when they agree.
 */
export function firstDifference(expected: unknown, actual: unknown, path = '$'): string | undefined {
  const shown = (value: unknown) => (value === undefined ? 'nothing' : JSON.stringify(value));
  if (typeof expected === 'number' && typeof actual === 'number') {
    return Math.abs(expected - actual) <= 1e-9 * Math.max(1, Math.abs(expected)) ? undefined : `${path}: expected ${expected}, got ${actual}`;
  }
  if (Array.isArray(expected)) {
    if (!Array.isArray(actual)) return `${path}: expected a list, got ${shown(actual)}`;
    if (actual.length !== expected.length) return `${path}: expected ${expected.length} entries, got ${actual.length}: ${shown(actual)}`;
    for (let i = 0; i < expected.length; i++) {
      const difference = firstDifference(expected[i], actual[i], `${path}[${i}]`);
      if (difference) return difference;
    }
    return undefined;
  }
  if (isObject(expected)) {
    if (!isObject(actual)) return `${path}: expected an object, got ${shown(actual)}`;
    const missing = Object.keys(expected).filter((key) => !Object.hasOwn(actual, key));
    if (missing.length) return `${path}: missing ${missing.join(', ')} in ${shown(actual)}`;
    const extra = Object.keys(actual).filter((key) => !Object.hasOwn(expected, key));
    if (extra.length) return `${path}: unexpected ${extra.join(', ')} in ${shown(actual)}`;
    for (const key of Object.keys(expected)) {
      const difference = firstDifference(own(expected, key), own(actual, key), `${path}.${key}`);
      if (difference) return difference;
    }
    return undefined;
  }
  return expected === actual ? undefined : `${path}: expected ${shown(expected)}, got ${shown(actual)}`;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
