/**
 * What n8n's structured parameter values may hold, as read out of n8n's packages at build time
 * (scripts/catalog/n8n/structuredTypes.ts writes n8nStructuredTypes.ts): the validator checks values
 * against it, and get_node_details shows it once per answer.
 */

export interface FilterOperation {
  operation: string;
  /** The runner reads the condition's rightValue for it (false: `exists`, `empty`, `true`…, single-value). */
  right_value: boolean;
}

export interface StructuredTypes {
  filter: {
    /** Every operator type (`operator.type`) with the operations (`operator.operation`) n8n runs for it. */
    operators: { type: string; operations: FilterOperation[] }[];
    combinators: string[];
    /** `options`' fields: a type name, or the values allowed. */
    options: Record<string, string | (string | number)[]>;
  };
  /** A resource mapper's `mappingMode`s. */
  mapping_modes: string[];
  /** The `type` an assignment may name. */
  assignment_types: string[];
}

/** The operations of one operator type, or undefined for a type n8n does not have. */
export function filterOperations(types: StructuredTypes, type: string): FilterOperation[] | undefined {
  return types.filter.operators.find((o) => o.type === type)?.operations;
}
