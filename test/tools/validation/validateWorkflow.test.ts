import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { clearCatalogCache } from '../../../src/catalog/catalog';
import { CURRENT_KEY } from '../../../src/catalog/keys';
import { loadCatalog } from '../../support/catalog';
import { n8nSpecs } from '../../support/n8nCatalog';
import { callDirect, callInSession, type ToolAnswer } from '../../support/tools';
import { FAULTY_WORKFLOW } from '../../support/workflows';

/** validate_workflow in the session object, over a catalog of real n8n descriptions in KV. */
describe('validate_workflow', () => {
  it('reads the descriptions of the versions used from KV, older ones included', async () => {
    await loadCatalog(n8nSpecs, ['n8n']);
    const result = await callInSession('validate_workflow', { workflow: FAULTY_WORKFLOW });
    expect(result.structuredContent).toMatchObject({
      valid: false,
      errors: [
        { code: 'output_index_out_of_range', node: 'Check' },
        { code: 'invalid_connection_type', node: 'Check' },
      ],
    });
  });

  it('warns of the nodes this credential may not put into n8n, with the class and the scope, and only of those', async () => {
    await loadCatalog(n8nSpecs, ['n8n']);
    const workflow = {
      nodes: [
        { name: 'Start', type: 'n8n-nodes-base.manualTrigger', typeVersion: 1, position: [0, 0], parameters: {} },
        { name: 'Run', type: 'n8n-nodes-base.code', typeVersion: 2, position: [200, 0], parameters: { jsCode: 'return $input.all();' } },
      ],
      connections: { Start: { main: [[{ node: 'Run', type: 'main', index: 0 }]] } },
    };
    const refused = (scopes: string[]) =>
      callDirect('validate_workflow', { workflow }, { scopes }).then((a) =>
        (a.json.warnings as { code: string; node: string; message: string }[]).filter((w) => w.code === 'node_class_refused'),
      );
    expect(await refused(['nodes:read', 'workflows:write'])).toEqual([
      {
        node: 'Run',
        code: 'node_class_refused',
        message: expect.stringMatching(
          /^"Run" runs the JavaScript or Python it is given: class "code", and it needs the scope "workflows:code", which this credential does not have\. create_workflow/,
        ),
      },
    ]);
    expect(await refused(['nodes:read', 'workflows:code'])).toEqual([]);
  });

  it('checks Execute Workflow inputs against a called workflow passed with it, by id', async () => {
    await loadCatalog(n8nSpecs, ['n8n']);
    const callee = {
      id: 'sub1',
      nodes: [
        {
          name: 'In',
          type: 'n8n-nodes-base.executeWorkflowTrigger',
          typeVersion: 1.1,
          parameters: { workflowInputs: { values: [{ name: 'email' }] } },
          position: [0, 0],
        },
      ],
      connections: {},
    };
    const caller = {
      nodes: [
        { name: 'Start', type: 'n8n-nodes-base.manualTrigger', typeVersion: 1, parameters: {}, position: [0, 0] },
        {
          name: 'Call',
          type: 'n8n-nodes-base.executeWorkflow',
          typeVersion: 1.2,
          parameters: {
            workflowId: { __rl: true, mode: 'id', value: 'sub1' },
            workflowInputs: { mappingMode: 'defineBelow', value: { mail: 'x' }, matchingColumns: [], schema: [] },
            options: {},
          },
          position: [200, 0],
        },
      ],
      connections: { Start: { main: [[{ node: 'Call', type: 'main', index: 0 }]] } },
    };
    const codes = (r: ToolAnswer) => (r.structuredContent!.errors as { code: string }[]).map((e) => e.code);
    expect(codes(await callInSession('validate_workflow', { workflow: caller }))).toEqual([]);
    expect(codes(await callInSession('validate_workflow', { workflow: caller, called_workflows: [callee] }))).toEqual(['subworkflow_input_unknown']);
  });

  it('answers a long list of findings within bounds: the first 100 errors, the rest counted', async () => {
    await loadCatalog(n8nSpecs, ['n8n']);
    // A long-named node with many connections to a missing one: 200 findings, 100 in the answer, names clipped.
    const source = 's'.repeat(1_000);
    const fan = {
      nodes: [FAULTY_WORKFLOW.nodes[0], { ...FAULTY_WORKFLOW.nodes[1], name: source }],
      connections: { [source]: { main: [Array.from({ length: 200 }, () => ({ node: 'm'.repeat(1_000), type: 'main', index: 0 }))] } },
    };
    const answer = await callInSession('validate_workflow', { workflow: fan });
    expect(answer.structuredContent).toMatchObject({ valid: false, errors: { length: 100 }, omitted: { errors: 100, warnings: 0 } });
    expect(answer.text.length).toBeLessThan(400_000);
  });

  it('says plainly when no catalog is loaded', async () => {
    await env.SPECS.delete(CURRENT_KEY);
    clearCatalogCache();
    const result = await callInSession('validate_workflow', { workflow: FAULTY_WORKFLOW });
    expect(result.isError).toBe(true);
    expect(result.text).toMatch(/No node catalog is loaded/);
  });
});
