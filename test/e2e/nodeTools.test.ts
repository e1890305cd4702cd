import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { CLASSED_TYPES } from '../../src/workflows/nodeClasses';
import { withKey } from './auth';

/** A parameter's choices, bare (enum_values) or with what each does (choices). */
const choiceValues = (p: { enum_values?: unknown[]; choices?: { value: unknown }[] }) => p.enum_values ?? p.choices?.map((c) => c.value);

/** The node knowledge tools through the real SDK client, against `npm run dev` (which loads the catalog). */
const client = new Client({ name: 'e2e-nodes', version: '1.0.0' });

beforeAll(async () => {
  await client.connect(new StreamableHTTPClientTransport(new URL('/mcp', inject('baseUrl')), withKey));
});
afterAll(() => client.close());

const json = (result: Awaited<ReturnType<Client['callTool']>>) => JSON.parse((result.content as { text: string }[])[0]!.text);

describe('node knowledge tools', () => {
  it('lists them as read-only tools with flat input schemas', async () => {
    const { tools } = await client.listTools();
    for (const name of ['get_node_types', 'get_node_details']) {
      const tool = tools.find((t) => t.name === name)!;
      expect(tool.annotations?.readOnlyHint).toBe(true);
      expect(tool.inputSchema.type).toBe('object');
      expect(JSON.stringify(tool.inputSchema)).not.toMatch(/\$ref|"oneOf"/);
    }
  });

  it("get_node_types answers the catalog npm run dev loads by default: n8n's nodes, not the seed taxonomy, as counts until narrowed", async () => {
    const summary = json(await client.callTool({ name: 'get_node_types', arguments: {} }));
    expect(summary.matches).toBeGreaterThan(800);
    expect(summary.by_category['Core Nodes']).toBeGreaterThan(50);
    expect(JSON.stringify(summary).length).toBeLessThan(4000);
    const triggers = json(await client.callTool({ name: 'get_node_types', arguments: { name: 'schedule' } }));
    expect(triggers.TRIGGER_NODE).toContain('n8n-nodes-base.scheduleTrigger');
    const agents = json(await client.callTool({ name: 'get_node_types', arguments: { name: 'langchain.agent', category: 'AI' } }));
    expect(agents.AI_AGENT_NODE).toContain('@n8n/n8n-nodes-langchain.agent');
    expect(
      Object.values(agents)
        .flat()
        .filter((subtype) => !String(subtype).includes('.')),
    ).toEqual([]);
  });

  it('get_node_details answers in order, with an error entry for an unknown node', async () => {
    const details = json(
      await client.callTool({
        name: 'get_node_details',
        arguments: {
          nodes: [
            { node_type: 'FLOW_NODE', subtype: 'n8n-nodes-base.wait' },
            { node_type: 'FLOW_NODE', subtype: 'GOTO' },
          ],
        },
      }),
    );
    expect(choiceValues(details[0].parameters.find((p: { name: string }) => p.name === 'resume'))).toContain('webhook');
    expect(details[1]).toEqual({ node_type: 'FLOW_NODE', subtype: 'GOTO', error: 'Node specification not found' });
  });

  it('knows every node type the node classes name by type (src/workflows/nodeClasses.ts): a misspelt one would class nothing', async () => {
    for (const subtype of CLASSED_TYPES) {
      const found = json(await client.callTool({ name: 'get_node_types', arguments: { name: subtype } }));
      expect(Object.values(found).flat(), subtype).toContain(subtype);
    }
  });

  it('reads a node-spec:// resource', async () => {
    const { contents } = await client.readResource({ uri: 'node-spec://ACTION_NODE/n8n-nodes-base.code' });
    expect(JSON.parse((contents[0] as { text: string }).text)).toMatchObject({ subtype: 'n8n-nodes-base.code', source: 'n8n' });
  });
});

describe('search_nodes over the default catalog', () => {
  it('finds n8n nodes by name, through typos', async () => {
    const hits = json(await client.callTool({ name: 'search_nodes', arguments: { query: 'gogle sheets', max_results: 5 } }));
    expect(hits[0].subtype).toBe('n8n-nodes-base.googleSheets');
  });

  it('details an n8n node compactly by default and fully on request', async () => {
    const ask = (detail: string) =>
      client.callTool({ name: 'get_node_details', arguments: { nodes: [{ node_type: 'EXTERNAL_ACTION_NODE', subtype: 'n8n-nodes-base.slack' }], detail } });
    const essentials = (await ask('essentials')).content as { text: string }[];
    const full = (await ask('full')).content as { text: string }[];
    expect(essentials[0]!.text.length).toBeLessThan(full[0]!.text.length);
    const [spec] = JSON.parse(essentials[0]!.text);
    expect(choiceValues(spec.parameters.find((p: { name: string }) => p.name === 'resource'))).toContain('message');
  });
});

describe('error shapes through the SDK client', () => {
  it('answers bad arguments with an isError result naming the problem', async () => {
    const empty = await client.callTool({ name: 'search_nodes', arguments: { query: ' ' } });
    expect(empty.isError).toBe(true);
    expect(JSON.stringify(empty.content)).toMatch(/query must not be empty/);
    const tooMany = await client.callTool({ name: 'search_nodes', arguments: { query: 'slack', max_results: 500 } });
    expect(tooMany.isError).toBe(true);
  });

  it('answers a full spec too big for one response with its essentials and a link to the rest', async () => {
    const result = await client.callTool({
      name: 'get_node_details',
      arguments: { nodes: [{ node_type: 'EXTERNAL_ACTION_NODE', subtype: 'n8n-nodes-base.notion' }], detail: 'full' },
    });
    const text = (result.content as { text: string }[])[0]!.text;
    expect(text.length).toBeLessThan(80_000);
    expect(JSON.parse(text)[0]).toMatchObject({ detail: 'essentials', full_specification: 'node-spec://EXTERNAL_ACTION_NODE/n8n-nodes-base.notion' });
  });
});
