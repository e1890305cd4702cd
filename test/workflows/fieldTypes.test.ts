import { describe, expect, it } from 'vitest';
import { conversionProblem } from '../../src/workflows/fieldTypes';

describe('field type conversion', () => {
  it('says what n8n cannot convert, as n8n-workflow’s validateFieldType does', () => {
    expect(conversionProblem('number', 'abc')).toMatch(/no number/);
    expect(conversionProblem('number', ' 12 ')).toBeUndefined();
    expect(conversionProblem('number', { toString: {} })).toMatch(/no number/);
    expect(conversionProblem('boolean', '')).toMatch(/not true or false/);
    expect(conversionProblem('boolean', '1')).toBeUndefined();
    expect(conversionProblem('boolean', 0)).toBeUndefined();
    expect(conversionProblem('array', '{"a": 1}')).toMatch(/no list/);
    expect(conversionProblem('array', "['x']")).toBeUndefined();
    expect(conversionProblem('string', { a: 1 })).toBeUndefined();
    expect(conversionProblem('number', '={{ 1 }}')).toBeUndefined();
    expect(conversionProblem('number', null)).toBeUndefined();
  });
});
