import { dict, own } from '../../lib/ownKeys';
import type { NodeSpec, Parameter } from '../nodeSpec';
import { builderTerms, termUses } from './builderNames';
import { nodeName, packageWords, typeName, VENDOR_WORDS } from './names';
import { buildSemanticIndex, type SemanticIndex, type WordTable } from './semantic';
import { stem, tokenize } from './tokenize';

/** The index's format: a Worker loads only an index of its own format (another reads as no catalog). */
export const INDEX_VERSION = 4;

/**
 * The precomputed search index, stored as one KV value and loaded once per isolate. Each posting
 * already holds the term's full BM25F contribution for that node (×100, rounded), so a query only
 * adds numbers up. Postings are strings in an array beside the terms, decoded only for the terms a
 * query uses: a cold isolate parses that far faster than thousands of number arrays or object keys.
 */
export interface SearchIndex {
  version: typeof INDEX_VERSION;
  /** [node_type, subtype, display_name, short description, flags (TRIGGER | HIDDEN | COMMUNITY)] */
  docs: [string, string, string, string, number][];
  /** Every indexed term, sorted (looked up by binary search: nothing to build on load). */
  terms: string[];
  /** The postings of terms[i]: "doc score doc score …", numbers in base 36 (see decodePostings). */
  postings: string[];
  /**
   * Per doc: the terms of its name's distinctive words, of its short forms (names.ts), and of each of
   * its aliases that no other node has (n8n's other names for it: "2FA" for TOTP).
   */
  names: [string[], string[], string[][]][];
  /** Every word and short form of a name as written → its term: where typos and cut-short names are looked for. */
  nameWords: Record<string, string>;
  /** Per doc: how much real workflows use it, 0–100 (log-scaled; see usagePrior). */
  usage: number[];
  /** Per term of builders' names: the nodes builders mostly mean by it, "doc share …" (share in %, see meantBy). */
  meant: Record<string, string>;
  /**
   * Per doc: for a community node, the terms of its name and package that no node of n8n's has
   * ("tavily"): a query with one of them names it. Empty for n8n's own nodes.
   */
  ownNames: string[][];
  /** Word and node vectors (semantic.ts); absent when the build had no word table: search is then lexical only. */
  semantic?: SemanticIndex;
}

/** What real workflows say of node types (scripts/catalog/usage): how many use each, and the names they give it. */
export interface WorkflowUsage {
  /** Node type → how many workflows use it. */
  counts: Record<string, number>;
  /** Node type → name a builder gave one of its nodes → how many workflows use that name. */
  names: Record<string, Record<string, number>>;
}

const NO_USAGE: WorkflowUsage = { counts: {}, names: {} };

/**
 * What people call each node and the jobs they do with it, in their words rather than n8n's
 * (scripts/catalog/knowledge): other names and abbreviations ("pg"), jobs ("page the on-call
 * engineer"), the field it serves. Keyed by node type; a tool variant takes its node's.
 */
export type NodeWords = Record<string, { names: string[]; jobs: string[]; domain: string[] }>;

export const TRIGGER = 1;
/** n8n leaves the node out of its panel: deprecated or internal. */
export const HIDDEN = 2;
/** A community node (an npm package n8n installs apart): below n8n's own node for the same job unless named. */
export const COMMUNITY = 4;

/** Field weights: names and aliases above descriptions above what the node does and what its users call it, parameters last. */
export const FIELDS = {
  title: 6,
  aliases: 4,
  description: 2,
  actions: 1.5,
  jobs: 1.5,
  operations: 1.2,
  categories: 1,
  builderNames: 1,
  parameters: 0.3,
} as const;
export type Field = keyof typeof FIELDS;
const K1 = 1.2;
const B = 0.6;
const SHORT_DESCRIPTION = 200;
/** Parameters whose choices say what a node can do (or, for triggers, which events start it). */
const CAPABILITY_PARAMETERS = /^(resource|operation|mode|events?|topic|triggerOn|action|updates)$/;
/** Parameters that pick an AI model: their default says which family the node speaks to. */
const MODEL_PARAMETERS = /^model(Name|Id)?$/;

/** The text of each searchable field of a spec (also what the benchmark gives other engines); the builders' names as index terms. */
export function searchText(spec: NodeSpec, usage: WorkflowUsage = NO_USAGE, words: NodeWords = {}): Record<Field, string> {
  const capability = spec.parameters.filter((p) => CAPABILITY_PARAMETERS.test(p.name));
  const name = nodeName(spec.display_name);
  const known = own(words, spec.tool_of ?? spec.subtype);
  return {
    title: `${spec.display_name} ${typeName(spec.subtype)}`,
    aliases: [...spec.aliases, ...name.forms, ...(known?.names ?? [])].join(' '),
    description: spec.description,
    actions: (spec.actions ?? []).join(' '),
    jobs: (known?.jobs ?? []).join(' '),
    operations: capability.flatMap((p) => p.enum_values ?? []).join(' '),
    categories: [...spec.categories, ...(known?.domain ?? [])].join(' '),
    builderNames: builderTerms(spec, own(usage.names, spec.subtype), own(usage.names, `${spec.subtype}Tool`)).join(' '),
    parameters: spec.parameters
      .filter((p) => !CAPABILITY_PARAMETERS.test(p.name))
      .flatMap(labels)
      .join(' '),
  };
}

/** A parameter's label and its choices, its children's too; for a model, the model it defaults to ("gpt-4o-mini"). */
function labels(p: Parameter): string[] {
  const model = MODEL_PARAMETERS.test(p.name) ? modelName(p.default_value) : undefined;
  return [p.display_name ?? p.name, ...(p.enum_values ?? []).map(String), ...(model ? [model] : []), ...(p.options ?? []).flatMap(labels)];
}

/** A default model: a string, or a resource locator's value. */
function modelName(value: unknown): string | undefined {
  const name = typeof value === 'object' && value !== null ? (value as { value?: unknown }).value : value;
  return typeof name === 'string' && name.length > 0 ? name : undefined;
}

function fieldTerms(text: Record<Field, string>): Record<Field, string[]> {
  // The builders' names are index terms already: analyzed again, a digit-joined term ("base64") would yield its parts once more.
  const terms = (field: string, t: string) => (field === 'builderNames' ? t.split(' ').filter(Boolean) : tokenize(t));
  return Object.fromEntries(Object.entries(text).map(([f, t]) => [f, terms(f, t)])) as Record<Field, string[]>;
}

/**
 * Builds the index over `specs`. `usage` says what real workflows do with each node type
 * (scripts/catalog/usage): search prefers what n8n users actually build with, and knows the words
 * they name its nodes by; `words`, what people call each node and do with it. With a word table
 * (scripts/catalog/semantic), each node also gets a vector.
 */
export function buildSearchIndex(specs: NodeSpec[], usage: WorkflowUsage = NO_USAGE, table?: WordTable, words: NodeWords = {}): SearchIndex {
  const texts = specs.map((spec) => searchText(spec, usage, words));
  const perDoc = texts.map(fieldTerms);
  const fieldNames = Object.keys(FIELDS) as Field[];
  const avg = Object.fromEntries(fieldNames.map((f) => [f, perDoc.reduce((n, d) => n + d[f].length, 0) / Math.max(1, specs.length) || 1])) as Record<
    Field,
    number
  >;

  const docFreq = new Map<string, number>();
  for (const doc of perDoc) {
    for (const term of new Set(fieldNames.flatMap((f) => doc[f]))) docFreq.set(term, (docFreq.get(term) ?? 0) + 1);
  }

  const postings = new Map<string, number[]>();
  perDoc.forEach((doc, d) => {
    const tf = new Map<string, Partial<Record<Field, number>>>();
    for (const f of fieldNames)
      for (const term of doc[f]) {
        const counts = tf.get(term) ?? {};
        counts[f] = (counts[f] ?? 0) + 1;
        tf.set(term, counts);
      }
    for (const [term, counts] of tf) {
      // BM25F: field-weighted, length-normalised term frequency, saturated once.
      let weighted = 0;
      for (const f of fieldNames) {
        const n = counts[f];
        if (n) weighted += (FIELDS[f] * n) / (1 - B + (B * doc[f].length) / avg[f]);
      }
      const df = docFreq.get(term)!;
      const idf = Math.log(1 + (specs.length - df + 0.5) / (df + 0.5));
      const score = Math.round(100 * idf * ((weighted * (K1 + 1)) / (weighted + K1)));
      if (score <= 0) continue;
      const list = postings.get(term);
      if (list) list.push(d, score);
      else postings.set(term, [d, score]);
    }
  });

  const names = specs.map((s) => nodeName(s.display_name));
  const aliases = ownAliases(specs);
  const nameWords = dict<string>();
  for (const name of names) for (const word of [...name.words, ...name.forms]) nameWords[word] = stem(word);
  for (const [vendor, shorts] of Object.entries(VENDOR_WORDS)) {
    if (nameWords[vendor]) for (const short of shorts) nameWords[short] ??= nameWords[vendor];
  }
  return {
    version: INDEX_VERSION,
    docs: specs.map((s) => [
      s.node_type,
      s.subtype,
      s.display_name,
      short(s.description),
      (s.node_type === 'TRIGGER_NODE' ? TRIGGER : 0) | (s.hidden ? HIDDEN : 0) | (s.community ? COMMUNITY : 0),
    ]),
    ...sortedPostings(postings),
    names: names.map((name, d) => [name.words.map(stem), name.forms.map(stem), aliases[d]!]),
    nameWords,
    usage: usagePrior(specs, usage.counts),
    meant: meantBy(specs, usage),
    ownNames: ownNames(specs, perDoc),
    ...(table ? { semantic: buildSemanticIndex(table, texts) } : {}),
  };
}

/**
 * Per spec, for a community node, the terms of its display name and package name that no n8n node's
 * text has: "tavily" names Tavily's node, while "hash" in a community hasher's name is a word of the
 * job n8n's Crypto does too, so it does not name the hasher.
 */
function ownNames(specs: NodeSpec[], perDoc: Record<Field, string[]>[]): string[][] {
  const core = new Set<string>();
  specs.forEach((s, d) => {
    if (!s.community) for (const terms of Object.values(perDoc[d]!)) for (const term of terms) core.add(term);
  });
  return specs.map((s) =>
    s.community ? [...new Set(tokenize([s.display_name, ...packageWords(s.community.package)].join(' ')))].filter((t) => !core.has(t)) : [],
  );
}

/**
 * Per spec, the terms of each alias no other spec has. An alias n8n gives one node names it; one it
 * gives many ("Wait" on every human-in-the-loop node) only describes them, as the aliases field does.
 */
function ownAliases(specs: NodeSpec[]): string[][][] {
  const perSpec = specs.map((s) => [
    ...new Map(
      s.aliases
        .map((a) => tokenize(a))
        .filter((t) => t.length > 0)
        .map((t) => [t.join(' '), t]),
    ).values(),
  ]);
  const holders = new Map<string, number>();
  for (const aliases of perSpec) for (const alias of aliases) holders.set(alias.join(' '), (holders.get(alias.join(' ')) ?? 0) + 1);
  return perSpec.map((aliases) => aliases.filter((alias) => holders.get(alias.join(' ')) === 1));
}

function sortedPostings(postings: Map<string, number[]>): Pick<SearchIndex, 'terms' | 'postings'> {
  const terms = [...postings.keys()].sort();
  return {
    terms,
    postings: terms.map((term) =>
      postings
        .get(term)!
        .map((n) => n.toString(36))
        .join(' '),
    ),
  };
}

/** A term's postings as [doc, score, doc, score, …]. */
export const decodePostings = (encoded: string): number[] => encoded.split(' ').map((n) => parseInt(n, 36));

/** A node is meant by a term of builders' names when it has this share of the term's uses… */
const MEANT_SHARE = 0.2;
/** …in at least this many workflows. */
const MEANT_USES = 2;

/**
 * Which nodes builders mean by a word: per term of the names they give nodes, each node that has a
 * good share of the term's uses across all nodes ("loop": Loop Over Items, "fetch": HTTP Request),
 * with that share. Where the index's builders' names field says what a node is called, this says
 * which node a word calls up, which a word common to many descriptions ("api") otherwise cannot.
 */
function meantBy(specs: NodeSpec[], usage: WorkflowUsage): Record<string, string> {
  const byTerm = new Map<string, [number, number][]>();
  specs.forEach((spec, doc) => {
    for (const [term, uses] of termUses(spec, own(usage.names, spec.subtype), own(usage.names, `${spec.subtype}Tool`))) {
      const docs = byTerm.get(term) ?? [];
      byTerm.set(term, docs);
      docs.push([doc, uses]);
    }
  });
  const meant = dict<string>();
  for (const term of [...byTerm.keys()].sort()) {
    const docs = byTerm.get(term)!;
    const total = docs.reduce((n, [, uses]) => n + uses, 0);
    const kept = docs.filter(([, uses]) => uses >= MEANT_USES && uses / total >= MEANT_SHARE);
    if (kept.length > 0) meant[term] = kept.flatMap(([doc, uses]) => [doc, Math.round((100 * uses) / total)].map((n) => n.toString(36))).join(' ');
  }
  return meant;
}

/**
 * Usage as a 0–100 prior: log-scaled, so a node in many workflows leads one in a few without the
 * most common nodes drowning the rest. Nodes n8n has replaced (legacy, hidden) get none.
 */
export function usagePrior(specs: NodeSpec[], usage: Record<string, number>): number[] {
  const counts = specs.map((s) => (s.legacy || s.hidden ? 0 : (own(usage, s.subtype) ?? 0)));
  const top = Math.log1p(Math.max(0, ...counts));
  return counts.map((n) => (top > 0 ? Math.round((100 * Math.log1p(n)) / top) : 0));
}

function short(text: string): string {
  return text.length > SHORT_DESCRIPTION ? `${text.slice(0, SHORT_DESCRIPTION - 1)}…` : text;
}
