/**
 * search_templates' ranking, pure: filters by the nodes a template uses (all of them) and its
 * category, then ranks by the query's words, each weighed by how rare it is among the templates
 * (BM25's idf) times its weight in the template (searchIndex.ts: its text, and the names of the nodes
 * it uses), a template that does not validate keeping a little less; those far below the best are
 * left out. Without words, the templates that pass the filters come valid first, then by name.
 */
import { decodePostings } from '../catalog/search/buildIndex';
import { typeName } from '../catalog/search/names';
import { tokenize } from '../catalog/search/tokenize';
import type { TemplateCategory } from './categories';
import type { TemplateCard, TemplateIndex } from './searchIndex';

export interface TemplateQuery {
  query?: string;
  /** Node types or display names; a template must use every one. */
  nodes?: string[];
  category?: TemplateCategory;
  max: number;
}

interface TemplateHit extends TemplateCard {
  relevance_score: number;
}

export interface TemplateResults {
  results: TemplateHit[];
  /** How many templates matched, of which `results` are the first `max`. */
  total: number;
  /** Nodes asked for that no template uses (so nothing matched). */
  no_template_uses?: string[];
}

/** The share of the best template's score a template needs to be answered at all. */
const RELATIVE_FLOOR = 0.25;
/**
 * What a template that does not validate keeps of its score: a small prior for those that deploy as
 * they are, enough to order near ties, never to put a worse match first.
 */
const INVALID_SHARE = 0.95;

export class TemplateSearcher {
  private readonly postings: Map<string, string>;
  /** Lowercased type, type name without package, and display name → the node types so named. */
  private readonly nodeNames = new Map<string, Set<string>>();

  constructor(private readonly index: TemplateIndex) {
    this.postings = new Map(Object.entries(index.postings));
    for (const [type, display] of Object.entries(index.nodes)) {
      for (const name of [type, typeName(type), display]) {
        const key = name.toLowerCase();
        this.nodeNames.set(key, (this.nodeNames.get(key) ?? new Set()).add(type));
      }
    }
  }

  /** The node types a caller's name for a node stands for: none when no template uses such a node. */
  nodeTypes(name: string): Set<string> {
    return this.nodeNames.get(name.trim().toLowerCase()) ?? new Set();
  }

  /** Whether a template with this id is in the index (get_template reads no other). */
  has(id: string): boolean {
    return this.index.cards.some((card) => card.id === id);
  }

  search({ query = '', nodes = [], category, max }: TemplateQuery): TemplateResults {
    const wanted = nodes.map((name) => ({ name, types: this.nodeTypes(name) }));
    const unused = wanted.filter((w) => w.types.size === 0).map((w) => w.name);
    if (unused.length > 0) return { results: [], total: 0, no_template_uses: unused };
    const passes = (card: TemplateCard) =>
      (category === undefined || card.categories.includes(category)) && wanted.every((w) => card.node_types.some((type) => w.types.has(type)));
    const scores = this.scores(query);
    const scored = this.index.cards
      .map((card, i) => ({ card, score: (scores?.get(i) ?? 0) * (card.validation.valid ? 1 : INVALID_SHARE) }))
      .filter(({ card }) => passes(card));
    // Far below the best, a template shares only words most templates have, or mentions one in passing.
    const floor = RELATIVE_FLOOR * Math.max(0, ...scored.map((s) => s.score));
    const hits = scored
      .filter(({ score }) => scores === null || (score > 0 && score >= floor))
      .sort(
        (a, b) =>
          b.score - a.score ||
          Number(b.card.validation.valid) - Number(a.card.validation.valid) ||
          a.card.validation.errors - b.card.validation.errors ||
          a.card.name.localeCompare(b.card.name),
      );
    return {
      results: hits.slice(0, max).map(({ card, score }) => ({ ...card, relevance_score: Math.round(score * 100) / 100 })),
      total: hits.length,
    };
  }

  /** Each template's score for the query's words; null when the query has none (every template then passes). */
  private scores(query: string): Map<number, number> | null {
    const terms = [...new Set(tokenize(query))];
    if (terms.length === 0) return null;
    const total = this.index.cards.length;
    const scores = new Map<number, number>();
    for (const term of terms) {
      const encoded = this.postings.get(term);
      if (encoded === undefined) continue;
      const pairs = decodePostings(encoded);
      const df = pairs.length / 2;
      const idf = Math.log(1 + (total - df + 0.5) / (df + 0.5));
      for (let i = 0; i < pairs.length; i += 2) scores.set(pairs[i]!, (scores.get(pairs[i]!) ?? 0) + (idf * pairs[i + 1]!) / 100);
    }
    return scores;
  }
}
