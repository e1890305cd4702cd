/**
 * What is inside a filter value (IF, Filter and Switch conditions): each condition's operator, a type
 * and operation n8n runs (n8n only logs an unknown one and lets the condition fail), the right value an
 * operation compares with, and the combinator (anything but "and"/"or" makes every item fail).
 */
import { N8N_STRUCTURED_TYPES } from '../catalog/n8nStructuredTypes';
import { filterOperations, type StructuredTypes } from '../catalog/structuredTypes';
import { clip, describe, type Findings } from './findings';
import { choiceList, didYouMean } from './nearestName';
import { isExpression, isPlainObject, type Values } from './values';

export function checkFilterValue(
  value: Values,
  path: string,
  nodeName: string,
  out: Findings,
  nodeConvertsTypes = false,
  types: StructuredTypes = N8N_STRUCTURED_TYPES,
): void {
  const strict = !nodeConvertsTypes && !(isPlainObject(value.options) && value.options.typeValidation === 'loose');
  const { combinators, operators } = types.filter;
  const { combinator } = value;
  if (combinator !== undefined && !isExpression(combinator) && !(typeof combinator === 'string' && combinators.includes(combinator))) {
    out.error(
      nodeName,
      'invalid_filter_combinator',
      `${clip(path)}.combinator is ${shown(combinator)}; n8n takes ${choiceList(combinators)}.${typeof combinator === 'string' ? didYouMean(combinator, combinators) : ''}`,
      `${path}.combinator`,
    );
  }
  if (!Array.isArray(value.conditions)) return;
  for (const [i, condition] of value.conditions.entries()) {
    const at = `${path}.conditions[${i}]`;
    if (!isPlainObject(condition)) {
      out.error(
        nodeName,
        'invalid_shape',
        `${clip(at)} must be a condition {"leftValue", "rightValue", "operator": {"type", "operation"}}, not ${describe(condition)}.`,
        at,
      );
      continue;
    }
    const { operator } = condition;
    if (!isPlainObject(operator) || typeof operator.type !== 'string' || typeof operator.operation !== 'string') {
      out.error(
        nodeName,
        'invalid_filter_operator',
        `${clip(at)}.operator must be {"type": ${choiceList(operators.map((o) => o.type))}, "operation": …}, not ${operator === undefined ? 'missing' : shown(operator)}.`,
        `${at}.operator`,
      );
      continue;
    }
    const { type, operation } = operator;
    const operations = filterOperations(types, type);
    if (!operations) {
      const typeNames = operators.map((o) => o.type);
      out.error(
        nodeName,
        'invalid_filter_operator',
        `${clip(at)}.operator.type ${shown(type)} is not an operator type; n8n has ${choiceList(typeNames)}.${didYouMean(type, typeNames)}`,
        `${at}.operator.type`,
      );
      continue;
    }
    const found = operations.find((o) => o.operation === operation);
    if (!found) {
      const names = operations.map((o) => o.operation);
      out.error(
        nodeName,
        'invalid_filter_operator',
        `${clip(at)}.operator.operation ${shown(operation)} is not an operation of type "${type}"; it has ${choiceList(names)}.${didYouMean(operation, names)}`,
        `${at}.operator.operation`,
      );
      continue;
    }
    if (!found.right_value && operator.singleValue !== true) checkSingleValue(condition, operator, at, strict, nodeName, out);
    if (found.right_value && !('rightValue' in condition)) {
      out.warning(
        nodeName,
        'filter_right_value_missing',
        `${clip(at)} has no "rightValue": "${type}" "${operation}" compares the left value with it (n8n compares with nothing).`,
        `${at}.rightValue`,
      );
    }
  }
}

/**
 * An operation that takes no right value ("is true", "exists", "is empty") needs `singleValue: true` on
 * its operator, as n8n's editor sets it: without it n8n still reads `rightValue` as the operator's type,
 * and with strict type validation an item fails when it is not one ("Wrong type: '' is a string but was
 * expecting a boolean"). Sure for a boolean (a string or number is never one); else a warning.
 */
function checkSingleValue(condition: Values, operator: Values, at: string, strict: boolean, nodeName: string, out: Findings): void {
  const { rightValue } = condition;
  const rightType = typeof operator.rightType === 'string' ? operator.rightType : operator.type;
  const what = `"${String(operator.type)}" "${String(operator.operation)}" takes no right value`;
  const fix = 'set "singleValue": true on its operator (autofix_workflow does)';
  if (strict && rightType === 'boolean' && (typeof rightValue === 'string' || typeof rightValue === 'number') && !isExpression(rightValue)) {
    out.error(
      nodeName,
      'filter_single_value_missing',
      `${clip(at)}: ${what}, but its operator has no "singleValue": true, so n8n checks "rightValue" ${shown(rightValue)} as a boolean and fails every item ("Wrong type"): ${fix}.`,
      `${at}.operator.singleValue`,
    );
  } else {
    out.warning(
      nodeName,
      'filter_single_value_missing',
      `${clip(at)}: ${what}; its operator has no "singleValue": true (n8n's editor sets it), so n8n still checks "rightValue" as a ${String(rightType)}: ${fix}.`,
      `${at}.operator.singleValue`,
    );
  }
}

const shown = (value: unknown): string => clip(JSON.stringify(value) ?? String(value), 60);
