/**
 * Which parameters of a node version builders actually set, from the counts of real workflows
 * (scripts/catalog/usage/parameter-usage.json): what get_node_details' essentials carry besides the
 * required ones.
 */

/** What the workflows using one node version (or one of its operations) set. */
export interface SetCounts {
  workflows: number;
  /**
   * Workflows that set each parameter (`name`), collection field (`name.field`) or fixed-collection
   * field (`name.group.field`), most first. What one workflow alone sets is left out when others use
   * the version too: noise, and the file stays small.
   */
  set: Record<string, number>;
  /**
   * Per choice that decides which other parameters apply (besides resource and operation: Crypto's
   * action, Merge's mode), how many of them run with each value, defaults included, most first.
   */
  choices?: Record<string, Record<string, number>>;
  /**
   * The configuration most of them write in the mode most of them run in (the values of those
   * choices), user data replaced by placeholders, the mode written out. A node with operations has
   * one per operation, none for the version.
   */
  example?: Record<string, unknown>;
}

export interface VersionUsage extends SetCounts {
  /** Per `resource:operation` (or `operation` alone), for nodes that have them. */
  operations?: Record<string, SetCounts>;
}

/** Per typeVersion (as text) of one node type. */
export type NodeUsage = Record<string, VersionUsage>;

/** The common parameters of a description, as its spec carries them. */
export interface CommonParameters {
  /** The typeVersion whose workflows were counted, and how many there were. */
  version: number;
  workflows: number;
  /** Parameter paths (`name`, `name.field`, `name.group.field`) set by at least COMMON_SHARE of them. */
  parameters: string[];
  /** The same per `resource:operation`, for operations with MIN_WORKFLOWS of their own. */
  operations?: Record<string, string[]>;
}

/** A parameter is common when at least this share of the workflows using the node version set it. */
export const COMMON_SHARE = 0.2;
/** Fewer workflows than this say too little: the nearest version with as many is counted instead. */
export const MIN_WORKFLOWS = 5;

/**
 * The rule: a description's common parameters are those set by at least COMMON_SHARE of the workflows
 * that use its newest typeVersion (per resource:operation too, where the node has them and the
 * operation has MIN_WORKFLOWS); with fewer than MIN_WORKFLOWS for that version, the nearest typeVersion
 * of the node that has them is counted (the newer one on a tie); with none that has them, the best
 * counted one. No workflow of the node at all: none.
 */
export function commonParameters(usage: NodeUsage | undefined, typeVersions: number[]): CommonParameters | undefined {
  const counted = Object.entries(usage ?? {}).map(([v, u]) => ({ version: Number(v), usage: u }));
  if (counted.length === 0) return undefined;
  const target = Math.max(...typeVersions);
  const distance = (v: number) => (typeVersions.includes(v) ? 0 : Math.abs(v - target));
  const enough = counted.filter((c) => c.usage.workflows >= MIN_WORKFLOWS);
  const [chosen] =
    enough.length > 0
      ? enough.sort((a, b) => distance(a.version) - distance(b.version) || b.version - a.version)
      : counted.sort((a, b) => b.usage.workflows - a.usage.workflows || b.version - a.version);
  const { version, usage: chosenUsage } = chosen!;
  const common: CommonParameters = { version, workflows: chosenUsage.workflows, parameters: setByShare(chosenUsage) };
  const operations = Object.entries(chosenUsage.operations ?? {}).filter(([, u]) => u.workflows >= MIN_WORKFLOWS);
  if (operations.length > 0) common.operations = Object.fromEntries(operations.map(([op, u]) => [op, setByShare(u)]));
  return common;
}

const setByShare = ({ workflows, set }: SetCounts): string[] =>
  Object.entries(set)
    .filter(([, n]) => n >= COMMON_SHARE * workflows)
    .map(([path]) => path);
