import { describe, expect, it } from 'vitest';
import { structuredTypes, type StructuredTypeSources } from '../../scripts/catalog/n8n/structuredTypes';

/** Sources shaped like n8n-workflow's and the Set node's compiled code, cut down to what is read. */
const schemas = `
export const FieldTypeSchema = z.enum([
    'boolean',
    'number',
]);
export const FilterOptionsValueSchema = z.object({
    caseSensitive: z.boolean(),
    typeValidation: z.enum(['strict', 'loose']),
    version: z.union([z.literal(1), z.literal(2)]),
});
export const FilterOperatorTypeSchema = z.enum([
    'string',
    'boolean',
    'any',
]);
export const FilterTypeCombinatorSchema = z.enum(['and', 'or']);
`;
const filterCode = (extraType = '') => `
function evaluateExistsOperation(condition, exists) {
    if (condition.operator.operation === 'exists') {
        return exists;
    }
    return undefined;
}
function executeFilterConditionWithRegexTest(condition, filterOptions, metadata, regexTest) {
    const { leftValue, rightValue } = prepared;
    switch (operator.type) {
        case 'string': {
            const { left, right } = prepareStringFilterValues(condition, prepared);
            switch (condition.operator.operation) {
                case 'empty':
                    return left.length === 0;
                case 'regex': {
                    const { source } = parseRegexLiteral(right);
                    return regexTest(source, left);
                }
            }
            break;
        }
        case 'boolean': {
            if (condition.operator.operation === 'notEmpty') {
                return exists;
            }
            switch (condition.operator.operation) {
                case 'true':
                    return left;
                case 'equals':
                    return left === rightValue;
            }
            break;
        }${extraType}
    }
    return false;
}
`;
const sources = (code = filterCode()): StructuredTypeSources => ({
  filterCode: code,
  schemas,
  nodeHelpers: `if (value.mappingMode === 'autoMapInputData') { return {}; }`,
  setHelpers: `if (assignment.type === 'binary') { binaryValues.push(assignment); }`,
  mapperDefaults: ['defineBelow', 'defineBelow'],
});

describe('structured types from n8n’s code', () => {
  it('reads each operator type’s operations, with whether the runner reads the right value, and exists for every type', () => {
    const { filter } = structuredTypes(sources());
    expect(filter.operators).toEqual([
      {
        type: 'string',
        operations: [
          { operation: 'exists', right_value: false },
          { operation: 'empty', right_value: false },
          { operation: 'regex', right_value: true },
        ],
      },
      {
        type: 'boolean',
        operations: [
          { operation: 'exists', right_value: false },
          { operation: 'notEmpty', right_value: false },
          { operation: 'true', right_value: false },
          { operation: 'equals', right_value: true },
        ],
      },
      { type: 'any', operations: [{ operation: 'exists', right_value: false }] },
    ]);
    expect(filter.combinators).toEqual(['and', 'or']);
    expect(filter.options).toEqual({ caseSensitive: 'boolean', typeValidation: ['strict', 'loose'], version: [1, 2] });
  });

  it('reads the assignment types and the mapping modes, once each', () => {
    const types = structuredTypes(sources());
    expect(types.assignment_types).toEqual(['boolean', 'number', 'binary']);
    expect(types.mapping_modes).toEqual(['defineBelow', 'autoMapInputData']);
  });

  it('fails the build when the runner has an operator type the schema does not list', () => {
    const extra = `
        case 'object': {
            switch (condition.operator.operation) {
                case 'empty':
                    return !left;
            }
            break;
        }`;
    expect(() => structuredTypes(sources(filterCode(extra)))).toThrow(/operator type "object"/);
  });
});
