/**
 * The template search index: one KV value per catalog version, read once per isolate. It holds each
 * template's card (what search_templates answers) and, per word, the templates that use it with a
 * weight; the templates themselves are values of their own, read one at a time by get_template.
 */
import { templateIndexKey, templateKey } from '../catalog/keys';
import type { NodeSpec } from '../catalog/nodeSpec';
import { typeName } from '../catalog/search/names';
import { tokenize } from '../catalog/search/tokenize';
import type { TemplateCategory } from './categories';
import { stickyNotes, templateRecords, type TemplateRecord, type ValidatedTemplate } from './template';

/** The index's format and weighting: a Worker reads only an index of its own, and a new one makes a new catalog version. */
export const TEMPLATE_INDEX_VERSION = 2;

/** A template as search_templates lists it. */
export interface TemplateCard {
  id: string;
  name: string;
  /** The start of its description, at most SHORT_DESCRIPTION characters; null when it has none. */
  description: string | null;
  node_types: string[];
  categories: TemplateCategory[];
  licence: string;
  author: string;
  link: string;
  validation: { valid: boolean; errors: number; warnings: number };
}

export interface TemplateIndex {
  version: typeof TEMPLATE_INDEX_VERSION;
  cards: TemplateCard[];
  /** term → "card weight card weight …" (card: its place in `cards`; weight: termWeights' without idf, ×100; both base 36). */
  postings: Record<string, string>;
  /** The display name of each node type the templates use, for finding nodes by either. */
  nodes: Record<string, string>;
}

const SHORT_DESCRIPTION = 200;

/**
 * What a word of a template's text weighs where it stands (BM25F): its name says most of what it is
 * for; its description, what n8n says its nodes do and its categories next; its sticky notes, which
 * explain how at length and mention services they do not use, least. Each field is normalised by its
 * length against the average (notes run from a line to pages).
 */
const TEXT_FIELDS = { name: 4, description: 1, nodeDescriptions: 1, categories: 1, notes: 0.5 } as const;
type TextField = keyof typeof TEXT_FIELDS;

/** A text cut at a word boundary to at most `max` characters, an ellipsis marking the cut. */
export function shorten(text: string, max = SHORT_DESCRIPTION): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  if (flat.length <= max) return flat;
  const cut = flat.slice(0, max - 1);
  const space = cut.lastIndexOf(' ');
  return `${space > max / 2 ? cut.slice(0, space) : cut}…`;
}

export function cardOf(record: TemplateRecord): TemplateCard {
  const { errors, warnings, valid } = record.validation;
  return {
    id: record.id,
    name: record.name,
    description: record.description === null ? null : shorten(record.description),
    node_types: record.node_types,
    categories: record.categories,
    licence: record.source.licence,
    author: record.source.author,
    link: record.source.link,
    validation: { valid, errors, warnings },
  };
}

/** BM25's saturation and length normalisation. */
const K1 = 1.2;
const B = 0.75;
/**
 * What a word of the name of a node the template uses adds, besides: as much as the most its text can
 * give (BM25's saturated ceiling, K1 + 1), so that a template using Telegram's node ranks above one
 * whose notes only talk of Telegram. Once per word however many nodes it names: using a node is a fact,
 * not a frequency.
 */
const NODE_NAME_WEIGHT = K1 + 1;

/**
 * Each term's weight in each template (without idf, which search adds): its BM25F weight in the
 * template's text (each field's count weighed, length-normalised, summed, then saturated), plus
 * NODE_NAME_WEIGHT when it is a word of the name of a node the template uses.
 */
function termWeights(templates: { text: Record<TextField, string>; nodeNames: string }[]): Map<string, number>[] {
  const analysed = templates.map(({ text, nodeNames }) => ({
    fields: (Object.keys(TEXT_FIELDS) as TextField[]).map((field) => ({ field, terms: tokenize(text[field]) })),
    nodeTerms: new Set(tokenize(nodeNames)),
  }));
  const average = new Map<TextField, number>();
  for (const field of Object.keys(TEXT_FIELDS) as TextField[]) {
    const lengths = analysed.map((doc) => doc.fields.find((f) => f.field === field)!.terms.length);
    average.set(field, Math.max(1, lengths.reduce((a, b) => a + b, 0) / Math.max(1, lengths.length)));
  }
  return analysed.map(({ fields, nodeTerms }) => {
    const weighted = new Map<string, number>();
    for (const { field, terms } of fields) {
      const norm = 1 - B + (B * terms.length) / average.get(field)!;
      for (const term of terms) weighted.set(term, (weighted.get(term) ?? 0) + TEXT_FIELDS[field] / norm);
    }
    const weights = new Map([...weighted].map(([term, tf]) => [term, ((K1 + 1) * tf) / (K1 + tf)]));
    for (const term of nodeTerms) weights.set(term, (weights.get(term) ?? 0) + NODE_NAME_WEIGHT);
    return weights;
  });
}

/** What the catalog says of a node a template uses: its name and what it does. */
export type NodeText = Pick<NodeSpec, 'display_name' | 'description'>;

/** The index of `records`; `describe` gives what the catalog says of each node type (nothing when it lacks the node). */
export function buildTemplateIndex(records: TemplateRecord[], describe: (type: string) => NodeText | undefined): TemplateIndex {
  const nodes = new Map<string, string>();
  for (const type of records.flatMap((r) => r.node_types)) nodes.set(type, describe(type)?.display_name ?? typeName(type));
  const weights = termWeights(
    records.map((record) => ({
      text: {
        name: record.name,
        description: record.description ?? '',
        nodeDescriptions: record.node_types.map((type) => describe(type)?.description ?? '').join('\n'),
        categories: record.categories.join(' '),
        notes: stickyNotes(record).join('\n'),
      },
      nodeNames: record.node_types.map((type) => `${nodes.get(type)} ${typeName(type)}`).join(' '),
    })),
  );
  const postings = new Map<string, string[]>();
  weights.forEach((terms, card) => {
    for (const [term, weight] of terms) {
      const list = postings.get(term) ?? [];
      list.push(card.toString(36), Math.round(weight * 100).toString(36));
      postings.set(term, list);
    }
  });
  return {
    version: TEMPLATE_INDEX_VERSION,
    cards: records.map(cardOf),
    postings: Object.fromEntries([...postings].sort(([a], [b]) => (a < b ? -1 : 1)).map(([term, list]) => [term, list.join(' ')])),
    nodes: Object.fromEntries([...nodes].sort(([a], [b]) => (a < b ? -1 : 1))),
  };
}

/**
 * The KV entries of the templates under a catalog version: the search index, and each template as a
 * value of its own; none for a catalog built without templates.
 */
export function templateEntries(version: string, templates: ValidatedTemplate[], current: NodeSpec[]): { key: string; value: string }[] {
  if (templates.length === 0) return [];
  const records = templateRecords(templates, current);
  const specs = new Map(current.map((s) => [s.subtype, s]));
  return [
    ...records.map((record) => ({ key: templateKey(version, record.id), value: JSON.stringify(record) })),
    { key: templateIndexKey(version), value: JSON.stringify(buildTemplateIndex(records, (type) => specs.get(type))) },
  ];
}
