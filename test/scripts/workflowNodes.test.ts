import { describe, expect, it } from 'vitest';
import { countNames, countUsage, distinctWorkflows, workflowNodes, workflowTypes } from '../../scripts/catalog/usage/workflowNodes';

const workflow = (...types: string[]) => ({ name: 'w', nodes: types.map((type, i) => ({ name: `n${i}`, type })), connections: {} });
const typesOf = (document: unknown) => workflowNodes(document).map(workflowTypes);

describe('workflowNodes', () => {
  it('reads each workflow of an export, an array or a wrapper, with its nodes’ names', () => {
    expect(workflowNodes(workflow('n8n-nodes-base.set', 'n8n-nodes-base.code'))).toEqual([
      [
        { type: 'n8n-nodes-base.set', name: 'n0' },
        { type: 'n8n-nodes-base.code', name: 'n1' },
      ],
    ]);
    expect(typesOf([workflow('a.x'), workflow('b.y')])).toEqual([['a.x'], ['b.y']]);
    expect(typesOf({ workflow: workflow('a.x') })).toEqual([['a.x']]);
    expect(typesOf({ data: [workflow('a.x')], workflows: [workflow('b.y')] })).toEqual([['b.y'], ['a.x']]);
  });

  it('gives each type once, sorted', () => {
    expect(typesOf(workflow('n8n-nodes-base.set', 'n8n-nodes-base.code', 'n8n-nodes-base.set'))).toEqual([['n8n-nodes-base.code', 'n8n-nodes-base.set']]);
  });

  it('finds no workflow in other JSON, and reads a node without a name as unnamed', () => {
    expect(workflowNodes({ name: 'package', version: '1.0.0' })).toEqual([]);
    expect(workflowNodes({ nodes: [{ type: 'main' }, { name: 'no type' }] })).toEqual([]);
    expect(workflowNodes('text')).toEqual([]);
    expect(workflowNodes(null)).toEqual([]);
    expect(workflowNodes({ nodes: [{ type: 'a.x', name: 7 }] })).toEqual([[{ type: 'a.x', name: '' }]]);
  });
});

describe('distinctWorkflows', () => {
  it('drops copies (the same nodes under the same names, in any order) and keeps the first', () => {
    const a = [
      { type: 'a.x', name: 'Fetch' },
      { type: 'b.y', name: 'Send' },
    ];
    const copy = [
      { type: 'b.y', name: 'Send' },
      { type: 'a.x', name: 'Fetch' },
    ];
    const renamed = [
      { type: 'a.x', name: 'Fetch' },
      { type: 'b.y', name: 'Notify' },
    ];
    const kept = distinctWorkflows([a, copy, renamed]);
    expect(kept).toHaveLength(2);
    expect(kept[0]).toBe(a);
    expect(kept[1]).toBe(renamed);
  });

  it('keeps every workflow known only by its types', () => {
    const typesOnly = () => [{ type: 'a.x', name: '' }];
    expect(distinctWorkflows([typesOnly(), typesOnly()])).toHaveLength(2);
  });
});

describe('countUsage', () => {
  it('counts the workflows that use each type, most used first', () => {
    expect(countUsage([['a.x', 'b.y'], ['b.y'], ['c.z', 'b.y']])).toEqual({ 'b.y': 3, 'a.x': 1, 'c.z': 1 });
    expect(Object.keys(countUsage([['c.z'], ['a.x'], ['a.x']]))).toEqual(['a.x', 'c.z']);
  });
});

describe('countNames', () => {
  it('counts, per type, the workflows that give a node each name', () => {
    const names = countNames([
      [
        { type: 'a.wait', name: 'Wait 5 minutes' },
        { type: 'a.wait', name: 'Wait' },
        { type: 'a.crypto', name: 'Hash it' },
      ],
      [
        { type: 'a.wait', name: 'Wait  5 minutes ' },
        { type: 'a.x', name: '' },
        { type: 'a.x', name: '  ' },
      ],
    ]);
    expect(names).toEqual({ 'a.crypto': { 'Hash it': 1 }, 'a.wait': { 'Wait 5 minutes': 2, Wait: 1 } });
    expect(Object.keys(names['a.wait']!)).toEqual(['Wait 5 minutes', 'Wait']);
  });

  it('drops n8n’s copy number only where the name without it is also given to the type', () => {
    const names = countNames([
      [
        { type: 'a.wait', name: 'Wait' },
        { type: 'a.wait', name: 'Wait1' },
      ],
      [
        { type: 'a.wait', name: 'Wait2' },
        { type: 'a.s3', name: 'AWS S3' },
        { type: 'a.alert', name: 'SIGNL4' },
      ],
      [{ type: 'a.s3', name: 'Upload2' }],
    ]);
    expect(names).toEqual({ 'a.alert': { SIGNL4: 1 }, 'a.s3': { 'AWS S3': 1, Upload2: 1 }, 'a.wait': { Wait: 2 } });
  });

  it('leaves out sticky notes, whose names head notes about other steps', () => {
    expect(countNames([[{ type: 'n8n-nodes-base.stickyNote', name: 'Setup: Google Calendar' }]])).toEqual({});
  });
});
