import { analyze, stem } from './tokenize';

/**
 * The semantic layer (docs/semantic-search.md): word vectors distilled at build time from a sentence
 * encoder (scripts/catalog/semantic), a vector per node pooled from the words of its name, description,
 * aliases, actions and categories, and a query embedded by looking its words up and pooling them. No
 * model runs in the Worker: a query costs a few table look-ups and one int8 dot product per node.
 */

/** Word vectors: `words` sorted, `vectors` their int8 vectors in the same order, `dims` bytes each. */
export interface WordTable {
  dims: number;
  words: string[];
  vectors: Int8Array;
}

/** The semantic part of the search index, as stored in KV. */
export interface SemanticIndex {
  dims: number;
  /** The words a query is looked up in, sorted, joined by spaces (one string parses at once; split on first use). */
  words: string;
  /** Their vectors: int8, base64, `dims` bytes per word (decoded per word a query uses). */
  wordVectors: string;
  /** How telling each word is among the nodes (its inverse document frequency, scaled to 0–255), base64. */
  wordWeights: string;
  /** One vector per doc, in the index's order: int8, base64, `dims` bytes each. */
  docVectors: string;
}

/** The fields a node's vector pools, each with its weight: what the node is called and what it does. */
export const POOLED_FIELDS = { title: 3, aliases: 2, description: 2, actions: 1, jobs: 2, operations: 1, categories: 1 } as const;
export type PooledField = keyof typeof POOLED_FIELDS;

/** Bytes as base64, in chunks (a spread of megabytes would overflow the call stack). */
export function toBase64(bytes: Uint8Array | Int8Array): string {
  const view = new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let binary = '';
  for (let i = 0; i < view.length; i += 0x8000) binary += String.fromCharCode(...view.subarray(i, i + 0x8000));
  return btoa(binary);
}

/** `length` bytes from byte `start` of base64 `text`, decoding only the characters that hold them. */
export function bytesAt(text: string, start: number, length: number): Int8Array {
  const from = Math.floor(start / 3) * 4;
  const to = Math.min(text.length, Math.ceil((start + length) / 3) * 4);
  const binary = atob(text.slice(from, to));
  const skip = start % 3;
  const out = new Int8Array(length);
  for (let i = 0; i < length; i++) out[i] = (binary.charCodeAt(skip + i) << 24) >> 24;
  return out;
}

/** All bytes of base64 `text`, as int8. */
export function int8s(text: string): Int8Array {
  const binary = atob(text);
  const out = new Int8Array(binary.length);
  for (let i = 0; i < out.length; i++) out[i] = (binary.charCodeAt(i) << 24) >> 24;
  return out;
}

/** A float vector as int8, its largest component at ±127: cosine only needs the direction. */
export function toInt8(vector: ArrayLike<number>): Int8Array {
  let max = 0;
  for (let i = 0; i < vector.length; i++) max = Math.max(max, Math.abs(vector[i]!));
  const scale = max > 0 ? 127 / max : 0;
  return Int8Array.from({ length: vector.length }, (_, i) => Math.round(vector[i]! * scale));
}

/** Where `word` is in sorted `words`, by binary search, or -1: the table's words and the index's terms alike. */
export function sortedIndexOf(words: readonly string[], word: string): number {
  let lo = 0;
  let hi = words.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const w = words[mid]!;
    if (w === word) return mid;
    if (w < word) lo = mid + 1;
    else hi = mid - 1;
  }
  return -1;
}

/**
 * The table's entry for a word as written (lowercase): the word itself, else its stem or the stem with
 * the "e" Porter's stemmer drops ("archives" → "archiv" → "archive"): inflections the table lacks.
 */
export function lookUp(words: readonly string[], word: string): number {
  const found = sortedIndexOf(words, word);
  if (found >= 0) return found;
  const root = stem(word);
  if (root === word) return -1;
  const rooted = sortedIndexOf(words, root);
  return rooted >= 0 ? rooted : sortedIndexOf(words, `${root}e`);
}

/** Σ weight × vector over `entries`: the pooled (unnormalised) vector of a text. */
export function pool(entries: Iterable<[ArrayLike<number>, number]>, dims: number): Float32Array {
  const sum = new Float32Array(dims);
  for (const [vector, weight] of entries) for (let d = 0; d < dims; d++) sum[d]! += weight * vector[d]!;
  return sum;
}

/**
 * The semantic part of the index over docs given as their fields' texts. Each word a field says adds
 * its vector with the field's weight over the square root of the field's length (a long description
 * does not outweigh a name), times how rare the word is among the nodes (idf: "api", "create" and
 * "get" say little of what a node is for).
 */
export function buildSemanticIndex(table: WordTable, docs: Record<PooledField, string>[]): SemanticIndex {
  const { dims } = table;
  const perDoc = docs.map((fields) => {
    const weights = new Map<number, number>();
    for (const field of Object.keys(POOLED_FIELDS) as PooledField[]) {
      const words = analyze(fields[field]).map((t) => lookUp(table.words, t.word));
      for (const w of words) if (w >= 0) weights.set(w, (weights.get(w) ?? 0) + POOLED_FIELDS[field] / Math.sqrt(words.length));
    }
    return weights;
  });
  const docFreq = new Map<number, number>();
  for (const weights of perDoc) for (const w of weights.keys()) docFreq.set(w, (docFreq.get(w) ?? 0) + 1);
  const most = Math.log(1 + docs.length);
  const idf = (w: number) => Math.log(1 + docs.length / (1 + (docFreq.get(w) ?? 0)));
  const vectorOf = (w: number) => table.vectors.subarray(w * dims, (w + 1) * dims);
  const docVectors = new Int8Array(docs.length * dims);
  perDoc.forEach((weights, d) => {
    docVectors.set(
      toInt8(
        pool(
          [...weights].map(([w, weight]) => [vectorOf(w), weight * idf(w)]),
          dims,
        ),
      ),
      d * dims,
    );
  });
  return {
    dims,
    words: table.words.join(' '),
    wordVectors: toBase64(table.vectors),
    wordWeights: toBase64(Uint8Array.from(table.words, (_, w) => Math.round((255 * idf(w)) / most))),
    docVectors: toBase64(docVectors),
  };
}

/** A loaded semantic index: decoded on first use, word vectors one by one as queries need them. */
export class SemanticSearcher {
  private words?: string[];
  /** The docs' vectors scaled to length 1, as floats: a query's cosine with each is one dot product. */
  private docs?: Float32Array;

  constructor(private readonly index: SemanticIndex) {}

  /**
   * The cosine of the pooled vector of a query's words (as written, lowercase) with each doc's, in the
   * index's order; null when the table knows none of them (stop words are not in it, so never count).
   */
  similarities(queryWords: readonly string[]): Float32Array | null {
    const { dims } = this.index;
    const words = (this.words ??= this.index.words.split(' '));
    const entries: [Int8Array, number][] = [];
    const seen = new Set<number>();
    for (const word of queryWords) {
      const w = lookUp(words, word);
      if (w < 0 || seen.has(w)) continue;
      seen.add(w);
      entries.push([bytesAt(this.index.wordVectors, w * dims, dims), bytesAt(this.index.wordWeights, w, 1)[0]! & 0xff]);
    }
    if (entries.length === 0) return null;
    const query = unit(pool(entries, dims));
    if (!query) return null;
    const docs = (this.docs ??= unitRows(int8s(this.index.docVectors), dims));
    const out = new Float32Array(docs.length / dims);
    const fours = dims - (dims % 4);
    for (let doc = 0, at = 0; doc < out.length; doc++, at += dims) {
      // Four sums at once: about half the time of one in V8.
      let a = 0;
      let b = 0;
      let c = 0;
      let e = 0;
      for (let d = 0; d < fours; d += 4) {
        a += docs[at + d]! * query[d]!;
        b += docs[at + d + 1]! * query[d + 1]!;
        c += docs[at + d + 2]! * query[d + 2]!;
        e += docs[at + d + 3]! * query[d + 3]!;
      }
      for (let d = fours; d < dims; d++) a += docs[at + d]! * query[d]!;
      out[doc] = a + b + c + e;
    }
    return out;
  }
}

/** `vector` scaled to length 1; undefined for a zero vector. */
function unit(vector: Float32Array): Float32Array | undefined {
  let sum = 0;
  for (const x of vector) sum += x * x;
  return sum > 0 ? vector.map((x) => x / Math.sqrt(sum)) : undefined;
}

/** Rows of `dims` int8s as floats, each scaled to length 1 (a zero row stays zero). */
function unitRows(rows: Int8Array, dims: number): Float32Array {
  const out = new Float32Array(rows.length);
  for (let at = 0; at < rows.length; at += dims) {
    let sum = 0;
    for (let d = at; d < at + dims; d++) sum += rows[d]! * rows[d]!;
    const scale = sum > 0 ? 1 / Math.sqrt(sum) : 0;
    for (let d = at; d < at + dims; d++) out[d] = rows[d]! * scale;
  }
  return out;
}
