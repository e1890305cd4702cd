import type { NodeSpec } from '../nodeSpec';
import { analyze } from './tokenize';

/** How many of a node's most used words it is indexed by. */
const MOST_USED = 40;
/** A word used by more workflows counts more, up to this many times (log₂ of its workflows). */
const MOST_REPEATS = 3;

/**
 * The words builders of real workflows use for a node, from the names they give its instances
 * ("Generate UUID" on a Crypto node, "Take top 10" on a Limit): what a node is for, in its users'
 * words, which its own description often does not say. Each of `names` maps a name to how many
 * workflows use it (scripts/catalog/usage): the node's own, and its tool variant's (an agent's tool
 * does what the node does). Names that are just the node's default name say nothing new and are left
 * out; the words are ordered by how many workflows use them and the most used kept.
 */
export function builderWords(spec: NodeSpec, ...names: (Record<string, number> | undefined)[]): string[] {
  const defaults = defaultNames(spec);
  // Per index term, how many workflows use it and one word that spells it.
  const terms = new Map<string, { word: string; workflows: number }>();
  for (const [name, count] of names.flatMap((n) => Object.entries(n ?? {}))) {
    if (defaults.has(plain(name))) continue;
    for (const { word, term } of new Map(analyze(name).map((t) => [t.term, t])).values()) {
      const seen = terms.get(term) ?? { word, workflows: 0 };
      seen.workflows += count;
      terms.set(term, seen);
    }
  }
  return [...terms]
    .sort((a, b) => b[1].workflows - a[1].workflows || (a[0] < b[0] ? -1 : 1))
    .slice(0, MOST_USED)
    .flatMap(([, { word, workflows }]) => Array<string>(Math.min(MOST_REPEATS, 1 + Math.floor(Math.log2(workflows)))).fill(word));
}

/** The names n8n gives a new node of this type: its display name, with or without what is in brackets, and its type name. */
function defaultNames(spec: NodeSpec): Set<string> {
  const local = spec.subtype.slice(spec.subtype.lastIndexOf('.') + 1);
  const bracketed = /^(.*?)\s*\((.*)\)\s*$/.exec(spec.display_name);
  return new Set([spec.display_name, local, ...(bracketed ? [bracketed[1]!, bracketed[2]!] : [])].map(plain));
}

const plain = (name: string) => name.toLowerCase().replace(/[^a-z0-9]+/g, ' ').trim();
