import { describe, expect, it } from 'vitest';
import type { Parameter } from '../../src/catalog/nodeSpec';
import { mustBeSet, withDefaults } from '../../src/workflows/values';
import { validateNode } from '../../src/workflows/validateNode';
import { n8nCatalog, n8nSpecs } from '../support/n8nCatalog';
import { expectOwn, fromJson, withPrototypesUnchanged } from '../support/specialNames';

const parameter = (name: string, default_value: unknown, show?: Record<string, unknown[]>): Parameter =>
  ({ name, display_name: name, type: 'string', default_value, ...(show ? { display_options: { show } } : {}) }) as Parameter;
const identity = { typeVersion: 1, nodeType: 'n8n-nodes-base.x' };

describe('a node’s values with n8n’s defaults', () => {
  it('fills in the defaults of what applies, in order, each visible to the conditions after it', () => {
    const parameters = [
      parameter('resource', 'message'),
      parameter('text', 'hi', { resource: ['message'] }),
      parameter('channel', 'c', { resource: ['channel'] }),
    ];
    expect(withDefaults(parameters, {}, identity)).toEqual({ resource: 'message', text: 'hi' });
    expect(withDefaults(parameters, { resource: 'channel' }, identity)).toEqual({ resource: 'channel', channel: 'c' });
  });

  it('takes parameter names that mean something to JavaScript objects as names: set ones kept, unset ones defaulted', () => {
    const parameters = [parameter('constructor', 'c'), parameter('toString', 't', { constructor: ['c'] }), parameter('__proto__', 'p')];
    const values = withPrototypesUnchanged(() => withDefaults(parameters, fromJson([['__proto__', { x: 1 }]]), identity));
    expect(Object.keys(values).sort()).toEqual(['__proto__', 'constructor', 'toString']);
    expectOwn(values, '__proto__', { x: 1 });
    expectOwn(values, 'constructor', 'c');
    expectOwn(values, 'toString', 't');
  });
});

describe('mustBeSet', () => {
  it('is what validate_node reports missing when a node leaves the parameter out: n8n’s required flag, less the usable defaults', () => {
    // Every required parameter that always applies, in the real descriptions at their newest typeVersion, left out of an empty node.
    let judged = 0;
    for (const spec of n8nSpecs) {
      const version = spec.type_versions!.at(-1)!;
      const missing = validateNode({ type: spec.subtype, typeVersion: version, parameters: {} }, n8nCatalog)
        .errors.filter((e) => e.code === 'missing_required')
        .map((e) => e.message);
      for (const p of spec.parameters.filter((q) => q.required && !q.display_options)) {
        judged++;
        expect(
          missing.some((m) => m.includes(`(${p.name})`)),
          `${spec.subtype} ${p.name}`,
        ).toBe(mustBeSet(p));
      }
    }
    expect(judged).toBeGreaterThan(5);
    const required = (p: Partial<Parameter>) => mustBeSet({ name: 'x', type: 'string', required: true, description: '', ...p });
    expect([required({}), required({ default_value: 'data' }), required({ type: 'boolean', default_value: false })]).toEqual([true, false, false]);
  });
});
