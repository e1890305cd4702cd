/**
 * n8n's field types (validateFieldType in n8n-workflow) as the validator can judge them before run
 * time: whether a written value converts to a type.
 */
import { describe } from './findings';
import { isExpression } from './values';

/** Why n8n's validateFieldType cannot convert a written (not computed) value to `type`, if it cannot. */
export function conversionProblem(type: string, value: unknown): string | undefined {
  if (value === null || value === undefined || isExpression(value)) return undefined;
  const text = typeof value === 'string' ? value : undefined;
  // Number() of an object may run its own toString: a list or object is never a number or a boolean.
  const number = typeof value === 'object' ? NaN : Number(value);
  switch (type) {
    case 'number':
      return Number.isNaN(number) ? `${describe(value)} is no number` : undefined;
    case 'boolean':
      if (typeof value === 'boolean' || (text !== undefined && ['true', 'false'].includes(text.toLowerCase()))) return undefined;
      return text?.trim() !== '' && (number === 0 || number === 1) ? undefined : `${describe(value)} is not true or false`;
    case 'array':
      return Array.isArray(value) || parsesAs(text, Array.isArray) ? undefined : `${describe(value)} is no list (write JSON: ["a", "b"])`;
    default:
      return undefined;
  }
}

/** Whether the text is JSON (or JSON with single quotes, which n8n also reads) of the kind `is` accepts. */
function parsesAs(text: string | undefined, is: (v: unknown) => boolean): boolean {
  if (text === undefined) return false;
  for (const candidate of [text, text.replace(/'/g, '"')]) {
    try {
      return is(JSON.parse(candidate));
    } catch {
      // The second spelling, then no.
    }
  }
  return false;
}
