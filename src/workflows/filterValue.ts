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

export function checkFilterValue(value: Values, path: string, nodeName: string, out: Findings, types: StructuredTypes = N8N_STRUCTURED_TYPES): void {
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

const shown = (value: unknown): string => clip(JSON.stringify(value) ?? String(value), 60);
