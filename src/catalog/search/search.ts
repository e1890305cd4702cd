import { own } from '../../lib/ownKeys';
import { COMMUNITY, decodePostings, HIDDEN, TRIGGER, type SearchIndex } from './buildIndex';
import { withinDistance } from './editDistance';
import { SemanticSearcher, sortedIndexOf } from './semantic';
import { analyze, stem, type Token } from './tokenize';

export interface SearchHit {
  node_type: string;
  subtype: string;
  display_name: string;
  description: string;
  relevance_score: number;
}

/** Query words that ask for something that starts a workflow: "when…", "on new…", "every…" (as written). */
const TRIGGER_WORDS = new Set(
  'trigger triggers triggered when whenever new every receive receives incoming listen listens watch watches subscribe consume arrive arrives start starts fire fires'.split(
    ' ',
  ),
);
/**
 * Query words that ask for a start at certain times ("every day at 8am", "hourly"): a schedule, which
 * the query may not name.
 */
const TIME_WORDS = /^(every|daily|hourly|weekly|monthly|yearly|nightly|cron|\d{1,2}(am|pm))$/;
const SCHEDULE: Token = { word: 'schedule', term: stem('schedule') };
/** A query that opens on an event ("on chat message", "after a form is submitted"), whose first word is a stop word. */
const OPENS_ON_EVENT = /^\s*(on|upon|once|after)\s/i;
/** Query words that ask for an AI agent's tool rather than a workflow step. */
const TOOL_WORDS = new Set('tool tools agent agents'.split(' '));
/** Verbs in the past ("order created", "card added"): they name an event to start on. */
const EVENT_WORDS = new Set(
  'created updated added deleted removed changed submitted completed failed received posted uploaded published signed booked closed opened moved assigned pushed paid merged starred commented'.split(
    ' ',
  ),
);
/** Prefixes that undo a verb ("unzip", "decompress"): the verb alone still finds the node. */
const UNDO = /^(un|de)(?=[a-z]{3})/;
/** Words after which a query says what it does not want ("…without an external database"). */
const EXCLUDES = /\b(?:without|except|excluding|instead of|rather than)\b/i;
/** How much an expanded term counts against an exact one. */
const FUZZY = 0.7;
const PREFIX = 0.6;
const UNDONE = 0.8;
const MAX_EXPANSIONS = 12;
/** A node covers a query word fully when it matches it at least this well against the best match. */
const COVERS = 0.65;
/** A node whose whole name the query says ranks up to (1 + NAMED)× what its words alone give it. */
const NAMED = 1.5;
/** An alias of the node's own counts for this much of its name. */
const ALIAS_NAMED = 0.5;
/** Triggers when the query asks for one, and when it does not. */
const TRIGGER_WANTED = 1.6;
const TRIGGER_UNWANTED = 0.8;
/** An agent's tool when the query does not speak of tools or agents. */
const TOOL_UNWANTED = 0.75;
/**
 * A community node the query does not name: it needs installing first, so it counts as n8n's hidden
 * nodes do, and ranks below n8n's own nodes that match as much of the query (communityBelowCore).
 */
const COMMUNITY_UNNAMED = 0.5;
/** Nodes n8n hides from its panel: still found, below what replaced them. */
const HIDDEN_FACTOR = 0.5;
/** The most used node ranks up to (1 + USED)× its relevance. */
const USED = 0.35;
/** A node builders mean by a query word matches it this well (×100, as postings), times its share of the word's uses. */
const MEANT = 7;
/**
 * The semantic layer's part in the fused score (see search): the best lexical match counts 1, a node's
 * cosine with the query counts up to SEMANTIC, scaled between FLOOR and the query's best cosine.
 */
const SEMANTIC = 0.3;
const FLOOR = 0.1;
/** A node covering this share of the query's weight covers all of it (the share is a sum of floats). */
const COVERED = 0.999;
/** A node no query word matches joins on meaning alone when it is among the RESCUED closest and this close to the query's best cosine. */
const RESCUE = 0.5;
const RESCUED = 10;

/** A loaded index, ready for queries; build once per isolate. */
export class Searcher {
  /** Words and short forms of names as written, in the index's order (where cut-short names are looked for). */
  private readonly nameList: string[];
  /** The same, by length (where typos are looked for). */
  private readonly byLength = new Map<number, string[]>();
  /** How telling each name term is: few nodes share it. */
  private readonly nameWeight = new Map<string, number>();
  /** A trigger's own action node: n8n-nodes-base.slackTrigger → n8n-nodes-base.slack. */
  private readonly actionOf = new Map<number, number>();
  /** An agent tool's own step: "Code Tool" → "Code". */
  private readonly stepOf = new Map<number, number>();
  /** Postings decoded so far. */
  private readonly decoded = new Map<string, number[]>();
  private readonly semantic?: SemanticSearcher;

  constructor(readonly index: SearchIndex) {
    if (index.semantic) this.semantic = new SemanticSearcher(index.semantic);
    const docsWith = new Map<string, number>();
    for (const [terms] of index.names) for (const term of terms) docsWith.set(term, (docsWith.get(term) ?? 0) + 1);
    for (const [term, df] of docsWith) this.nameWeight.set(term, Math.log(1 + index.docs.length / df) ** 2);
    this.nameList = Object.keys(index.nameWords);
    for (const word of this.nameList) {
      const bucket = this.byLength.get(word.length);
      if (bucket) bucket.push(word);
      else this.byLength.set(word.length, [word]);
    }
    // n8n names a trigger after its node.
    const bySubtype = new Map(index.docs.map(([, subtype], doc) => [subtype, doc]));
    index.docs.forEach(([, subtype, , , flags], doc) => {
      const action = flags & TRIGGER && subtype.endsWith('Trigger') ? bySubtype.get(subtype.slice(0, -'Trigger'.length)) : undefined;
      if (action !== undefined) this.actionOf.set(doc, action);
    });
    // n8n names an agent tool that does what a step does after the step.
    const steps = new Map<string, number>();
    index.docs.forEach(([type, , name], doc) => type !== 'TOOL_NODE' && steps.set(name, doc));
    index.docs.forEach(([type, , name], doc) => {
      const step = type === 'TOOL_NODE' && name.endsWith(' Tool') ? steps.get(name.slice(0, -' Tool'.length)) : undefined;
      if (step !== undefined) this.stepOf.set(doc, step);
    });
  }

  /** The best `maxResults` nodes for `query`, of one node type when `nodeType` is given. */
  search(query: string, maxResults: number, nodeType?: string): SearchHit[] {
    const tokens = this.queryTokens(query);
    if (tokens.length === 0) return [];
    const scores = new Map<number, number>();
    // How much of the query a node covers, each word weighted by how rare (telling) it is.
    const covered = new Map<number, number>();
    // Index terms the query matched, with how well: what tells whether it names a node.
    const matched = new Map<string, number>();
    // Which of the query's words each node matches, a bit per word (the first 31).
    const saysWords = new Map<number, number>();
    let totalWeight = 0;
    const n = this.index.docs.length;
    for (const [w, token] of tokens.entries()) {
      // Per query word, a node scores its best-matching index term, so expansions never add up.
      const best = new Map<number, number>();
      for (const [candidate, weight] of this.expand(token)) {
        matched.set(candidate, Math.max(weight, matched.get(candidate) ?? 0));
        const list = this.postings(candidate);
        for (let i = 0; i < list.length; i += 2) {
          const doc = list[i]!;
          const s = list[i + 1]! * weight;
          if (s > (best.get(doc) ?? 0)) best.set(doc, s);
        }
      }
      // The nodes builders mean by the word, however common it is in descriptions.
      const meant = own(this.index.meant, token.term);
      if (meant) {
        const list = decodePostings(meant);
        for (let i = 0; i < list.length; i += 2) best.set(list[i]!, Math.max(best.get(list[i]!) ?? 0, MEANT * list[i + 1]!));
      }
      const df = best.size;
      const weight = Math.log(1 + (n - df + 0.5) / (df + 0.5)) || 0.1;
      totalWeight += weight;
      let strongest = 0;
      for (const s of best.values()) strongest = Math.max(strongest, s);
      for (const [doc, s] of best) {
        scores.set(doc, (scores.get(doc) ?? 0) + s);
        saysWords.set(doc, (saysWords.get(doc) ?? 0) | (w < 31 ? 1 << w : 0));
        // A word said only in passing (a parameter's label) covers less of the query than in the name.
        covered.set(doc, (covered.get(doc) ?? 0) + weight * Math.min(1, s / (COVERS * strongest)));
      }
    }
    const wantsTrigger = OPENS_ON_EVENT.test(query) || tokens.some((t) => TRIGGER_WORDS.has(t.word) || EVENT_WORDS.has(t.word));
    const wantsTool = tokens.some((t) => TOOL_WORDS.has(t.word));
    // What the query's words say of each node: the nodes that match more of them rank above nodes that
    // match one word strongly, and a node the query names above those it only describes.
    const lexical = new Map<number, number>();
    let top = 0;
    let fullest = 0;
    for (const [doc, score] of scores) {
      const share = covered.get(doc)! / totalWeight;
      const s = score * Math.pow(share, 1.5) * (1 + NAMED * this.named(doc, matched));
      lexical.set(doc, s);
      top = Math.max(top, s);
      fullest = Math.max(fullest, share);
    }
    const relevance = new Map<number, number>();
    // Meaning is asked only when the words leave the query uncovered: when some node matches every word
    // fully, the words have found what the query asks for (and the query costs what it did before).
    for (const [doc, s] of fullest >= COVERED ? lexical : this.fuse(tokens, lexical, top)) {
      let r = s;
      if (this.flags(doc) & TRIGGER) r *= wantsTrigger ? TRIGGER_WANTED : TRIGGER_UNWANTED;
      if (this.flags(doc) & HIDDEN) r *= HIDDEN_FACTOR;
      if (this.index.docs[doc]![0] === 'TOOL_NODE' && !wantsTool) r *= TOOL_UNWANTED;
      r *= 1 + (USED * this.index.usage[doc]!) / 100;
      relevance.set(doc, r);
    }
    // Between a node and its trigger, the query's intent decides.
    for (const [doc, s] of relevance) {
      const action = this.actionOf.get(doc);
      if (action === undefined || !relevance.has(action)) continue;
      const other = relevance.get(action)!;
      relevance.set(doc, wantsTrigger ? Math.max(s, other * 1.1) : Math.min(s, other * 0.9));
    }
    // Between a step and its agent tool, the step unless the query speaks of tools or agents.
    if (!wantsTool) {
      for (const [doc, s] of relevance) {
        const step = this.stepOf.get(doc);
        if (step !== undefined && relevance.has(step)) relevance.set(doc, Math.min(s, relevance.get(step)! * 0.9));
      }
    }
    this.communityBelowCore(relevance, saysWords, matched);
    const ranked = [...relevance].filter(([doc]) => nodeType === undefined || this.index.docs[doc]![0] === nodeType);
    ranked.sort((a, b) => b[1] - a[1] || a[0] - b[0]);
    return ranked.slice(0, maxResults).map(([doc, score]) => this.hit(doc, Math.round(score) / 100));
  }

  /**
   * The lexical scores fused with the semantic layer's, on the lexical scale: each node's lexical score
   * over the best one's, plus SEMANTIC × its cosine with the query between FLOOR and the query's best
   * cosine (a convex-style combination of normalised scores; reciprocal-rank fusion ranked the
   * development sets lower: docs/semantic-search.md). Nodes no query word matches join only when their
   * cosine is near the best: meaning rescues what the words miss, without a tail of loose matches.
   */
  private fuse(tokens: Token[], lexical: Map<number, number>, top: number): Map<number, number> {
    const cosines = this.semantic?.similarities(tokens.map((t) => t.word));
    if (!cosines) return lexical;
    const closest = closestDocs(cosines, RESCUED);
    const best = closest.length > 0 ? cosines[closest[0]!]! : 0;
    if (best <= FLOOR) return lexical;
    const scale = top > 0 ? top : 100;
    const fused = new Map<number, number>();
    for (const [doc, s] of lexical) fused.set(doc, s + scale * SEMANTIC * Math.max(0, (cosines[doc]! - FLOOR) / (best - FLOOR)));
    for (const doc of closest) {
      const closeness = (cosines[doc]! - FLOOR) / (best - FLOOR);
      if (!lexical.has(doc) && closeness >= RESCUE) fused.set(doc, scale * SEMANTIC * closeness);
    }
    return fused;
  }

  /**
   * A community node the query does not name (none of its own name words: ownNames) counts
   * COMMUNITY_UNNAMED of its score, and ranks below the best n8n node that matches every query word it
   * matches, which does the same job as far as the query says: n8n's Crypto before community hashers
   * for "crypto hash". Its score s becomes s·b/(s + b) against that node's b: always below b, still in
   * the order of s, near s when s is far below b.
   */
  private communityBelowCore(relevance: Map<number, number>, saysWords: Map<number, number>, matched: Map<string, number>): void {
    const unnamed = [...relevance.keys()].filter((doc) => this.flags(doc) & COMMUNITY && !this.index.ownNames[doc]!.some((t) => matched.has(t)));
    if (unnamed.length === 0) return;
    const core = [...relevance].filter(([doc]) => !(this.flags(doc) & COMMUNITY));
    for (const doc of unnamed) {
      const says = saysWords.get(doc) ?? 0;
      let best = 0;
      for (const [other, r] of core) if (((saysWords.get(other) ?? 0) & says) === says) best = Math.max(best, r);
      const s = relevance.get(doc)! * COMMUNITY_UNNAMED;
      relevance.set(doc, best > 0 ? (s * best) / (s + best) : s);
    }
  }

  /** Every node of one type, by name: browsing without a query (relevance_score 0). */
  ofType(nodeType: string): SearchHit[] {
    const docs = [...this.index.docs.keys()].filter((doc) => this.index.docs[doc]![0] === nodeType);
    return docs.map((doc) => this.hit(doc, 0)).sort((a, b) => a.display_name.localeCompare(b.display_name));
  }

  /**
   * The query's words, once each (not those after "without"), and "schedule" when it speaks of times.
   * Two adjacent words that together are one word of a name ("one drive", "git hub") count as that
   * word; not those that only join into a name's short form ("send email" is not "sendemail").
   */
  private queryTokens(query: string): Token[] {
    // What follows "without" is what the node should not need: no evidence for it.
    const wanted = query.split(EXCLUDES)[0]!;
    const analyzed = analyze(wanted.trim() ? wanted : query);
    if (analyzed.some((t) => TIME_WORDS.test(t.word))) analyzed.push(SCHEDULE);
    const tokens = [...new Map(analyzed.map((t) => [t.term, t])).values()];
    const joined: Token[] = [];
    for (let i = 0; i < tokens.length; i++) {
      const pair = i + 1 < tokens.length ? `${tokens[i]!.word}${tokens[i + 1]!.word}` : '';
      const term = own(this.index.nameWords, pair);
      if (term && this.has(term) && this.nameWeight.has(term)) {
        joined.push({ word: pair, term });
        i++;
      } else joined.push(tokens[i]!);
    }
    return joined;
  }

  /**
   * Index terms for one query word, with how much each counts: the word itself when the index knows
   * it; otherwise the name word it writes short ("msft"), names it begins, names within a typo or two
   * of it, or the verb an "un-"/"de-" undoes.
   */
  private expand({ word, term }: Token): [string, number][] {
    if (this.has(term)) return [[term, 1]];
    const found = new Map<string, number>();
    const add = (t: string | undefined, weight: number) => {
      if (t && this.has(t) && found.size < MAX_EXPANSIONS && !found.has(t)) found.set(t, weight);
    };
    add(own(this.index.nameWords, word), 1);
    if (word.length >= 3) for (const name of this.nameList) if (name.startsWith(word)) add(own(this.index.nameWords, name), PREFIX);
    // A word that begins a name is taken as that name cut short, not as a typo of another.
    if (word.length >= 4 && found.size === 0) {
      const maxDistance = word.length >= 8 ? 2 : 1;
      for (let len = word.length - maxDistance; len <= word.length + maxDistance; len++) {
        for (const name of this.byLength.get(len) ?? []) if (withinDistance(word, name, maxDistance)) add(own(this.index.nameWords, name), FUZZY);
      }
    }
    if (UNDO.test(word)) add(stem(word.replace(UNDO, '')), UNDONE);
    return [...found];
  }

  /** How fully the query names `doc`, 0–1: its name's words (weighted by how telling), a short form, or an alias of its own. */
  private named(doc: number, matched: Map<string, number>): number {
    const [terms, forms, aliases] = this.index.names[doc]!;
    let form = 0;
    for (const f of forms) form = Math.max(form, matched.get(f) ?? 0);
    for (const alias of aliases) form = Math.max(form, ALIAS_NAMED * Math.min(...alias.map((t) => matched.get(t) ?? 0)));
    let said = 0;
    let total = 0;
    for (const term of terms) {
      const w = this.nameWeight.get(term)!;
      total += w;
      said += w * (matched.get(term) ?? 0);
    }
    return Math.max(form, total > 0 ? said / total : 0);
  }

  private postings(term: string): number[] {
    let list = this.decoded.get(term);
    if (!list) this.decoded.set(term, (list = decodePostings(this.index.postings[this.at(term)]!)));
    return list;
  }

  private has(term: string): boolean {
    return this.at(term) >= 0;
  }

  /** Where `term`'s postings are (the terms are sorted: nothing to build on load); -1 if not indexed. */
  private at(term: string): number {
    return sortedIndexOf(this.index.terms, term);
  }

  private flags(doc: number): number {
    return this.index.docs[doc]![4];
  }

  private hit(doc: number, relevance_score: number): SearchHit {
    const [node_type, subtype, display_name, description] = this.index.docs[doc]!;
    return { node_type, subtype, display_name, description, relevance_score };
  }
}

/** The `k` docs of highest cosine, highest first (one pass, a short sorted list). */
function closestDocs(cosines: Float32Array, k: number): number[] {
  const docs: number[] = [];
  for (let doc = 0; doc < cosines.length; doc++) {
    const c = cosines[doc]!;
    if (docs.length === k && c <= cosines[docs[k - 1]!]!) continue;
    let at = docs.length === k ? k - 1 : docs.length;
    while (at > 0 && cosines[docs[at - 1]!]! < c) {
      docs[at] = docs[at - 1]!;
      at--;
    }
    docs[at] = doc;
    if (docs.length > k) docs.length = k;
  }
  return docs;
}
