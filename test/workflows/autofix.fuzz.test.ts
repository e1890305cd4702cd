import { describe, expect } from 'vitest';
import { autofix } from '../../src/workflows/autofix';
import { fuzzWorkflowFunction, namesOf } from '../support/hostileWorkflows';
import { n8nCatalog } from '../support/n8nCatalog';

/** autofix on generated workflows made of hostile parts (test/support/hostileWorkflows.ts says which). */
describe('autofix, property-based, on hostile workflows', () => {
  fuzzWorkflowFunction("autofixes any workflow within the bounds, keeping every node's name", (w) => {
    const fixed = autofix(w, n8nCatalog, { newId: () => 'id' });
    expect(namesOf(fixed.workflow)).toEqual(namesOf(w));
    return fixed;
  });
});
