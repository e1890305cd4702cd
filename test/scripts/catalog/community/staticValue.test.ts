import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Dropped, Module, StaticReader } from '../../../../scripts/catalog/community/staticValue';

let root: string;
beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'static-value-'));
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

function files(map: Record<string, string>): StaticReader {
  for (const [file, text] of Object.entries(map)) {
    mkdirSync(dirname(join(root, file)), { recursive: true });
    writeFileSync(join(root, file), text);
  }
  return new StaticReader(join(root, 'pkg'));
}

/** What `file` exports as `name`, as data. */
function exported(reader: StaticReader, file: string, name: string): unknown {
  const module = reader.module(file);
  if (!(module instanceof Module)) throw new Error(`${file}: ${(module as Dropped).reason}`);
  return reader.plain(reader.exportOf(module, name));
}

describe('static values of compiled JavaScript', () => {
  it('reads literals, templates without parts to compute, concatenation and negative numbers', () => {
    const reader = files({ 'pkg/a.js': 'exports.v = { s: `plain`, t: `a${"b"}c`, n: -1.5, b: true, z: null, u: void 0, c: "x" + 1 };' });
    expect(exported(reader, 'a.js', 'v')).toEqual({ s: 'plain', t: 'abc', n: -1.5, b: true, z: null, u: undefined, c: 'x1' });
  });

  it('follows module.exports, destructured requires, files reading their own exports, and JSON files of the package', () => {
    const reader = files({
      'pkg/a.js':
        'const { list } = require("./b"); const meta = require("./meta.json"); exports.v = [...list, meta.name, ...exports.more]; exports.more = [4];',
      'pkg/b.js': 'module.exports = { list: [1, 2] };',
      'pkg/meta.json': '{"name": "m"}',
    });
    expect(exported(reader, 'a.js', 'v')).toEqual([1, 2, 'm', 4]);
  });

  it("reads n8n-workflow's connection types, and nothing else of another package", () => {
    const reader = files({
      'pkg/a.js':
        'const w = require("n8n-workflow"); const lodash = require("lodash"); exports.v = { a: w.NodeConnectionType.AiTool, b: w.NodeConnectionTypes.Main, c: lodash.x, d: w.other };',
    });
    expect(exported(reader, 'a.js', 'v')).toEqual({ a: 'ai_tool', b: 'main' });
    expect(reader.dropped).toEqual({ 'value of lodash': 1, 'value of n8n-workflow': 1 });
  });

  it('drops calls, functions, conditions and computed keys, and counts each by reason', () => {
    const reader = files({
      'pkg/a.js': 'const k = Math.random() > 0.5 ? "x" : "y"; exports.v = { a: f(), b: () => 1, c: k, [k]: 1, m() {}, ok: 1 }; function f() { return 1; }',
    });
    expect(exported(reader, 'a.js', 'v')).toEqual({ ok: 1 });
    expect(reader.dropped).toEqual({ call: 1, function: 2, condition: 1, 'computed key': 1 });
  });

  it('gives up on a reference cycle instead of looping', () => {
    const reader = files({ 'pkg/a.js': 'const a = { b: b }; const b = { a: a }; exports.v = a;' });
    expect(exported(reader, 'a.js', 'v')).toEqual({ b: {} });
    expect(reader.dropped).toEqual({ 'circular reference': 1 });
  });

  it('never reads a file outside the package folder', () => {
    const reader = files({ 'outside.js': 'exports.secret = "s";', 'pkg/a.js': 'exports.v = require("../outside").secret;' });
    expect(exported(reader, 'a.js', 'v')).toEqual(new Dropped('file not in the package'));
  });

  it('keeps a "__proto__" key as data, never as a prototype', () => {
    const reader = files({ 'pkg/a.js': 'exports.v = { "__proto__": { polluted: true }, ...{ "__proto__": 1 } };' });
    const value = exported(reader, 'a.js', 'v') as Record<string, unknown>;
    expect(Object.getPrototypeOf(value)).toBe(Object.prototype);
    expect(Object.hasOwn(value, '__proto__')).toBe(true);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('reads numeric enums by their members, and enums exported from another file', () => {
    const reader = files({
      'pkg/e.js': 'var E; (function (E) { E[E["One"] = 1] = "One"; E["Two"] = "two"; })(E || (exports.E = E = {}));',
      'pkg/a.js': 'const e_1 = require("./e"); exports.v = [e_1.E.One, e_1.E.Two];',
    });
    expect(exported(reader, 'a.js', 'v')).toEqual([1, 'two']);
  });
});
