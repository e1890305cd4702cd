import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { clearCatalogCache } from '../../../src/catalog/catalog';
import { CURRENT_KEY } from '../../../src/catalog/keys';
import { loadCatalog } from '../../support/catalog';
import { openSession, rpc } from '../../support/mcp';
import { n8nSpecs } from '../../support/n8nCatalog';
import { fromJson, withPrototypesUnchanged } from '../../support/specialNames';

/** The validation tools in the session object, over a catalog of real n8n descriptions in KV. */
async function callTool(name: string, args: Record<string, unknown>) {
  const sessionId = await openSession();
  const { reply } = await rpc(sessionId, 'tools/call', { name, arguments: args });
  return reply!.result as { content: { text: string }[]; isError?: boolean; structuredContent?: Record<string, unknown> };
}

const workflow = {
  nodes: [
    { name: 'Start', type: 'n8n-nodes-base.manualTrigger', typeVersion: 1, parameters: {}, position: [0, 0] },
    { name: 'Check', type: 'n8n-nodes-base.if', typeVersion: 1, parameters: {}, position: [200, 0] },
  ],
  connections: { Start: { main: [[{ node: 'Check', type: 'main', index: 0 }]] }, Check: { main: [[], [], [{ node: 'Start', type: 'main', index: 0 }]] } },
};

describe('validate_workflow, validate_node and autofix_workflow in the Worker', () => {
  it('read the descriptions of the versions used from KV, older ones included', async () => {
    await loadCatalog(n8nSpecs, ['n8n']);
    const result = await callTool('validate_workflow', { workflow });
    expect(result.structuredContent).toMatchObject({ valid: false, errors: [{ code: 'output_index_out_of_range', node: 'Check' }, { code: 'invalid_connection_type', node: 'Check' }] });
    const node = await callTool('validate_node', { type: 'n8n-nodes-base.if', typeVersion: 3 });
    expect(node.structuredContent).toMatchObject({ valid: false, errors: [{ code: 'invalid_type_version', message: expect.stringContaining('1, 2, 2.1, 2.2, 2.3') }] });
    const fixed = await callTool('autofix_workflow', { workflow: { ...workflow, nodes: [workflow.nodes[0], { ...workflow.nodes[1], type: 'n8n-nodes-base.iF' }] } });
    const answer = JSON.parse(fixed.content[0]!.text);
    expect(answer.fixes[0]).toMatchObject({ kind: 'node_type', applied: true });
    expect(answer.workflow.nodes[1].type).toBe('n8n-nodes-base.if');
  });

  it('validate_workflow checks Execute Workflow inputs against a called workflow passed with it, by id', async () => {
    await loadCatalog(n8nSpecs, ['n8n']);
    const callee = {
      id: 'sub1',
      nodes: [{ name: 'In', type: 'n8n-nodes-base.executeWorkflowTrigger', typeVersion: 1.1, parameters: { workflowInputs: { values: [{ name: 'email' }] } }, position: [0, 0] }],
      connections: {},
    };
    const caller = {
      nodes: [
        { name: 'Start', type: 'n8n-nodes-base.manualTrigger', typeVersion: 1, parameters: {}, position: [0, 0] },
        {
          name: 'Call',
          type: 'n8n-nodes-base.executeWorkflow',
          typeVersion: 1.2,
          parameters: { workflowId: { __rl: true, mode: 'id', value: 'sub1' }, workflowInputs: { mappingMode: 'defineBelow', value: { mail: 'x' }, matchingColumns: [], schema: [] }, options: {} },
          position: [200, 0],
        },
      ],
      connections: { Start: { main: [[{ node: 'Call', type: 'main', index: 0 }]] } },
    };
    const codes = (r: Awaited<ReturnType<typeof callTool>>) => (r.structuredContent!.errors as { code: string }[]).map((e) => e.code);
    expect(codes(await callTool('validate_workflow', { workflow: caller }))).toEqual([]);
    expect(codes(await callTool('validate_workflow', { workflow: caller, called_workflows: [callee] }))).toEqual(['subworkflow_input_unknown']);
  });

  it('pass on names that mean something to JavaScript objects as they came: a node named "__proto__" keeps its connections', async () => {
    await loadCatalog(n8nSpecs, ['n8n']);
    const hostile = {
      nodes: [workflow.nodes[0], { ...workflow.nodes[1], name: '__proto__', parameters: fromJson([['__proto__', 1]]) }],
      connections: fromJson([
        ['Start', { main: [[{ node: '__proto__', type: 'main', index: 0 }]] }],
        ['__PROTO__', { main: [[{ node: 'Start', type: 'main', index: 0 }]] }],
        ['__proto__', { main: [[], [{ node: '__proto__', type: 'main', index: 0 }]] }],
      ]),
    };
    const fixed = await withPrototypesUnchanged(() => callTool('autofix_workflow', { workflow: hostile }));
    const answer = JSON.parse(fixed.content[0]!.text);
    expect(answer.fixes.map((f: { kind: string; node: string }) => `${f.kind}@${f.node}`)).toEqual(['connection_by_name@__proto__', 'self_connection@__proto__']);
    expect(JSON.stringify(answer.workflow.connections)).toBe(
      JSON.stringify(fromJson([['Start', { main: [[{ node: '__proto__', type: 'main', index: 0 }]] }], ['__proto__', { main: [[{ node: 'Start', type: 'main', index: 0 }], []] }]])),
    );
    const node = await callTool('validate_node', { name: '__proto__', type: 'n8n-nodes-base.if', typeVersion: 1, parameters: fromJson([['__proto__', { a: 1 }]]) });
    expect(node.structuredContent).toMatchObject({ valid: true, warnings: [{ node: '__proto__', code: 'unknown_parameter', path: 'parameters.__proto__' }] });
  });

  it('refuse what carries more than they check, naming the limit, and answer the rest within bounds', async () => {
    await loadCatalog(n8nSpecs, ['n8n']);
    const names = Array.from({ length: 30_000 }, (_, i) => `N${i}`);
    const chain = {
      nodes: names.map((name) => ({ name, type: 'n8n-nodes-base.noOp', typeVersion: 1 })),
      connections: Object.fromEntries(names.slice(0, -1).map((name, i) => [name, { main: [[{ node: names[i + 1] }]] }])),
    };
    expect(JSON.stringify(chain).length).toBeLessThan(4_000_000);
    for (const tool of ['validate_workflow', 'autofix_workflow']) {
      const refused = await callTool(tool, { workflow: chain });
      expect(refused.isError).toBe(true);
      expect(refused.content[0]!.text).toBe('Error: This workflow has 30,000 nodes; the tools check at most 2,500. Nothing was checked.');
    }
    let deep: unknown = 'x';
    // Past the tools' 150 levels, within the 200 a request body may nest (src/protocol/jsonDepth.ts).
    for (let i = 0; i < 160; i++) deep = { a: deep };
    const node = await callTool('validate_node', { type: 'n8n-nodes-base.set', typeVersion: 3.4, parameters: { deep } });
    expect(node.isError).toBe(true);
    expect(node.content[0]!.text).toMatch(/^Error: parameters\.deep\.a.* holds objects and lists more than 150 deep within each other; the tools take at most 150\. Nothing was checked\.$/);
    // A long-named node with many connections to a missing one: 200 findings, 100 in the answer, names clipped.
    const source = 's'.repeat(1_000);
    const fan = { nodes: [workflow.nodes[0], { ...workflow.nodes[1], name: source }], connections: { [source]: { main: [Array.from({ length: 200 }, () => ({ node: 'm'.repeat(1_000), type: 'main', index: 0 }))] } } };
    const answer = await callTool('validate_workflow', { workflow: fan });
    expect(answer.structuredContent).toMatchObject({ valid: false, errors: { length: 100 }, omitted: { errors: 100, warnings: 0 } });
    expect(answer.content[0]!.text.length).toBeLessThan(400_000);
  });

  it('say plainly when no catalog is loaded', async () => {
    await env.SPECS.delete(CURRENT_KEY);
    clearCatalogCache();
    const result = await callTool('validate_workflow', { workflow });
    expect(result.isError).toBe(true);
    expect(result.content[0]!.text).toMatch(/No node catalog is loaded/);
  });
});
