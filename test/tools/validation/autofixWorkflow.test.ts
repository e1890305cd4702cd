import { describe, expect, it } from 'vitest';
import { loadCatalog } from '../../support/catalog';
import { n8nSpecs } from '../../support/n8nCatalog';
import { fromJson, withPrototypesUnchanged } from '../../support/specialNames';
import { callInSession } from '../../support/tools';
import { FAULTY_WORKFLOW, largeWorkflow } from '../../support/workflows';

/** autofix_workflow in the session object, over a catalog of real n8n descriptions in KV. */
describe('autofix_workflow', () => {
  it('fixes a node type off by case from the descriptions in KV, and answers the fixed workflow', async () => {
    await loadCatalog(n8nSpecs, ['n8n']);
    const fixed = await callInSession('autofix_workflow', {
      workflow: { ...FAULTY_WORKFLOW, nodes: [FAULTY_WORKFLOW.nodes[0], { ...FAULTY_WORKFLOW.nodes[1], type: 'n8n-nodes-base.iF' }] },
    });
    expect(fixed.json.fixes[0]).toMatchObject({ kind: 'node_type', applied: true });
    expect(fixed.json.workflow.nodes[1].type).toBe('n8n-nodes-base.if');
    expect(fixed.json.before).toMatchObject({ valid: false });
  });

  it('answers the fixes without the fixed workflow when that is larger than one answer', async () => {
    await loadCatalog(n8nSpecs, ['n8n']);
    const large = largeWorkflow('Large');
    large.nodes[1]!.type = 'n8n-nodes-base.CODE';
    const fixed = await callInSession('autofix_workflow', { workflow: large });
    expect(fixed.isError).toBe(false);
    expect(fixed.json.fixes[0]).toMatchObject({ kind: 'node_type', node: 'Code 1', applied: true });
    expect(fixed.json).not.toHaveProperty('workflow');
    expect(fixed.json.workflowLeftOut).toMatch(
      /^The answer is [\d,]+ bytes, .* The fixed workflow is left out: make the fixes yourself \(each says what it changes\), or save the workflow and call edit_workflow with "operations": \[\] and "autofix": true\.$/,
    );
  });

  it('passes on names that mean something to JavaScript objects as they came: a node named "__proto__" keeps its connections', async () => {
    await loadCatalog(n8nSpecs, ['n8n']);
    const hostile = {
      nodes: [FAULTY_WORKFLOW.nodes[0], { ...FAULTY_WORKFLOW.nodes[1], name: '__proto__', parameters: fromJson([['__proto__', 1]]) }],
      connections: fromJson([
        ['Start', { main: [[{ node: '__proto__', type: 'main', index: 0 }]] }],
        ['__PROTO__', { main: [[{ node: 'Start', type: 'main', index: 0 }]] }],
        ['__proto__', { main: [[], [{ node: '__proto__', type: 'main', index: 0 }]] }],
      ]),
    };
    const fixed = await withPrototypesUnchanged(() => callInSession('autofix_workflow', { workflow: hostile }));
    expect(fixed.json.fixes.map((f: { kind: string; node: string }) => `${f.kind}@${f.node}`)).toEqual([
      'connection_by_name@__proto__',
      'self_connection@__proto__',
    ]);
    expect(JSON.stringify(fixed.json.workflow.connections)).toBe(
      JSON.stringify(
        fromJson([
          ['Start', { main: [[{ node: '__proto__', type: 'main', index: 0 }]] }],
          ['__proto__', { main: [[{ node: 'Start', type: 'main', index: 0 }], []] }],
        ]),
      ),
    );
  });
});
