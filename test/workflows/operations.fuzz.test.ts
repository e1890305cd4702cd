import fc from 'fast-check';
import { describe, it } from 'vitest';
import { valueOverLimit, workflowOverLimit } from '../../src/workflows/limits';
import { applyOperations, OPERATION_TYPES, type Operation } from '../../src/workflows/operations';
import { clippedReport, RUNS } from '../support/fuzz';
import { prototypeName } from '../support/hostileInputs';
import { holds, nodeName, parameterValue, smallWorkflow, workflowNode } from '../support/hostileWorkflows';

/** edit_workflow's operations on generated workflows made of hostile parts (test/support/hostileWorkflows.ts says which). */
describe('applyOperations, property-based, on hostile workflows', () => {
  it(`applies any list of operations all or nothing (${RUNS} edits)`, ({ task }) => {
    const operation = fc.record({
      type: fc.constantFrom(...OPERATION_TYPES),
      name: nodeName,
      newName: nodeName,
      source: nodeName,
      target: nodeName,
      from: nodeName,
      to: nodeName,
      connectionType: fc.oneof(fc.constant('main'), prototypeName),
      node: workflowNode,
      changes: fc.dictionary(fc.oneof(prototypeName, fc.constantFrom('parameters', 'notes')), parameterValue, { maxKeys: 3 }),
      settings: fc.dictionary(prototypeName, parameterValue, { maxKeys: 2 }),
      tag: nodeName,
    });
    let tried = 0;
    fc.assert(
      fc.property(smallWorkflow, fc.array(operation, { maxLength: 6 }), (text, operations) => {
        tried++;
        // Through JSON, as they arrive: "__proto__" keys in changes and settings stay own keys.
        const ops = JSON.parse(JSON.stringify(operations)) as Operation[];
        holds(
          text,
          (w) => applyOperations(w as Record<string, unknown>, ops, () => 'id'),
          (w) => workflowOverLimit(w) ?? valueOverLimit(ops, 'operations'),
        );
      }),
      { numRuns: RUNS, reporter: clippedReport },
    );
    task.meta.inputs = tried;
  }, 1_800_000);
});
