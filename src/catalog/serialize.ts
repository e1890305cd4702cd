import type { NodeSpec, Parameter, Port } from './nodeSpec';

export type Detail = 'essentials' | 'full';

export interface SerializeOptions {
  includeExamples: boolean;
  includeSchemas: boolean;
  detail: Detail;
}

/**
 * A spec as get_node_details returns it (seed 002's serialization). `essentials` keeps what an agent
 * needs to configure the node — every parameter's name, type, requirement, default and choices — and
 * drops what only bloats a response: notices, nested option trees beyond their names, long prose.
 */
export function serializeSpec(spec: NodeSpec, options: SerializeOptions): Record<string, unknown> {
  const { examples, parameters, input_ports, output_ports, ...rest } = spec;
  const result: Record<string, unknown> = {
    ...rest,
    detail: options.detail,
    parameters: options.detail === 'full' ? parameters : essentialParameters(parameters),
    input_ports: input_ports.map((p) => port(p, options.includeSchemas)),
    output_ports: output_ports.map((p) => port(p, options.includeSchemas)),
  };
  if (options.includeExamples && examples.length > 0) result.examples = examples;
  return result;
}

function port(p: Port, includeSchemas: boolean): Port {
  return includeSchemas ? p : { ...p, data_format: null, validation_schema: null };
}

const ESSENTIAL_DESCRIPTION = 160;

function essentialParameters(parameters: Parameter[]): Parameter[] {
  return parameters
    .filter((p) => p.type !== 'notice')
    .map((p) => {
      const { options, description, ...rest } = p;
      const short = description.length > ESSENTIAL_DESCRIPTION ? `${description.slice(0, ESSENTIAL_DESCRIPTION - 1)}…` : description;
      const essential: Parameter = { ...rest, description: short };
      // Children are named, not expanded: `detail: "full"` has them.
      if (options?.length) essential.enum_values = p.enum_values ?? options.map((o) => o.name);
      return essential;
    });
}
