import type { NodeSpec, OptionValue, Parameter, Port } from './nodeSpec';
import { isStructured, parameterShape, structuredTables } from './parameterShape';

export type Detail = 'essentials' | 'full';

export interface SerializeOptions {
  includeExamples: boolean;
  includeSchemas: boolean;
  detail: Detail;
}

/** Below this size (characters of JSON, ~1,500 tokens) a spec is returned in full even for essentials. */
const SMALL_SPEC = 6000;
/** Parameters whose choices shape everything else: always in the essentials. */
const STRUCTURAL = /^(resource|operation|mode)$/;

/** A parameter as the essentials list it: enough to configure it, nothing more. */
interface EssentialParameter {
  name: string;
  type: Parameter['type'];
  required: boolean;
  default_value?: unknown;
  enum_values?: OptionValue[] | null;
  /** When it applies, e.g. "resource=message, operation=post|update"; several when it recurs. */
  when?: string | string[];
  /** A structured parameter's value as it is written (src/catalog/parameterShape.ts). */
  shape?: unknown;
}

/**
 * A spec as get_node_details returns it (seed 002's serialization). Small specs come whole. For large
 * ones (n8n nodes with big property trees) `essentials` keeps the resource/operation choices, every
 * required parameter (with when it applies) and the unconditional ones, compactly, and counts the
 * rest; `full` has everything, n8n's action labels included.
 */
export function serializeSpec(spec: NodeSpec, options: SerializeOptions): Record<string, unknown> {
  // dynamic_ports names the functions the validator computes ports with: nothing an agent can use.
  const { examples, parameters, input_ports, output_ports, dynamic_ports: _, ...rest } = spec;
  const tables = structuredTables(parameters);
  const full: Record<string, unknown> = {
    ...rest,
    detail: 'full',
    parameters: parameters.map(withTemplate),
    input_ports: input_ports.map((p) => port(p, options.includeSchemas)),
    output_ports: output_ports.map((p) => port(p, options.includeSchemas)),
    ...(Object.keys(tables).length ? { structured_types: tables } : {}),
  };
  if (options.includeExamples && examples.length > 0) full.examples = examples;
  // The tables are reference for the shapes, not part of the node: they do not decide whether it is small.
  if (options.detail === 'full' || JSON.stringify({ ...full, structured_types: undefined }).length <= SMALL_SPEC) return full;

  const essential = withShapes(essentialParameters(parameters), parameters);
  // The action labels are what search reads; the essentials' resource/operation choices say the same.
  const { actions: _actions, ...compact } = full;
  return {
    ...compact,
    detail: 'essentials',
    parameters: essential,
    optional_parameters_not_shown: parameters.length - essential.reduce((n, p) => n + (Array.isArray(p.when) ? p.when.length : 1), 0),
    input_ports: input_ports.map(compactPort),
    output_ports: output_ports.map(compactPort),
  };
}

/** In full answers, the shape of the parameters whose description has no tree of sub-fields to read it from. */
function withTemplate(p: Parameter): Parameter | (Parameter & { shape: unknown }) {
  return isStructured(p) && p.type !== 'collection' && p.type !== 'fixed_collection' ? { ...p, shape: parameterShape(p) } : p;
}

/** Essentials list structured parameters without their sub-fields: each gets its shape. */
function withShapes(essential: EssentialParameter[], parameters: Parameter[]): EssentialParameter[] {
  return essential.map((e) => {
    const source = parameters.find((p) => p.name === e.name && p.type === e.type && isStructured(p));
    return source ? { ...e, shape: parameterShape(source) } : e;
  });
}

function port(p: Port, includeSchemas: boolean): Port {
  return includeSchemas ? p : { ...p, data_format: null, validation_schema: null };
}

const compactPort = ({ name, type, required, max_connections }: Port) => ({ name, type, required, max_connections });

function essentialParameters(parameters: Parameter[]): EssentialParameter[] {
  const merged = new Map<string, EssentialParameter>();
  for (const p of parameters) {
    if (p.type === 'notice' || p.type === 'hidden' || !(p.required || !p.display_options || STRUCTURAL.test(p.name))) continue;
    const when = condition(p);
    const key = JSON.stringify([p.name, p.type, p.required, p.enum_values ?? null]);
    const seen = merged.get(key);
    if (seen) {
      // The same parameter recurs under other conditions (one per operation, say): list the conditions.
      if (when) seen.when = [...[seen.when ?? []].flat(), when];
      continue;
    }
    const e: EssentialParameter = { name: p.name, type: p.type, required: p.required };
    if (p.default_value !== undefined && p.default_value !== null && typeof p.default_value !== 'object') e.default_value = p.default_value;
    if (p.enum_values?.length) e.enum_values = p.enum_values;
    else if (p.options?.length) e.enum_values = p.options.map((o) => o.name);
    if (when) e.when = when;
    merged.set(key, e);
  }
  return [...merged.values()];
}

function condition(p: Parameter): string | undefined {
  const show = p.display_options?.show;
  if (!show) return undefined;
  return Object.entries(show)
    .map(([name, values]) => `${name}=${values.map((v) => (typeof v === 'object' ? JSON.stringify(v) : String(v))).join('|')}`)
    .join(', ');
}
