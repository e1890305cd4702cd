import { describe, expect, it } from 'vitest';
import { Findings } from '../../src/workflows/findings';
import { checkResourceMapperValue } from '../../src/workflows/resourceMapperValue';

const schema = [
  { id: 'email', displayName: 'email', required: true, defaultMatch: false, display: true, type: 'string' },
  { id: 'age', displayName: 'age', required: false, defaultMatch: false, display: true, type: 'number' },
  { id: 'gone', displayName: 'gone', required: true, defaultMatch: false, display: true, type: 'string', removed: true },
];

function check(value: Record<string, unknown>) {
  const out = new Findings();
  checkResourceMapperValue(value, 'parameters.columns', 'Sheet', out);
  return out.result().errors.map((f) => `${f.code}:${f.path}`);
}

describe('resource mapper values', () => {
  it('refuses a mapping mode n8n does not have, naming the modes', () => {
    const out = new Findings();
    checkResourceMapperValue({ mappingMode: 'defineBelo', value: {}, schema }, 'parameters.columns', 'Sheet', out);
    expect(out.result().errors.map((f) => f.code)).toEqual(['invalid_option']);
    expect(out.result().errors[0]!.message).toMatch(/"defineBelow", "autoMapInputData"\. Did you mean "defineBelow"\?/);
  });

  it('wants a value for every required field of the schema when fields are defined below, of a type that converts', () => {
    expect(check({ mappingMode: 'defineBelow', value: { age: 'old' }, schema })).toEqual([
      'missing_required:parameters.columns.value.email',
      'wrong_type:parameters.columns.value.age',
    ]);
    expect(check({ mappingMode: 'defineBelow', value: { email: '={{ $json.email }}', age: '41' }, schema })).toEqual([]);
  });

  it('checks nothing written when n8n maps the input itself', () => {
    expect(check({ mappingMode: 'autoMapInputData', value: null, schema })).toEqual([]);
  });

  it('refuses a value that is no object of fields', () => {
    expect(check({ mappingMode: 'defineBelow', value: ['a'], schema })).toEqual(['invalid_shape:parameters.columns.value']);
  });

  it('reads a field id named like an Object.prototype property as a field', () => {
    const protoSchema = [{ id: 'constructor', displayName: 'c', required: true, defaultMatch: false, display: true, type: 'string' }];
    expect(check({ mappingMode: 'defineBelow', value: {}, schema: protoSchema })).toEqual(['missing_required:parameters.columns.value.constructor']);
  });
});
