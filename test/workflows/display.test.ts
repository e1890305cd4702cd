import { describe, expect, it } from 'vitest';
import { checkConditions, visibility } from '../../src/workflows/display';
import { fromJson, withPrototypesUnchanged } from '../support/specialNames';

const ctx = (values: Record<string, unknown>, typeVersion = 1, root = values) => ({ values, root, typeVersion, nodeType: 'n8n-nodes-base.x' });

describe('display conditions, as n8n evaluates them', () => {
  it('shows when every show key matches one of its values, hides when any hide key matches', () => {
    const options = { show: { resource: ['message'], operation: ['post', 'update'] }, hide: { mode: ['raw'] } };
    expect(visibility(options, ctx({ resource: 'message', operation: 'update' }))).toBe('shown');
    expect(visibility(options, ctx({ resource: 'message', operation: 'delete' }))).toBe('hidden');
    expect(visibility(options, ctx({ resource: 'message', operation: 'post', mode: 'raw' }))).toBe('hidden');
    expect(visibility(undefined, ctx({}))).toBe('shown');
  });

  it('reads @version, /root paths and resource-locator values', () => {
    expect(visibility({ show: { '@version': [{ _cnd: { gte: 2 } }] } }, ctx({}, 2.1))).toBe('shown');
    expect(visibility({ show: { '@version': [{ _cnd: { gte: 2 } }] } }, ctx({}, 1.9))).toBe('hidden');
    expect(visibility({ show: { '@version': [1, 1.1] } }, ctx({}, 1.1))).toBe('shown');
    expect(visibility({ show: { '/mode': ['a'] } }, ctx({}, 1, { mode: 'a' }))).toBe('shown');
    expect(visibility({ show: { channel: ['C1'] } }, ctx({ channel: { __rl: true, mode: 'id', value: 'C1' } }))).toBe('shown');
  });

  it('applies every _cnd operator n8n has', () => {
    const c = (op: string, target: unknown, actual: unknown[]) => checkConditions([{ _cnd: { [op]: target } }], actual);
    expect(c('eq', 'a', ['a'])).toBe(true);
    expect(c('not', 'a', ['b'])).toBe(true);
    expect(c('not', 'a', [])).toBe(true);
    expect(c('eq', 'a', [])).toBe(false);
    expect(c('lt', 3, [2])).toBe(true);
    expect(c('lte', 3, [3])).toBe(true);
    expect(c('gt', 3, [3])).toBe(false);
    expect(c('between', { from: 1, to: 2 }, [1.5])).toBe(true);
    expect(c('startsWith', 'ab', ['abc'])).toBe(true);
    expect(c('endsWith', 'bc', ['abc'])).toBe(true);
    expect(c('includes', 'b', ['abc'])).toBe(true);
    expect(c('regex', '^a.c$', ['abc'])).toBe(true);
    expect(c('exists', true, [''])).toBe(false);
    expect(c('eq', { a: 1 }, [{ a: 1 }])).toBe(true);
  });

  it('cannot decide before run time when the deciding value is an expression', () => {
    expect(visibility({ show: { resource: ['message'] } }, ctx({ resource: '={{ $json.kind }}' }))).toBe('unknown');
    expect(visibility({ show: { resource: ['message'] }, hide: { a: [1] } }, ctx({ resource: 'channel' }))).toBe('hidden');
  });
});

describe('display conditions on names that mean something to JavaScript objects', () => {
  it('reads only values the node has: an unset "constructor" does not exist, a set "__proto__" does', () => {
    const exists = [{ _cnd: { exists: true } }];
    const hidden = withPrototypesUnchanged(() => [
      visibility({ show: { constructor: exists } }, ctx({})),
      visibility({ show: { 'options.toString': exists } }, ctx({ options: {} })),
      visibility({ show: { '/hasOwnProperty': exists } }, ctx({})),
      visibility({ hide: { constructor: exists } }, ctx({})),
    ]);
    expect(hidden).toEqual(['hidden', 'hidden', 'hidden', 'shown']);
    const values = fromJson([
      ['__proto__', { mode: 'a' }],
      ['constructor', 'b'],
    ]);
    expect(visibility({ show: { '__proto__.mode': ['a'], constructor: ['b'] } }, ctx(values))).toBe('shown');
    expect(visibility({ show: { '/constructor': ['b'] } }, ctx({}, 1, values))).toBe('shown');
    expect(checkConditions([{ _cnd: { eq: fromJson([['toString', 1]]) } }], [{ valueOf: 1 }])).toBe(false);
  });
});
