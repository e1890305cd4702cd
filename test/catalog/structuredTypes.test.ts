import { describe, expect, it } from 'vitest';
import { N8N_STRUCTURED_TYPES } from '../../src/catalog/n8nStructuredTypes';
import { filterOperations } from '../../src/catalog/structuredTypes';

describe('filterOperations', () => {
  it('answers the operations n8n runs for a filter operator type, with whether each reads a right value', () => {
    const operations = filterOperations(N8N_STRUCTURED_TYPES, 'string')!;
    expect(operations).toContainEqual({ operation: 'equals', right_value: true });
    expect(operations).toContainEqual({ operation: 'exists', right_value: false });
  });

  it('answers undefined for a type n8n does not have, however it is named', () => {
    for (const type of ['strings', '', '__proto__', 'constructor']) expect(filterOperations(N8N_STRUCTURED_TYPES, type), type).toBeUndefined();
  });
});
