import { describe, expect, it } from 'vitest';
import { validateNode } from '../../src/workflows/validateNode';
import { n8nCatalog, node } from '../support/n8nCatalog';

const set = (assignments: unknown[], options: Record<string, unknown> = {}) => node('Edit Fields', 'set', 3.4, { assignments: { assignments }, options });
const codes = (result: { errors: { code: string; path?: string }[] }) => result.errors.map((f) => `${f.code}:${f.path}`);

describe('assignments', () => {
  it('refuses a type n8n cannot convert to, naming the types and the nearest', () => {
    const result = validateNode(set([{ id: '1', name: 'a', value: 'x', type: 'strng' }]), n8nCatalog);
    expect(codes(result)).toEqual(['invalid_assignment_type:parameters.assignments.assignments[0].type']);
    expect(result.errors[0]!.message).toContain('Did you mean "string"?');
    expect(result.errors[0]!.message).toContain('"boolean"');
  });

  it('refuses an assignment without a type (n8n fails on every item)', () => {
    expect(codes(validateNode(set([{ id: '1', name: 'a', value: 'x' }]), n8nCatalog))).toEqual([
      'invalid_assignment_type:parameters.assignments.assignments[0].type',
    ]);
  });

  it('refuses a written value its type cannot take, unless conversion errors are ignored', () => {
    const assignments = [
      { id: '1', name: 'n', value: 'twelve', type: 'number' },
      { id: '2', name: 'b', value: 'yes', type: 'boolean' },
      { id: '3', name: 'l', value: 'a, b', type: 'array' },
      { id: '4', name: 'ok', value: '12', type: 'number' },
      { id: '5', name: 'ok2', value: "['a']", type: 'array' },
      { id: '6', name: 'ok3', value: '={{ $json.x }}', type: 'number' },
      { id: '7', name: 'ok4', value: 'TRUE', type: 'boolean' },
    ];
    expect(codes(validateNode(set(assignments), n8nCatalog))).toEqual([
      'wrong_type:parameters.assignments.assignments[0].value',
      'wrong_type:parameters.assignments.assignments[1].value',
      'wrong_type:parameters.assignments.assignments[2].value',
    ]);
    expect(codes(validateNode(set(assignments, { ignoreConversionErrors: true }), n8nCatalog))).toEqual([]);
  });

  it('warns of a row without a name (n8n sets a field named "")', () => {
    const result = validateNode(set([{ id: '1', name: '', value: '', type: 'string' }]), n8nCatalog);
    expect(result.errors).toEqual([]);
    expect(result.warnings.map((f) => f.code)).toContain('assignment_without_name');
  });

  it('refuses an entry that is no object', () => {
    expect(codes(validateNode(set(['a=1']), n8nCatalog))).toEqual(['invalid_shape:parameters.assignments.assignments[0]']);
  });
});
