import fc from 'fast-check';
import { describe, it } from 'vitest';
import { validateWorkflow } from '../../src/workflows/validateWorkflow';
import { clippedReport, RUNS } from '../support/fuzz';
import { holds, largeWorkflow, smallWorkflow } from '../support/hostileWorkflows';
import { n8nCatalog } from '../support/n8nCatalog';

/** validateWorkflow on generated workflows made of hostile parts (test/support/hostileWorkflows.ts says which). */
describe('validateWorkflow, property-based, on hostile workflows', () => {
  it(`validates any workflow within the bounds (${RUNS * 3} workflows)`, ({ task }) => {
    let tried = 0;
    fc.assert(
      fc.property(smallWorkflow, (text) => {
        tried++;
        holds(text, (w) => validateWorkflow(w, n8nCatalog));
      }),
      { numRuns: RUNS * 3, reporter: clippedReport },
    );
    task.meta.inputs = tried;
  }, 1_800_000);

  const large = Math.max(5, Math.round(RUNS / 100));
  it(`bounds the work and the answer on graphs at the size limits (${large} workflows)`, ({ task }) => {
    let tried = 0;
    fc.assert(
      fc.property(largeWorkflow, (text) => {
        tried++;
        holds(text, (w) => validateWorkflow(w, n8nCatalog));
      }),
      { numRuns: large, reporter: clippedReport },
    );
    task.meta.inputs = tried;
  }, 1_800_000);
});
