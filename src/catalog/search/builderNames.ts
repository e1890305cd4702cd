import type { NodeSpec } from '../nodeSpec';
import { typeName } from './names';
import { tokenize } from './tokenize';

/** How many of a node's most used terms it is indexed by. */
const MOST_USED = 40;
/** A term used more counts more: 1 + ⌊log₂ uses⌋ times, at most this many. */
const MOST_REPEATS = 3;

/**
 * The index terms of the names builders of real workflows give a node ("Generate UUID" on a Crypto
 * node, "Take top 10" on a Limit): what a node is for, in its users' words, which its own description
 * often does not say. Each of `names` maps a name to how many workflows use it (scripts/catalog/usage):
 * the node's own, and its tool variant's (an agent's tool does what the node does). A name that is the
 * node's display or type name adds nothing its title lacks and is left out; older default names
 * ("Window Buffer Memory", "When clicking 'Test workflow'") stay, as what users knew the node by.
 * Terms are ordered by their uses (a term counts once per name, each name by its workflows) and the
 * most used kept.
 */
export function builderTerms(spec: NodeSpec, ...names: (Record<string, number> | undefined)[]): string[] {
  return [...termUses(spec, ...names)]
    .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))
    .slice(0, MOST_USED)
    .flatMap(([term, count]) => Array<string>(Math.min(MOST_REPEATS, 1 + Math.floor(Math.log2(count)))).fill(term));
}

/**
 * How many workflows use each term of the names builders give a node, its display and type names left
 * out: a term counts once per name, each name by its workflows.
 */
export function termUses(spec: NodeSpec, ...names: (Record<string, number> | undefined)[]): Map<string, number> {
  const defaults = defaultNames(spec);
  const uses = new Map<string, number>();
  for (const [name, count] of names.flatMap((n) => Object.entries(n ?? {}))) {
    if (defaults.has(plain(name))) continue;
    for (const term of new Set(tokenize(name))) uses.set(term, (uses.get(term) ?? 0) + count);
  }
  return uses;
}

/** The names a node has in n8n's panel: its display name, with or without what is in brackets, and its type name. */
function defaultNames(spec: NodeSpec): Set<string> {
  const bracketed = /^(.*?)\s*\((.*)\)\s*$/.exec(spec.display_name);
  return new Set([spec.display_name, typeName(spec.subtype), ...(bracketed ? [bracketed[1]!, bracketed[2]!] : [])].map(plain));
}

const plain = (name: string) =>
  name
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, ' ')
    .trim();
