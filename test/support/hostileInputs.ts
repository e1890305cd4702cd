/**
 * fast-check generators of hostile strings and values, by family: what the fuzzers put where a
 * caller's string or value goes.
 */
import fc from 'fast-check';
import { PROTOTYPE_NAMES } from './specialNames';

const repeat = (unit: string, max: number) => fc.integer({ min: 1, max }).map((n) => unit.repeat(n));

/** Names special on ordinary objects, as written and as agents garble them (autofix matches case and spaces). */
export const prototypeName = fc.oneof(
  fc.constantFrom(...PROTOTYPE_NAMES),
  fc.constantFrom(...PROTOTYPE_NAMES).map((n) => n.toUpperCase()),
  fc.constantFrom(...PROTOTYPE_NAMES).map((n) => ` ${n} `),
);

/** Long names: findings quote names, so a long one repeated by many findings made answers huge. */
export const longName = fc.integer({ min: 1_000, max: 300_000 }).map((n) => 'N'.repeat(n));

/** Expression text that made backtracking patterns take seconds: many openings, many references, nothing closed. */
export const backtracking = fc.oneof(
  fc.tuple(repeat('{{', 20_000), repeat('$json', 20_000)).map(([a, b]) => `${a}${b}`),
  fc.tuple(repeat('{{', 20_000), repeat('$json', 20_000)).map(([a, b]) => `=${a} ${b}`),
  repeat("$('", 40_000).map((s) => `={{ ${s}`),
  repeat('$node["', 20_000).map((s) => `={{ ${s}`),
  repeat("$items('a\\", 20_000).map((s) => `={{ ${s}`),
  fc.integer({ min: 1, max: 100_000 }).map((n) => `={{ $('${'\\'.repeat(n)}`),
  fc.integer({ min: 1, max: 100_000 }).map((n) => `={{ ${' '.repeat(n)}$json.a`),
);

/** Any of the string families, or plain odd text. */
export const hostileString = fc.oneof(
  { weight: 4, arbitrary: prototypeName },
  { weight: 1, arbitrary: longName },
  { weight: 2, arbitrary: backtracking },
  { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 40 }) },
);

/** JSON text nested `depth` deep, of objects (keyed by a prototype name) or arrays. */
export const deepJson = fc
  .tuple(fc.integer({ min: 1, max: 20_000 }), fc.constantFrom('[', '{"__proto__":', '{"a":'))
  .map(([depth, open]) => `${open.repeat(depth)}1${(open === '[' ? ']' : '}').repeat(depth)}`);

/** A JSON value (as text) to put where a value goes: deep nesting, or an object of prototype-named keys. */
export const hostileValue = fc.oneof(
  deepJson,
  fc.array(prototypeName, { maxLength: 8 }).map((keys) => `{${keys.map((k, i) => `${JSON.stringify(k)}:{"x":${i}}`).join(',')}}`),
  fc.integer({ min: 1, max: 50_000 }).map((n) => `[${Array.from({ length: n }, () => '"__proto__"').join(',')}]`),
);
