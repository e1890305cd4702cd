import { expect } from 'vitest';

/**
 * Names that mean something to an ordinary JavaScript object. n8n takes each as a node, parameter or
 * connection name like any other; so must the workflow code (src/lib/ownKeys.ts).
 */
export const SPECIAL_NAMES = ['__proto__', 'constructor', 'prototype', 'toString', 'hasOwnProperty'] as const;

/**
 * An object with these own keys, from JSON as a caller sends it: `"__proto__"` becomes an own key (an
 * object literal `{__proto__: x}` would set the prototype instead).
 */
export const fromJson = <T = Record<string, unknown>>(entries: [string, unknown][]): T =>
  JSON.parse(`{${entries.map(([key, value]) => `${JSON.stringify(key)}:${JSON.stringify(value)}`).join(',')}}`) as T;

/** Whether `object` holds `key` as its own property with this value (JSON-equal). */
export function expectOwn(object: unknown, key: string, value: unknown): void {
  expect(Object.hasOwn(object as object, key), `own key ${JSON.stringify(key)}`).toBe(true);
  expect((object as Record<string, unknown>)[key]).toEqual(value);
}

/** The own properties of the prototypes every object and list inherits from, with their descriptors. */
function prototypes() {
  return [Object.prototype, Array.prototype, Function.prototype].map((proto) => Object.getOwnPropertyDescriptors(proto));
}

/** Runs `work` (awaited if async) and checks it added, removed or replaced nothing on Object.prototype (nor lists' or functions'). */
export function withPrototypesUnchanged<T>(work: () => T): T {
  const before = prototypes();
  const result = work();
  if (result instanceof Promise) return result.then((value: unknown) => (expectUnchanged(before), value)) as T;
  expectUnchanged(before);
  return result;
}

function expectUnchanged(before: ReturnType<typeof prototypes>): void {
  for (const [i, descriptors] of prototypes().entries()) {
    expect(Object.keys(descriptors).sort()).toEqual(Object.keys(before[i]!).sort());
    for (const [key, descriptor] of Object.entries(descriptors)) expect(descriptor, key).toStrictEqual(before[i]![key]);
  }
}
