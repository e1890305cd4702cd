import { describe, expect, it } from 'vitest';
import { countUsage, workflowTypes } from '../../scripts/catalog/usage/workflowTypes';

const workflow = (...types: string[]) => ({ name: 'w', nodes: types.map((type, i) => ({ name: `n${i}`, type })), connections: {} });

describe('workflowTypes', () => {
  it('reads each workflow of an export, an array or a wrapper, each type once, sorted', () => {
    expect(workflowTypes(workflow('n8n-nodes-base.set', 'n8n-nodes-base.code', 'n8n-nodes-base.set'))).toEqual([['n8n-nodes-base.code', 'n8n-nodes-base.set']]);
    expect(workflowTypes([workflow('a.x'), workflow('b.y')])).toEqual([['a.x'], ['b.y']]);
    expect(workflowTypes({ workflow: workflow('a.x') })).toEqual([['a.x']]);
    expect(workflowTypes({ data: [workflow('a.x')], workflows: [workflow('b.y')] })).toEqual([['b.y'], ['a.x']]);
  });

  it('finds no workflow in other JSON', () => {
    expect(workflowTypes({ name: 'package', version: '1.0.0' })).toEqual([]);
    expect(workflowTypes({ nodes: [{ type: 'main' }, { name: 'no type' }] })).toEqual([]);
    expect(workflowTypes('text')).toEqual([]);
    expect(workflowTypes(null)).toEqual([]);
  });
});

describe('countUsage', () => {
  it('counts the workflows that use each type, most used first', () => {
    expect(countUsage([['a.x', 'b.y'], ['b.y'], ['c.z', 'b.y']])).toEqual({ 'b.y': 3, 'a.x': 1, 'c.z': 1 });
    expect(Object.keys(countUsage([['c.z'], ['a.x'], ['a.x']]))).toEqual(['a.x', 'c.z']);
  });
});
