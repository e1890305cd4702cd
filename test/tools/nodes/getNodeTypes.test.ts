import { beforeEach, describe, expect, it } from 'vitest';
import { LIST_LIMIT } from '../../../src/tools/nodes/getNodeTypes';
import { loadCatalog, spec } from '../../support/catalog';
import { callInSession } from '../../support/tools';

beforeEach(async () => {
  await loadCatalog();
});

describe('get_node_types', () => {
  it('returns every type and subtype of the loaded catalog, in catalog order', async () => {
    const types = (await callInSession('get_node_types', {})).json;
    expect(Object.keys(types)).toEqual([
      'ACTION_NODE',
      'TRIGGER_NODE',
      'AI_AGENT_NODE',
      'FLOW_NODE',
      'TOOL_NODE',
      'MEMORY_NODE',
      'HUMAN_LOOP_NODE',
      'EXTERNAL_ACTION_NODE',
    ]);
    expect(types.ACTION_NODE[1]).toBe('HTTP_REQUEST');
  });

  it('filters by type', async () => {
    expect((await callInSession('get_node_types', { type_filter: 'FLOW_NODE' })).json).toEqual({
      FLOW_NODE: ['IF', 'FILTER', 'LOOP', 'MERGE', 'SWITCH', 'WAIT'],
    });
  });

  it('refuses a type that does not exist with the allowed values', async () => {
    const result = await callInSession('get_node_types', { type_filter: 'MAGIC_NODE' });
    expect(result.isError).toBe(true);
    expect(result.text).toMatch(/ACTION_NODE/);
  });
});

describe('get_node_types on a large catalog', () => {
  const many = Array.from({ length: LIST_LIMIT + 5 }, (_, i) =>
    spec(`n8n-nodes-base.node${i}`, { node_type: i % 2 ? 'ACTION_NODE' : 'TRIGGER_NODE', categories: i < 3 ? ['Core Nodes'] : ['Communication'] }),
  );

  beforeEach(async () => {
    await loadCatalog(many);
  });

  it('answers counts per node type and category, not every subtype, when more than LIST_LIMIT match', async () => {
    const answer = (await callInSession('get_node_types', {})).json;
    expect(answer).toEqual({
      matches: LIST_LIMIT + 5,
      by_type: { ACTION_NODE: (LIST_LIMIT + 5 - 1) >> 1, TRIGGER_NODE: (LIST_LIMIT + 5 + 1) >> 1 },
      by_category: { Communication: LIST_LIMIT + 2, 'Core Nodes': 3 },
      note: expect.stringMatching(/narrow with name, category or type_filter/),
    });
  });

  it('lists the subtypes matching a name (any case) and a category', async () => {
    expect((await callInSession('get_node_types', { name: 'NODE1', category: 'Communication' })).json).toEqual({
      ACTION_NODE: ['n8n-nodes-base.node11', 'n8n-nodes-base.node13', 'n8n-nodes-base.node15', 'n8n-nodes-base.node17', 'n8n-nodes-base.node19'],
      TRIGGER_NODE: ['n8n-nodes-base.node10', 'n8n-nodes-base.node12', 'n8n-nodes-base.node14', 'n8n-nodes-base.node16', 'n8n-nodes-base.node18'],
    });
    expect((await callInSession('get_node_types', { category: 'Core Nodes' })).json).toEqual({
      ACTION_NODE: ['n8n-nodes-base.node1'],
      TRIGGER_NODE: ['n8n-nodes-base.node0', 'n8n-nodes-base.node2'],
    });
  });

  it('refuses a category the catalog lacks, naming those it has', async () => {
    const result = await callInSession('get_node_types', { category: 'Magic' });
    expect(result.isError).toBe(true);
    expect(result.text).toMatch(/No category "Magic". Categories: Communication, Core Nodes/);
  });
});
