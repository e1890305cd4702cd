/**
 * What is inside an assignment collection (Edit Fields' `assignments`): each assignment's name, and a
 * type n8n converts the value to (Set's validateEntry: with no type it fails on every item), with a
 * written value that type can take — a text that is no number, for a "number", stops the node unless
 * its "Ignore Type Conversion Errors" option is on.
 */
import { N8N_STRUCTURED_TYPES } from '../catalog/n8nStructuredTypes';
import type { StructuredTypes } from '../catalog/structuredTypes';
import { clip, describe, type Findings } from './findings';
import { conversionProblem } from './fieldTypes';
import { choiceList, didYouMean } from './nearestName';
import { isPlainObject, type Values } from './values';

/** `ignoreConversionErrors`: the node's option that makes n8n keep a value it cannot convert. */
export function checkAssignmentValue(
  value: Values,
  path: string,
  nodeName: string,
  out: Findings,
  ignoreConversionErrors: boolean,
  types: StructuredTypes = N8N_STRUCTURED_TYPES,
): void {
  if (!Array.isArray(value.assignments)) return;
  const typeNames = types.assignment_types;
  for (const [i, assignment] of value.assignments.entries()) {
    const at = `${path}.assignments[${i}]`;
    if (!isPlainObject(assignment)) {
      out.error(nodeName, 'invalid_shape', `${clip(at)} must be an assignment {"id", "name", "value", "type"}, not ${describe(assignment)}.`, at);
      continue;
    }
    const { name, type } = assignment;
    if (typeof name !== 'string' || name.trim() === '') {
      // A blank row the editor leaves runs (n8n sets a field named ""), so it is not an error.
      out.warning(
        nodeName,
        'assignment_without_name',
        `${clip(at)} has no "name", so n8n sets a field named "": write the field's name (a dotted path like "customer.email" sets a nested field) or remove the row.`,
        `${at}.name`,
      );
    }
    if (typeof type !== 'string' || !typeNames.some((t) => t.toLowerCase() === type.toLowerCase())) {
      const what = type === undefined ? 'has no "type"' : `has "type" ${clip(JSON.stringify(type) ?? typeof type, 40)}`;
      out.error(
        nodeName,
        'invalid_assignment_type',
        `${clip(at)} ${what}; n8n takes ${choiceList(typeNames)}.${typeof type === 'string' ? didYouMean(type, typeNames) : ''}`,
        `${at}.type`,
      );
      continue;
    }
    const problem = ignoreConversionErrors ? undefined : conversionProblem(type.toLowerCase(), assignment.value);
    if (problem)
      out.error(
        nodeName,
        'wrong_type',
        `${clip(at)}.value ${problem}: n8n stops on it. Change "type", write a value of that type, or turn on the option "ignoreConversionErrors".`,
        `${at}.value`,
      );
  }
}
