import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { autofix } from '../../src/workflows/autofix';
import { clippedReport, RUNS } from '../support/fuzz';
import { holds, largeWorkflow, namesOf, smallWorkflow } from '../support/hostileWorkflows';
import { n8nCatalog } from '../support/n8nCatalog';

/** autofix on generated workflows made of hostile parts (test/support/hostileWorkflows.ts says which). */
describe('autofix, property-based, on hostile workflows', () => {
  it(`autofixes any workflow within the bounds, keeping every node's name (${RUNS * 3} workflows)`, ({ task }) => {
    let tried = 0;
    fc.assert(
      fc.property(smallWorkflow, (text) => {
        tried++;
        holds(text, (w) => {
          const fixed = autofix(w, n8nCatalog, { newId: () => 'id' });
          expect(namesOf(fixed.workflow)).toEqual(namesOf(w));
          return fixed;
        });
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
        holds(text, (w) => autofix(w, n8nCatalog, { newId: () => 'id' }));
      }),
      { numRuns: large, reporter: clippedReport },
    );
    task.meta.inputs = tried;
  }, 1_800_000);
});
