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

  it('takes every operation of every type n8n runs (as its editor writes them), and expressions as combinator', () => {
    for (const { type, operations } of N8N_STRUCTURED_TYPES.filter.operators) {
      const conditions = operations.map((o) => ({ ...condition(type, o.operation), operator: { type, operation: o.operation, singleValue: !o.right_value } }));
      expect(check({ combinator: '={{ "or" }}', conditions })).toMatchObject({ errors: [], warnings: [] });
    }
  });

  it('warns when an operation that compares has no right value, and not for single-value operations', () => {
    const notEmpty = { ...condition('string', 'notEmpty', {}), operator: { type: 'string', operation: 'notEmpty', singleValue: true } };
    const result = check({ combinator: 'or', conditions: [condition('number', 'gt', {}), notEmpty] });
    expect(result.errors).toEqual([]);
    expect(result.warnings.map((f) => `${f.code}:${f.path}`)).toEqual(['filter_right_value_missing:parameters.conditions.conditions[0].rightValue']);
  });

  it('refuses a boolean "is true" without singleValue whose right value n8n would check as a boolean and fail on, under strict type validation', () => {
    for (const rightValue of ['', 'true', 1]) {
      const result = check({ options, combinator: 'and', conditions: [condition('boolean', 'true', { rightValue })] });
      expect(result.errors.map((f) => `${f.code}:${f.path}`)).toEqual(['filter_single_value_missing:parameters.conditions.conditions[0].operator.singleValue']);
      expect(result.errors[0]!.message).toMatch(/"boolean" "true" takes no right value.*fails every item.*"singleValue": true/);
    }
  });

  it('only warns of a missing singleValue where n8n would not fail: types converted, a boolean or no right value, an expression, another type', () => {
    const warned = (value: Record<string, unknown>, convertsTypes = false) => {
      const out = new Findings();
      checkFilterValue(value, 'parameters.conditions', 'If', out, convertsTypes);
      const { errors, warnings } = out.result();
      return [errors.length, warnings.map((f) => f.code)];
    };
    const isTrue = (extra: Record<string, unknown>) => ({ options, combinator: 'and', conditions: [condition('boolean', 'true', extra)] });
    const single = [0, ['filter_single_value_missing']];
    expect(warned(isTrue({ rightValue: '' }), true)).toEqual(single);
    expect(warned({ ...isTrue({ rightValue: '' }), options: { ...options, typeValidation: 'loose' } })).toEqual(single);
    expect(warned(isTrue({ rightValue: true }))).toEqual(single);
    expect(warned(isTrue({}))).toEqual(single);
    expect(warned(isTrue({ rightValue: '={{ $json.flag }}' }))).toEqual(single);
    expect(warned({ options, combinator: 'and', conditions: [condition('string', 'exists', { rightValue: '' })] })).toEqual(single);
  });

  it('a node set to convert types where required (looseTypeValidation) is not refused for it', () => {
    const conditions = { options, combinator: 'and', conditions: [condition('boolean', 'true', { rightValue: '' })] };
    const strict = validateNode(ifNode(conditions.conditions), n8nCatalog);
    expect(strict.errors.map((f) => f.code)).toEqual(['filter_single_value_missing']);
    const loose = validateNode(node('If', 'if', 2.2, { conditions, looseTypeValidation: true }), n8nCatalog);
    expect(loose.errors).toEqual([]);
    expect(loose.warnings.map((f) => f.code)).toContain('filter_single_value_missing');
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
