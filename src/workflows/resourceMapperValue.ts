/**
 * What is inside a resource mapper value (`{mappingMode, value, schema, …}`), by n8n's own rule
 * (n8n-workflow's validateResourceMapperParameter, whose issues stop a run): a mapping mode n8n has;
 * when the fields are defined below, every field the schema marks required has a value, and a written
 * value converts to its field's type.
 */
import { N8N_STRUCTURED_TYPES } from '../catalog/n8nStructuredTypes';
import type { StructuredTypes } from '../catalog/structuredTypes';
import { own } from '../lib/ownKeys';
import { conversionProblem } from './fieldTypes';
import { clip, describe, quote, type Findings } from './findings';
import { choiceList, didYouMean } from './nearestName';
import { isExpression, isPlainObject, type Values } from './values';

/** The mode in which n8n maps input fields by name itself: nothing written is checked. */
const AUTO_MAP = 'autoMapInputData';

export function checkResourceMapperValue(value: Values, path: string, nodeName: string, out: Findings, types: StructuredTypes = N8N_STRUCTURED_TYPES): void {
  const modes = types.mapping_modes;
  const { mappingMode, schema } = value;
  if (mappingMode !== undefined && !isExpression(mappingMode) && !(typeof mappingMode === 'string' && modes.includes(mappingMode))) {
    out.error(
      nodeName,
      'invalid_option',
      `${clip(path)}.mappingMode is ${clip(JSON.stringify(mappingMode) ?? '', 40)}; n8n takes ${choiceList(modes)}.${typeof mappingMode === 'string' ? didYouMean(mappingMode, modes) : ''}`,
      `${path}.mappingMode`,
    );
    return;
  }
  if (value.value !== undefined && value.value !== null && !isPlainObject(value.value)) {
    out.error(nodeName, 'invalid_shape', `${clip(path)}.value must be an object of field id → value, not ${describe(value.value)}.`, `${path}.value`);
    return;
  }
  if (mappingMode === AUTO_MAP || !Array.isArray(schema)) return;
  const fields = isPlainObject(value.value) ? value.value : undefined;
  for (const field of schema) {
    if (!isPlainObject(field) || typeof field.id !== 'string' || field.removed === true) continue;
    const at = `${path}.value.${field.id}`;
    const given = fields ? own(fields, field.id) : undefined;
    if (field.required === true && given === undefined) {
      out.error(
        nodeName,
        'missing_required',
        `${clip(path)}.value has no ${quote(field.id)}, which the schema marks required (mappingMode "${String(mappingMode ?? 'defineBelow')}").`,
        at,
      );
      continue;
    }
    const problem = typeof field.type === 'string' ? conversionProblem(field.type.toLowerCase(), given) : undefined;
    if (problem) out.error(nodeName, 'wrong_type', `${clip(at)}: ${problem}, and the schema says ${field.type}.`, at);
  }
}
