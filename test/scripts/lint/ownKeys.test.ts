import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { findComputedKeys } from '../../../scripts/lint/ownKeys';

const helper = resolve(import.meta.dirname, '../../../src/lib/ownKeys.ts');

/** Lints one file of source text, written where it can import the helper. */
function lint(text: string): string[] {
  const file = join(mkdtempSync(join(tmpdir(), 'own-keys-')), 'sample.ts');
  writeFileSync(file, `import { dict, own, setOwn, type Dict } from ${JSON.stringify(helper)};\n${text}`);
  return findComputedKeys([file]).map((f) => `${f.rule}: ${f.text}`);
}

describe('scripts/lint/ownKeys', () => {
  // Type-checks all of src/ (about 10 s on a busy CI machine): more than vitest's default 5 s.
  it('finds nothing in src/: no caller-chosen key reaches an ordinary object', { timeout: 120_000 }, () => {
    expect(findComputedKeys()).toEqual([]);
  });

  it('refuses a computed string key on an ordinary object, read or written, and `in` with one', () => {
    const found = lint(`
      export function f(o: Record<string, number[]>, key: string) {
        (o[key] ??= []).push(1);
        return key in o ? o[key] : undefined;
      }`);
    expect(found).toEqual(['computed-key: o[key]', 'in-operator: key in o', 'computed-key: o[key]']);
  });

  it('accepts the ways that are safe: Dicts, own/setOwn, Maps, arrays, literal keys', () => {
    const found = lint(`
      const TABLE = { a: 1, b: 2 } as const;
      export function f(d: Dict<number[]>, o: Record<string, number>, m: Map<string, number>, list: number[], key: string, k: keyof typeof TABLE) {
        (d[key] ??= []).push(1);
        setOwn(o, key, own(o, key) ?? 0);
        m.set(key, list[0]! + TABLE[k]);
        return dict([[key, 1]]);
      }`);
    expect(found).toEqual([]);
  });

  it('refuses a Dict made by a cast: only dict() makes an object without a prototype', () => {
    expect(lint(`export const d = {} as Dict<number>;`)).toEqual(['dict-cast: {} as Dict<number>']);
  });
});
