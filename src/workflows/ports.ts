/**
 * A node's ports for its parameters: the spec's static ports, or what n8n's own port function gives
 * for these parameters (src/catalog/ports), plus the error output that `onError:
 * continueErrorOutput` adds. Null where it cannot be told before run time (the function reads an
 * expression, or this build lacks the function): the rules that need ports then say nothing.
 */
import type { NodeSpec, Port } from '../catalog/nodeSpec';
import { N8N_PORT_FUNCTIONS } from '../catalog/ports/n8nPortFunctions';
import { own } from '../lib/ownKeys';
import type { PortFunction } from '../catalog/ports/portFunction';
import { isExpression, isPlainObject, nodeValues, type Values } from './values';

export interface NodePort {
  type: string;
  name: string;
  required: boolean;
  maxConnections: number | null;
  excludedNodes?: string[];
}

export interface NodePorts {
  inputs: NodePort[] | null;
  outputs: NodePort[] | null;
}

/** Port functions build arrays from counts in the parameters: larger counts are not computed. */
const LARGEST_COUNT = 1000;

export function nodePorts(spec: NodeSpec, values: Values, typeVersion: number, onError: unknown): NodePorts {
  const side = (fixed: Port[], id: string | undefined): NodePort[] | null =>
    id === undefined ? fixed.map(fromSpec) : computed(own(N8N_PORT_FUNCTIONS, id), values, typeVersion);
  const inputs = side(spec.input_ports, spec.dynamic_ports?.inputs);
  let outputs = side(spec.output_ports, spec.dynamic_ports?.outputs);
  if (outputs && onError === 'continueErrorOutput') {
    outputs = [...outputs, { type: 'main', name: 'error', required: false, maxConnections: null }];
  }
  return { inputs, outputs };
}

/** The ports of a node as a workflow writes it: its parameters, with n8n's defaults for the rest. */
export function portsOfNode(
  spec: NodeSpec,
  node: { type: string; typeVersion: number; parameters?: unknown; onError?: unknown },
  values = nodeValues(spec.parameters, node),
): NodePorts {
  return nodePorts(spec, values, node.typeVersion, node.onError);
}

const fromSpec = (p: Port): NodePort => ({
  type: p.type,
  name: p.name,
  required: p.required,
  maxConnections: p.max_connections,
  ...(p.excluded_nodes ? { excludedNodes: p.excluded_nodes } : {}),
});

function computed(fn: PortFunction | undefined, values: Values, typeVersion: number): NodePort[] | null {
  if (!fn || !decidable(fn, values)) return null;
  const reads = watchedReads(structuredClone(values));
  let result: unknown;
  try {
    result = fn(reads.values, typeVersion);
  } catch {
    return null;
  }
  if (reads.expression || !Array.isArray(result)) return null;
  return result.map((entry) => {
    const o = (typeof entry === 'string' ? { type: entry } : entry) as {
      type: string;
      displayName?: string;
      required?: boolean;
      maxConnections?: number;
      filter?: { excludedNodes?: string[] };
    };
    return {
      type: o.type,
      name: o.displayName || o.type,
      required: o.required ?? false,
      maxConnections: o.maxConnections ?? null,
      ...(o.filter?.excludedNodes?.length ? { excludedNodes: o.filter.excludedNodes } : {}),
    };
  });
}

/**
 * The values as a port function sees them, noting whether it read an expression: only what it reads
 * decides (a Switch's outputs depend on how many rules it has, not on the expressions inside them).
 */
function watchedReads(values: Values): { values: Values; expression: boolean } {
  const state = { values, expression: false };
  const watch = <T extends object>(target: T): T =>
    new Proxy(target, {
      get(object, key, receiver) {
        const value: unknown = Reflect.get(object, key, receiver);
        if (typeof key !== 'string' || !Object.hasOwn(object, key)) return value;
        if (isExpression(value)) state.expression = true;
        return typeof value === 'object' && value !== null ? watch(value) : value;
      },
    });
  state.values = watch(values);
  return state;
}

const wordsOf = new WeakMap<PortFunction, Set<string>>();

/** The words of a port function's code, once per function: the parameter names it may read. */
function words(fn: PortFunction): Set<string> {
  let found = wordsOf.get(fn);
  if (!found) wordsOf.set(fn, (found = new Set(fn.toString().match(/[\w$]+/g))));
  return found;
}

/**
 * False when a parameter the function may read holds a count too large to build. A set lookup per
 * parameter: a node may have many, and its names are the caller's.
 */
function decidable(fn: PortFunction, values: Values): boolean {
  const read = words(fn);
  const tooLarge = (v: unknown) => (typeof v === 'number' && Math.abs(v) > LARGEST_COUNT) || (Array.isArray(v) && v.length > LARGEST_COUNT);
  for (const [name, value] of Object.entries(values)) {
    if (!read.has(name)) continue;
    if (holds(value, tooLarge)) return false;
  }
  return true;
}

function holds(value: unknown, test: (v: unknown) => boolean, depth = 0): boolean {
  if (test(value)) return true;
  if (depth > 20) return false;
  if (Array.isArray(value)) return value.some((v) => holds(v, test, depth + 1));
  if (isPlainObject(value)) return Object.values(value).some((v) => holds(v, test, depth + 1));
  return false;
}
