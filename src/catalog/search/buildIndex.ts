import type { NodeSpec } from '../nodeSpec';
import { tokenize } from './tokenize';

/**
 * The precomputed search index, stored as one KV value and loaded once per isolate. Each posting
 * already holds the term's full BM25F contribution for that node (×100, rounded), so a query only
 * adds numbers up.
 */
export interface SearchIndex {
  version: 1;
  /** [node_type, subtype, display_name, short description, is trigger (1/0)] */
  docs: [string, string, string, string, 0 | 1][];
  /** term → [doc, score, doc, score, …] */
  postings: Record<string, number[]>;
  /** Terms of names and aliases: where typos are looked for. */
  names: string[];
}

/** Field weights: names and aliases above descriptions above operations and categories. */
export const FIELDS = { title: 6, aliases: 4, description: 2, operations: 1.2, categories: 1 } as const;
export type Field = keyof typeof FIELDS;
const K1 = 1.2;
const B = 0.6;
const SHORT_DESCRIPTION = 200;
/** Parameters whose choices say what a node can do (or, for triggers, which events start it). */
const CAPABILITY_PARAMETERS = /^(resource|operation|mode|events?|topic|triggerOn|action)$/;

/** The text of each searchable field of a spec (also what the benchmark gives other engines). */
export function searchText(spec: NodeSpec): Record<Field, string> {
  const local = spec.subtype.slice(spec.subtype.lastIndexOf('.') + 1);
  const capability = spec.parameters.filter((p) => CAPABILITY_PARAMETERS.test(p.name));
  return {
    title: `${spec.display_name} ${local}`,
    aliases: spec.aliases.join(' '),
    description: spec.description,
    operations: capability.flatMap((p) => p.enum_values ?? []).join(' '),
    categories: spec.categories.join(' '),
  };
}

function fields(spec: NodeSpec): Record<Field, string[]> {
  const text = searchText(spec);
  return Object.fromEntries(Object.entries(text).map(([f, t]) => [f, tokenize(t)])) as Record<Field, string[]>;
}

export function buildSearchIndex(specs: NodeSpec[]): SearchIndex {
  const perDoc = specs.map(fields);
  const names = Object.keys(FIELDS) as Field[];
  const avg = Object.fromEntries(names.map((f) => [f, perDoc.reduce((n, d) => n + d[f].length, 0) / Math.max(1, specs.length) || 1])) as Record<Field, number>;

  const docFreq = new Map<string, number>();
  for (const doc of perDoc) {
    for (const term of new Set(names.flatMap((f) => doc[f]))) docFreq.set(term, (docFreq.get(term) ?? 0) + 1);
  }

  const postings: Record<string, number[]> = {};
  perDoc.forEach((doc, d) => {
    const tf = new Map<string, Partial<Record<Field, number>>>();
    for (const f of names) for (const term of doc[f]) {
      const counts = tf.get(term) ?? {};
      counts[f] = (counts[f] ?? 0) + 1;
      tf.set(term, counts);
    }
    for (const [term, counts] of tf) {
      // BM25F: field-weighted, length-normalised term frequency, saturated once.
      let weighted = 0;
      for (const f of names) {
        const n = counts[f];
        if (n) weighted += (FIELDS[f] * n) / (1 - B + (B * doc[f].length) / avg[f]);
      }
      const df = docFreq.get(term)!;
      const idf = Math.log(1 + (specs.length - df + 0.5) / (df + 0.5));
      const score = Math.round(100 * idf * ((weighted * (K1 + 1)) / (weighted + K1)));
      if (score > 0) (postings[term] ??= []).push(d, score);
    }
  });

  const nameTerms = new Set(perDoc.flatMap((doc) => [...doc.title, ...doc.aliases]));
  return {
    version: 1,
    docs: specs.map((s) => [s.node_type, s.subtype, s.display_name, short(s.description), s.node_type === 'TRIGGER_NODE' ? 1 : 0]),
    postings,
    names: [...nameTerms].sort(),
  };
}

function short(text: string): string {
  return text.length > SHORT_DESCRIPTION ? `${text.slice(0, SHORT_DESCRIPTION - 1)}…` : text;
}
