import { beforeEach, describe, expect, it } from 'vitest';
import { LIST_LIMIT } from '../../src/tools/nodes/getNodeTypes';
import { loadCatalog, seedSpecs, spec } from '../support/catalog';
import { openSession, rpc } from '../support/mcp';

async function callTool(name: string, args: Record<string, unknown>) {
  const sessionId = await openSession();
  const { reply } = await rpc(sessionId, 'tools/call', { name, arguments: args });
  return reply!.result as { content: { type: string; text: string }[]; isError?: boolean; structuredContent?: unknown };
}

const json = (result: { content: { text: string }[] }) => JSON.parse(result.content[0]!.text);

beforeEach(async () => {
  await loadCatalog();
});

describe('get_node_types', () => {
  it('returns every type and subtype of the loaded catalog, in catalog order', async () => {
    const types = json(await callTool('get_node_types', {}));
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
    expect(json(await callTool('get_node_types', { type_filter: 'FLOW_NODE' }))).toEqual({
      FLOW_NODE: ['IF', 'FILTER', 'LOOP', 'MERGE', 'SWITCH', 'WAIT'],
    });
  });

  it('refuses a type that does not exist with the allowed values', async () => {
    const result = await callTool('get_node_types', { type_filter: 'MAGIC_NODE' });
    expect(result.isError).toBe(true);
    expect(result.content[0]!.text).toMatch(/ACTION_NODE/);
  });
});

describe('get_node_details', () => {
  it('answers one entry per requested node, in order, with errors in place', async () => {
    const details = json(
      await callTool('get_node_details', {
        nodes: [
          { node_type: 'ACTION_NODE', subtype: 'HTTP_REQUEST' },
          { node_type: 'ACTION_NODE', subtype: 'NOPE' },
          { node_type: 'AI_AGENT_NODE', subtype: 'OPENAI_NODE' },
        ],
      }),
    );
    expect(details).toHaveLength(3);
    expect(details[0]).toMatchObject({ node_type: 'ACTION_NODE', subtype: 'HTTP_REQUEST', parameters: expect.any(Array) });
    expect(details[1]).toEqual({ node_type: 'ACTION_NODE', subtype: 'NOPE', error: 'Node specification not found' });
    expect(details[2]).toMatchObject({ subtype: 'OPENAI_NODE', examples: expect.any(Array) });
  });

  it('answers names that are not in the catalog as not found, however long, a node of another type too', async () => {
    const nodes = [
      { node_type: 'ACTION_NODE', subtype: 'x'.repeat(600) },
      { node_type: 'FLOW_NODE', subtype: 'HTTP_REQUEST' },
    ];
    const result = await callTool('get_node_details', { nodes });
    expect(result.isError).toBeFalsy();
    expect(json(result)).toEqual(nodes.map((n) => ({ ...n, error: 'Node specification not found' })));
  });

  it('leaves out examples and port schemas when asked', async () => {
    const [detail] = json(
      await callTool('get_node_details', {
        nodes: [{ node_type: 'ACTION_NODE', subtype: 'HTTP_REQUEST' }],
        include_examples: false,
        include_schemas: false,
        detail: 'full',
      }),
    );
    expect(detail).not.toHaveProperty('examples');
    for (const port of [...detail.input_ports, ...detail.output_ports]) {
      expect(port.data_format).toBeNull();
      expect(port.validation_schema).toBeNull();
    }
  });

  it('narrows an n8n node to the resource/operation asked, and names the choices when one is not the node’s', async () => {
    const param = (name: string, extra: object) => ({ name, type: 'string' as const, required: true, description: name, ...extra });
    const mail = spec('n8n-nodes-base.mail', {
      node_type: 'EXTERNAL_ACTION_NODE',
      source: 'n8n',
      type_versions: [1],
      node_versions: [1],
      version: '1',
      parameters: [
        param('resource', { type: 'enum', enum_values: ['message', 'label'], default_value: 'message' }),
        param('operation', { type: 'enum', enum_values: ['send', 'get'], default_value: 'send', display_options: { show: { resource: ['message'] } } }),
        param('to', { display_options: { show: { resource: ['message'], operation: ['send'] } } }),
        param('messageId', { display_options: { show: { resource: ['message'], operation: ['get'] } } }),
      ],
    });
    await loadCatalog([...seedSpecs(), mail]);
    const node = { node_type: 'EXTERNAL_ACTION_NODE', subtype: 'n8n-nodes-base.mail' };
    const [get, send, unknown, none] = json(
      await callTool('get_node_details', {
        detail: 'full',
        nodes: [
          { ...node, resource: 'message', operation: 'get' },
          { ...node, operation: 'send' },
          { ...node, operation: 'archive' },
          { node_type: 'ACTION_NODE', subtype: 'HTTP_REQUEST', resource: 'x' },
        ],
      }),
    );
    expect(get.parameters.map((p: { name: string }) => p.name)).toEqual(['resource', 'operation', 'messageId']);
    expect(send.parameters.map((p: { name: string }) => p.name)).toEqual(['resource', 'operation', 'to']);
    expect(unknown).toEqual({ ...node, error: 'No operation "archive": n8n-nodes-base.mail has send, get' });
    expect(none.error).toMatch(/has no resource to choose: leave resource out/);
  });

  it('refuses an empty node list as invalid params', async () => {
    const result = await callTool('get_node_details', { nodes: [] });
    expect(result.isError).toBe(true);
    expect(result.content[0]!.text).toMatch(/nodes/);
  });
});

describe('search_nodes', () => {
  it('ranks nodes with relevance scores', async () => {
    const hits = json(await callTool('search_nodes', { query: 'send email notification', max_results: 5 }));
    expect(hits.length).toBeGreaterThan(0);
    expect(hits.length).toBeLessThanOrEqual(5);
    expect(hits[0]).toEqual({
      node_type: expect.any(String),
      subtype: expect.any(String),
      display_name: expect.any(String),
      description: expect.any(String),
      relevance_score: expect.any(Number),
    });
    expect(hits.map((h: { subtype: string }) => h.subtype)).toContain('EXTERNAL_EMAIL');
  });

  it('includes essentials of each node when asked', async () => {
    const [hit] = json(await callTool('search_nodes', { query: 'http request', max_results: 1, include_details: true }));
    // The detail asked is the one answered, however small the spec.
    expect(hit).toMatchObject({ subtype: 'HTTP_REQUEST', detail: 'essentials', parameters: expect.any(Array), relevance_score: expect.any(Number) });
  });

  it.each([
    [{ query: '   ' }, /query must not be empty/],
    [{ query: 'x', max_results: 0 }, /max_results/],
    [{ query: 'x', max_results: 51 }, /max_results/],
  ])('refuses %j as invalid params', async (args, message) => {
    const result = await callTool('search_nodes', args);
    expect(result.isError).toBe(true);
    expect(result.content[0]!.text).toMatch(message);
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
    const answer = json(await callTool('get_node_types', {}));
    expect(answer).toEqual({
      matches: LIST_LIMIT + 5,
      by_type: { ACTION_NODE: (LIST_LIMIT + 5 - 1) >> 1, TRIGGER_NODE: (LIST_LIMIT + 5 + 1) >> 1 },
      by_category: { Communication: LIST_LIMIT + 2, 'Core Nodes': 3 },
      note: expect.stringMatching(/narrow with name, category or type_filter/),
    });
  });

  it('lists the subtypes matching a name (any case) and a category', async () => {
    expect(json(await callTool('get_node_types', { name: 'NODE1', category: 'Communication' }))).toEqual({
      ACTION_NODE: ['n8n-nodes-base.node11', 'n8n-nodes-base.node13', 'n8n-nodes-base.node15', 'n8n-nodes-base.node17', 'n8n-nodes-base.node19'],
      TRIGGER_NODE: ['n8n-nodes-base.node10', 'n8n-nodes-base.node12', 'n8n-nodes-base.node14', 'n8n-nodes-base.node16', 'n8n-nodes-base.node18'],
    });
    expect(json(await callTool('get_node_types', { category: 'Core Nodes' }))).toEqual({
      ACTION_NODE: ['n8n-nodes-base.node1'],
      TRIGGER_NODE: ['n8n-nodes-base.node0', 'n8n-nodes-base.node2'],
    });
  });

  it('refuses a category the catalog lacks, naming those it has', async () => {
    const result = await callTool('get_node_types', { category: 'Magic' });
    expect(result.isError).toBe(true);
    expect(result.content[0]!.text).toMatch(/No category "Magic". Categories: Communication, Core Nodes/);
  });
});
