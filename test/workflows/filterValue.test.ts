import { describe, expect, it } from 'vitest';
import { N8N_STRUCTURED_TYPES } from '../../src/catalog/n8nStructuredTypes';
import { checkFilterValue } from '../../src/workflows/filterValue';
import { Findings } from '../../src/workflows/findings';
import { validateNode } from '../../src/workflows/validateNode';
import { n8nCatalog, node } from '../support/n8nCatalog';

const options = { caseSensitive: true, leftValue: '', typeValidation: 'strict', version: 2 };
const condition = (type: string, operation: string, extra: Record<string, unknown> = { rightValue: 'x' }) => ({
  id: 'c1',
  leftValue: '={{ $json.a }}',
  operator: { type, operation },
  ...extra,
});
const ifNode = (conditions: unknown[], combinator: unknown = 'and') => node('If', 'if', 2.2, { conditions: { options, combinator, conditions } });

function check(value: Record<string, unknown>) {
  const out = new Findings();
  checkFilterValue(value, 'parameters.conditions', 'If', out);
  return out.result();
}

describe('filter values', () => {
  it('refuses an operator type n8n does not have, naming the types and the nearest', () => {
    const result = validateNode(ifNode([condition('strng', 'equals')]), n8nCatalog);
    expect(result.errors.map((f) => `${f.code}:${f.path}`)).toEqual(['invalid_filter_operator:parameters.conditions.conditions[0].operator.type']);
    expect(result.errors[0]!.message).toContain('Did you mean "string"?');
    expect(result.errors[0]!.message).toContain('"dateTime"');
  });

  it('refuses an operation the type does not have, listing the type’s operations', () => {
    const result = validateNode(ifNode([condition('string', 'equal')]), n8nCatalog);
    expect(result.errors.map((f) => f.code)).toEqual(['invalid_filter_operator']);
    expect(result.errors[0]!.message).toMatch(/"equal" is not an operation of type "string".*"equals".*Did you mean "equals"\?/);
  });

  it('refuses a combinator other than and/or', () => {
    const result = validateNode(ifNode([condition('string', 'equals')], 'andd'), n8nCatalog);
    expect(result.errors.map((f) => `${f.code}:${f.path}`)).toEqual(['invalid_filter_combinator:parameters.conditions.combinator']);
    expect(result.errors[0]!.message).toContain('Did you mean "and"?');
    // An object whose toString is no function: refused like any other, not thrown on.
    const odd = validateNode(ifNode([condition('string', 'equals')], { toString: { x: 0 } }), n8nCatalog);
    expect(odd.errors.map((f) => f.code)).toEqual(['invalid_filter_combinator']);
  });

  it('takes every operation of every type n8n runs, and expressions as combinator', () => {
    for (const { type, operations } of N8N_STRUCTURED_TYPES.filter.operators) {
      expect(check({ combinator: '={{ "or" }}', conditions: operations.map((o) => condition(type, o.operation)) }).errors).toEqual([]);
    }
  });

  it('warns when an operation that compares has no right value, and not for single-value operations', () => {
    const result = check({ combinator: 'or', conditions: [condition('number', 'gt', {}), condition('string', 'notEmpty', {})] });
    expect(result.errors).toEqual([]);
    expect(result.warnings.map((f) => `${f.code}:${f.path}`)).toEqual(['filter_right_value_missing:parameters.conditions.conditions[0].rightValue']);
  });

  it('refuses a condition without an operator object, or one that is no object', () => {
    const result = check({ conditions: [{ leftValue: 'a', rightValue: 'b' }, 'x', condition('string', 'equals')] });
    expect(result.errors.map((f) => `${f.code}:${f.path}`)).toEqual([
      'invalid_filter_operator:parameters.conditions.conditions[0].operator',
      'invalid_shape:parameters.conditions.conditions[1]',
    ]);
  });

  it('checks the conditions of every Switch rule (a filter inside a fixed collection)', () => {
    const rule = (type: string) => ({ conditions: { options, combinator: 'and', conditions: [condition(type, 'equals')] } });
    const result = validateNode(node('Switch', 'switch', 3.2, { rules: { values: [rule('string'), rule('numbr')] } }), n8nCatalog);
    expect(result.errors.map((f) => `${f.code}:${f.path}`)).toEqual([
      'invalid_filter_operator:parameters.rules.values[1].conditions.conditions[0].operator.type',
    ]);
  });
});
