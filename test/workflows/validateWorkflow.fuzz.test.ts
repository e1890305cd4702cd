import { describe } from 'vitest';
import { validateWorkflow } from '../../src/workflows/validateWorkflow';
import { fuzzWorkflowFunction } from '../support/hostileWorkflows';
import { n8nCatalog } from '../support/n8nCatalog';

/** validateWorkflow on generated workflows made of hostile parts (test/support/hostileWorkflows.ts says which). */
describe('validateWorkflow, property-based, on hostile workflows', () => {
  fuzzWorkflowFunction('validates any workflow within the bounds', (w) => validateWorkflow(w, n8nCatalog));
});
