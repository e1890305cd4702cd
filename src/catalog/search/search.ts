import type { SearchIndex } from './buildIndex';
import { stem, tokenize } from './tokenize';

export interface SearchHit {
  node_type: string;
  subtype: string;
  display_name: string;
  description: string;
  relevance_score: number;
}

/** Query words that ask for something that starts a workflow. */
const TRIGGER_INTENT = new Set(['trigger', 'when', 'whenever', 'new', 'creat', 'updat', 'receiv', 'incom', 'listen', 'watch', 'start'].map(stem));
/** How much a typo-corrected or prefix-completed term counts against an exact one. */
const FUZZY = 0.7;
const PREFIX = 0.6;
const MAX_EXPANSIONS = 12;

/** Candidate index terms for one query term, with how much each counts. */
function expand(index: SearchIndex, names: Set<string>, byLength: Map<number, string[]>, term: string): [string, number][] {
  const found: [string, number][] = [];
  if (index.postings[term]) found.push([term, 1]);
  if (term.length >= 3) {
    for (const name of index.names) {
      if (found.length >= MAX_EXPANSIONS) break;
      if (name !== term && name.startsWith(term)) found.push([name, PREFIX]);
    }
  }
  const inNames = found.some(([t, w]) => w === 1 && names.has(t));
  if (!inNames && term.length >= 4) {
    const maxDistance = term.length >= 8 ? 2 : 1;
    for (let len = term.length - maxDistance; len <= term.length + maxDistance; len++) {
      for (const name of byLength.get(len) ?? []) {
        if (found.length >= MAX_EXPANSIONS) break;
        if (name !== term && withinDistance(term, name, maxDistance)) found.push([name, FUZZY]);
      }
    }
  }
  return found;
}

/** Damerau-Levenshtein (adjacent transpositions count once), bounded: true when ≤ max. */
export function withinDistance(a: string, b: string, max: number): boolean {
  if (Math.abs(a.length - b.length) > max) return false;
  let prev2: number[] = [];
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    let best = i;
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let v = Math.min(prev[j]! + 1, row[j - 1]! + 1, prev[j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) v = Math.min(v, prev2[j - 2]! + 1);
      row.push(v);
      best = Math.min(best, v);
    }
    if (best > max) return false;
    prev2 = prev;
    prev = row;
  }
  return prev[b.length]! <= max;
}

/** A loaded index, ready for queries; build once per isolate. */
export class Searcher {
  private readonly byLength = new Map<number, string[]>();
  private readonly names: Set<string>;

  constructor(readonly index: SearchIndex) {
    this.names = new Set(index.names);
    for (const name of index.names) {
      const bucket = this.byLength.get(name.length) ?? [];
      bucket.push(name);
      this.byLength.set(name.length, bucket);
    }
  }

  /** The best `maxResults` nodes for `query`, of one node type when `nodeType` is given. */
  search(query: string, maxResults: number, nodeType?: string): SearchHit[] {
    const terms = [...new Set(tokenize(query))];
    if (terms.length === 0) return [];
    const scores = new Map<number, number>();
    // How much of the query a node covers, each word weighted by how rare (telling) it is.
    const covered = new Map<number, number>();
    let totalWeight = 0;
    const n = this.index.docs.length;
    for (const term of terms) {
      // Per query term, a node scores its best-matching index term, so expansions never add up.
      const best = new Map<number, number>();
      for (const [candidate, weight] of expand(this.index, this.names, this.byLength, term)) {
        const list = this.index.postings[candidate]!;
        for (let i = 0; i < list.length; i += 2) {
          const doc = list[i]!;
          const s = list[i + 1]! * weight;
          if (s > (best.get(doc) ?? 0)) best.set(doc, s);
        }
      }
      const df = best.size;
      const weight = Math.log(1 + (n - df + 0.5) / (df + 0.5)) || 0.1;
      totalWeight += weight;
      for (const [doc, s] of best) {
        scores.set(doc, (scores.get(doc) ?? 0) + s);
        covered.set(doc, (covered.get(doc) ?? 0) + weight);
      }
    }
    const wantsTrigger = terms.some((t) => TRIGGER_INTENT.has(t));
    const candidates = nodeType === undefined ? [...scores] : [...scores].filter(([doc]) => this.index.docs[doc]![0] === nodeType);
    const ranked = candidates.map(([doc, score]) => {
      // Nodes that match more of the query's words rank above nodes that match one word strongly.
      let s = score * Math.pow(covered.get(doc)! / totalWeight, 1.5);
      if (this.index.docs[doc]![4] === 1) s *= wantsTrigger ? 1.25 : 0.85;
      return [doc, s] as const;
    });
    ranked.sort((a, b) => b[1] - a[1] || a[0] - b[0]);
    return ranked.slice(0, maxResults).map(([doc, score]) => this.hit(doc, Math.round(score) / 100));
  }

  /** Every node of one type, by name: browsing without a query (relevance_score 0). */
  ofType(nodeType: string): SearchHit[] {
    const docs = [...this.index.docs.keys()].filter((doc) => this.index.docs[doc]![0] === nodeType);
    return docs.map((doc) => this.hit(doc, 0)).sort((a, b) => a.display_name.localeCompare(b.display_name));
  }

  private hit(doc: number, relevance_score: number): SearchHit {
    const [node_type, subtype, display_name, description] = this.index.docs[doc]!;
    return { node_type, subtype, display_name, description, relevance_score };
  }
}
