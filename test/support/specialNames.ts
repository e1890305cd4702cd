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

/** SPECIAL_NAMES and more of what ordinary objects inherit: what the fuzzers draw from. */
export const PROTOTYPE_NAMES = [...SPECIAL_NAMES, 'valueOf', '__defineGetter__', 'isPrototypeOf'] as const;

const BUILT_INS = { Object: Object.prototype, Array: Array.prototype, Function: Function.prototype, String: String.prototype } as const;

export type PrototypesSnapshot = Record<string, Map<PropertyKey, PropertyDescriptor>>;

/** The own properties of the prototypes every object, list, function and string inherits from, with their descriptors. */
export function prototypesSnapshot(): PrototypesSnapshot {
  return Object.fromEntries(
    Object.entries(BUILT_INS).map(([name, proto]) => [name, new Map(Reflect.ownKeys(proto).map((key) => [key, Object.getOwnPropertyDescriptor(proto, key)!]))]),
  );
}

const sameDescriptor = (a: PropertyDescriptor, b: PropertyDescriptor) =>
  a.value === b.value && a.get === b.get && a.set === b.set && a.writable === b.writable && a.enumerable === b.enumerable && a.configurable === b.configurable;

/** The properties added, removed or replaced since `before`, as `Object.prototype.polluted`: empty while nothing changed. */
export function pollutedSince(before: PrototypesSnapshot): string[] {
  const after = prototypesSnapshot();
  return Object.keys(before).flatMap((name) => {
    const [was, now] = [before[name]!, after[name]!];
    const keys = new Set([...was.keys(), ...now.keys()]);
    return [...keys]
      .filter((key) => !was.has(key) || !now.has(key) || !sameDescriptor(was.get(key)!, now.get(key)!))
      .map((key) => `${name}.prototype.${String(key)}`);
  });
}

/** Undoes what pollution did since `before`, so one finding does not fail every test after it. */
export function restorePrototypes(before: PrototypesSnapshot): void {
  for (const [name, proto] of Object.entries(BUILT_INS)) {
    const was = before[name]!;
    for (const key of Reflect.ownKeys(proto)) if (!was.has(key)) delete (proto as Record<PropertyKey, unknown>)[key];
    for (const [key, descriptor] of was)
      if (!sameDescriptor(descriptor, Object.getOwnPropertyDescriptor(proto, key) ?? {})) Object.defineProperty(proto, key, descriptor);
  }
}

/** Runs `work` (awaited if async) and checks it added, removed or replaced nothing on the built-in prototypes. */
export function withPrototypesUnchanged<T>(work: () => T): T {
  const before = prototypesSnapshot();
  const result = work();
  if (result instanceof Promise) return result.then((value: unknown) => (expect(pollutedSince(before)).toEqual([]), value)) as T;
  expect(pollutedSince(before)).toEqual([]);
  return result;
}
