/**
 * n8n's `connections` object (`{source: {type: [[{node, type, index}], …]}}`) as autofix and the edit
 * operations change it. Its keys are node names and connection types, which the caller chooses: both
 * levels are Dicts (src/lib/ownKeys.ts), so a node named "__proto__" or "constructor" is a key like
 * any other, and the JSON written out keeps it as one. Parts of the wrong shape are kept as they were,
 * never read as lists: validation reports them.
 */
import { dict, toDict, type Dict } from '../lib/ownKeys';
import { isPlainObject, type Values } from './values';

/** Source node name → connection type → outputs (each a list of targets, or null). */
export type ConnectionMap = Dict<unknown>;

/** A connection's far end as n8n writes it: `{node, type, index}`. */
export type Target = Values & { node: string };

export const isTarget = (value: unknown): value is Target => isPlainObject(value) && typeof value.node === 'string';

/** A source's connections by type, where they are an object (a Dict once in a ConnectionMap). */
export const isDict = (value: unknown): value is Dict<unknown> => isPlainObject(value) && Object.getPrototypeOf(value) === null;

/** The workflow's `connections` with both levels made Dicts; anything that is not an object is none. */
export function connectionMap(raw: unknown): ConnectionMap {
  if (!isPlainObject(raw)) return dict();
  return dict(Object.entries(raw).map(([source, byType]) => [source, isPlainObject(byType) ? toDict(byType) : byType]));
}

/** One output's list of targets: `outputs[output]` (replace it there to change it). */
export interface TargetList {
  source: string;
  type: string;
  outputs: unknown[];
  output: number;
}

/** Every output of every source whose targets are a list, in the object's order. */
export function* targetLists(map: ConnectionMap): Generator<TargetList> {
  for (const [source, byType] of Object.entries(map)) {
    if (!isDict(byType)) continue;
    for (const [type, outputs] of Object.entries(byType)) {
      if (!Array.isArray(outputs)) continue;
      for (let output = 0; output < outputs.length; output++) {
        if (Array.isArray(outputs[output])) yield { source, type, outputs, output };
      }
    }
  }
}

/** The list of targets at `list.outputs[list.output]` as it is now. */
export const targetsOf = (list: TargetList): unknown[] => list.outputs[list.output] as unknown[];
