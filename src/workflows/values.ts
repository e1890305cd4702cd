/**
 * A node's parameter values as n8n sees them: what the workflow JSON sets, and for the rest the
 * default of the parameter that applies (n8n stores only values that differ from the default).
 */
import type { Parameter } from '../catalog/nodeSpec';
import { dict, own, type Dict } from '../lib/ownKeys';
import { visibility, type DisplayContext } from './display';

export type Values = Record<string, unknown>;

/** What display conditions read of the node besides its values. */
export type NodeIdentity = Pick<DisplayContext, 'typeVersion' | 'nodeType'>;

export const isExpression = (v: unknown): v is string => typeof v === 'string' && v.startsWith('=');

export const isPlainObject = (v: unknown): v is Values => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * The values of `parameters` as n8n sees them: those `given` sets, and the defaults of the ones that
 * apply. n8n declares deciding parameters first (resource, then operation, then their fields), so
 * defaults are filled in order, each one visible to the conditions after it; passes repeat while a
 * default still changes what applies. Keys `given` has that are no parameter here are left out (no
 * condition or port function reads them), so the cost is the description's, whatever the caller
 * sends. A Dict: a parameter named "constructor" is a key like any other, and none is inherited.
 */
export function withDefaults(parameters: Parameter[], given: Values, node: NodeIdentity, root?: Values): Dict<unknown> {
  const values = givenOf(parameters, given);
  const ctx: DisplayContext = { ...node, values, root: root ?? values };
  for (let pass = 0, changed = true; changed && pass < 4; pass++) {
    changed = false;
    for (const p of parameters) {
      if (p.default_value === undefined || values[p.name] !== undefined) continue;
      if (visibility(p.display_options, ctx) === 'hidden') continue;
      values[p.name] = p.default_value;
      changed = true;
    }
  }
  return values;
}

/** A node's values (withDefaults of its parameters); none when its parameters are not an object. */
export function nodeValues(parameters: Parameter[], node: { type: string; typeVersion: number; parameters?: unknown }): Dict<unknown> {
  return isPlainObject(node.parameters) ? withDefaults(parameters, node.parameters, { typeVersion: node.typeVersion, nodeType: node.type }) : dict();
}

/** What `given` sets of `parameters`, as a Dict. */
export function givenOf(parameters: Parameter[], given: Values): Dict<unknown> {
  const values = dict<unknown>();
  for (const p of parameters) if (Object.hasOwn(given, p.name)) values[p.name] = own(given, p.name);
  return values;
}

/** Types whose empty value n8n reports as a missing required parameter (n8n-workflow's addToIssuesIfMissing). */
export function isMissing(p: Parameter, value: unknown): boolean {
  switch (p.type) {
    case 'string':
    case 'code':
    case 'url':
    case 'datetime':
    case 'enum':
      return value === '' || value === undefined;
    case 'multi_enum':
      return Array.isArray(value) && value.length === 0;
    case 'resource_locator':
      if (isPlainObject(value)) return typeof value.value === 'number' ? false : !value.value;
      return !value;
    default:
      return false;
  }
}

/**
 * Whether a workflow must set the parameter: n8n marks it required and its default leaves it missing.
 * A usable default is what n8n runs with when the workflow leaves the parameter out, so a required
 * boolean, a number or a choice with a default asks nothing of the caller.
 */
export const mustBeSet = (p: Parameter): boolean => p.required && isMissing(p, p.default_value);
