/**
 * Strings a caller chooses (node names, connection types, parameter names, query words) used as
 * property names. On an ordinary object, `o["__proto__"]` is Object.prototype, `o["constructor"]` a
 * function and `o[k] ??= {}` can write onto every object of the isolate. So such keys go into a Map,
 * or into a Dict (an object without a prototype, where every key is an own key like any other), and
 * are read from anything else with `own`. `npm run lint:keys` (scripts/lint/ownKeys.ts) refuses computed
 * keys that are not read this way.
 *
 * workerd cannot send an object without a prototype through Durable Object storage or RPC
 * ("DataCloneError: Could not serialize object of type Object"): a Dict stays in the code that made
 * it, and what leaves is JSON or an ordinary object (Object.fromEntries keeps "__proto__" an own key).
 */

declare const nullPrototype: unique symbol;

/** A record keyed by caller-chosen strings, made by `dict`: no prototype, so no key is special. */
export type Dict<T> = { [key: string]: T } & { readonly [nullPrototype]: true };

/** A Dict, with `entries` in it (later ones win). */
export function dict<T>(entries: Iterable<readonly [string, T]> = []): Dict<T> {
  const out = Object.create(null) as Dict<T>;
  for (const [key, value] of entries) out[key] = value;
  return out;
}

/** A Dict of an object's own enumerable properties (JSON.parse makes `"__proto__"` one of them). */
export const toDict = <T = unknown>(value: object): Dict<T> => dict(Object.entries(value) as [string, T][]);

/** The object's own property `key`, never one it inherits: `own({}, "constructor")` is undefined. */
export function own<T>(object: { readonly [key: string]: T } | object, key: string): T | undefined {
  return Object.hasOwn(object, key) ? (object as Record<string, T>)[key] : undefined;
}

/** Whether `key` is the object's own property (`key in object` also finds inherited ones). */
export const hasOwn = (object: object, key: string): boolean => Object.hasOwn(object, key);

/**
 * Sets `key` as the object's own property, whatever the key: `setOwn(o, "__proto__", v)` makes a
 * property named "__proto__", where `o["__proto__"] = v` would replace o's prototype.
 */
export function setOwn<T>(object: { [key: string]: T } | object, key: string, value: T): void {
  Object.defineProperty(object, key, { value, writable: true, enumerable: true, configurable: true });
}

/** Removes the object's own property `key` (deleting an inherited one is already a no-op). */
export function deleteOwn(object: object, key: string): void {
  if (Object.hasOwn(object, key)) delete (object as Record<string, unknown>)[key];
}
