import { describe, expect, it } from 'vitest';
import { CALLED_NOT_ACTIVATED, calledOnly, calledWorkflowIds, calleeInputs } from '../../src/workflows/subWorkflows';
import { validateWorkflow } from '../../src/workflows/validateWorkflow';
import { connect, n8nCatalog, node } from '../support/n8nCatalog';

describe('sub-workflows', () => {
  it('tells a workflow started only by "When Executed by Another Workflow" from one with a trigger of its own', () => {
    const called = node('When Executed by Another Workflow', 'executeWorkflowTrigger', 1.1, { inputSource: 'passthrough' });
    const work = node('Work', 'set', 3.4);
    expect(calledOnly({ nodes: [called, work] })).toBe(true);
    expect(calledOnly({ nodes: [called, work, node('Webhook', 'webhook', 2.1, { path: 'x' })] })).toBe(false);
    expect(calledOnly({ nodes: [called, node('Every day', 'scheduleTrigger', 1.2)] })).toBe(false);
    // A disabled trigger starts nothing; a workflow with no trigger at all is not a sub-workflow.
    expect(calledOnly({ nodes: [called, { ...node('Webhook', 'webhook', 2.1), disabled: true }] })).toBe(true);
    expect(calledOnly({ nodes: [work] })).toBe(false);
    expect(calledOnly(null)).toBe(false);
    expect(CALLED_NOT_ACTIVATED).toContain('called, not activated');
  });
});

describe("Execute Workflow's inputs against the called workflow's trigger", () => {
  const trigger = (parameters: Record<string, unknown>, typeVersion = 1.1) => node('Start', 'executeWorkflowTrigger', typeVersion, parameters);
  const callee = (t: ReturnType<typeof trigger>) => ({ id: 'sub1', nodes: [t, node('Work', 'set', 3.4)], connections: {} });
  const caller = (value: Record<string, unknown>, workflowId: unknown = { __rl: true, mode: 'list', value: 'sub1' }) => ({
    nodes: [
      node('Manual', 'manualTrigger', 1),
      node('Call', 'executeWorkflow', 1.2, { workflowId, workflowInputs: { mappingMode: 'defineBelow', value, matchingColumns: [], schema: [] }, options: {} }),
    ],
    connections: connect(['Manual', 'Call']),
  });
  const findings = (w: unknown, callees: Map<string, unknown>) => {
    const r = validateWorkflow(w, n8nCatalog, undefined, callees);
    return [...r.errors.map((f) => `E ${f.code}`), ...r.warnings.map((f) => `W ${f.code}`)].filter((c) => c.includes('subworkflow_'));
  };
  const defined = trigger({ inputSource: 'workflowInputs', workflowInputs: { values: [{ name: 'email' }, { name: 'amount', type: 'number' }] } });

  it('finds a value sent to an input the callee does not define, and an input left unmapped', () => {
    const callees = new Map([['sub1', callee(defined)]]);
    expect(findings(caller({ email: '={{ $json.a }}', amount: 3 }), callees)).toEqual([]);
    expect(findings(caller({ mail: '={{ $json.a }}', amount: 3 }), callees)).toEqual(['E subworkflow_input_unknown', 'W subworkflow_input_unmapped']);
    const r = validateWorkflow(caller({ mail: 'x', email: 'y', amount: 1 }), n8nCatalog, undefined, callees);
    expect(r.errors.find((e) => e.code === 'subworkflow_input_unknown')!.message).toContain('Its inputs: "email", "amount"');
    // A plain id works as a resource locator does; an id the caller did not give: nothing to compare.
    expect(findings(caller({ mail: 'x', email: 'y', amount: 1 }, 'sub1'), callees)).toEqual(['E subworkflow_input_unknown']);
    expect(findings(caller({ mail: 'x' }), new Map())).toEqual([]);
  });

  it('reads inputs from a JSON example; takes passthrough and v1 triggers as accepting anything', () => {
    const example = new Map([['sub1', callee(trigger({ inputSource: 'jsonExample', jsonExample: '{"email": "a@b.c"}' }))]]);
    expect(findings(caller({ email: 'x', extra: 'y' }), example)).toEqual(['E subworkflow_input_unknown']);
    expect(findings(caller({ extra: 'y' }), new Map([['sub1', callee(trigger({ inputSource: 'passthrough' }))]]))).toEqual([]);
    expect(findings(caller({ extra: 'y' }), new Map([['sub1', callee(trigger({}, 1))]]))).toEqual([]);
    expect(calleeInputs(callee(defined))).toEqual(['email', 'amount']);
    expect(calledWorkflowIds(caller({}))).toEqual(['sub1']);
  });
});
