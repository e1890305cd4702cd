import { describe, expect, it } from 'vitest';
import { CALLED_NOT_ACTIVATED, calledOnly } from '../../src/workflows/subWorkflows';
import { node } from '../support/n8nCatalog';

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
