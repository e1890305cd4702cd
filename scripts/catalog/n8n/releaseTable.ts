/**
 * The pure half of `npm run catalog:releases` (releases.ts): which releases to read, and the compact
 * table (src/n8n/releaseTable.ts) made of what was read.
 */
import { setOwn } from '../../../src/lib/ownKeys.ts';
import type { ReleaseTable } from '../../../src/n8n/releaseTable.ts';

/** The typeVersions of every node type one release ships: type → versions. */
export type NodeSet = Map<string, number[]>;

/** The same node set, written one way (equal sets give equal keys). */
export const setKey = (set: NodeSet): string =>
  JSON.stringify([...set].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([type, versions]) => [type, [...versions].sort((a, b) => a - b)]));

/**
 * Reads the node sets of `count` releases (in order) with few reads: every `step`-th one and the last,
 * then between two read releases whose sets differ, the middle one, until each change lies between
 * neighbours. Releases between two read ones with equal sets are taken to have that set too. Answers
 * the indexes read, in order.
 */
export async function sampleAndBisect(count: number, step: number, read: (index: number) => Promise<string>): Promise<number[]> {
  const keys = new Map<number, string>();
  const keyOf = async (i: number) => keys.get(i) ?? keys.set(i, await read(i)).get(i)!;
  const samples = [...new Set([...Array.from({ length: Math.ceil(count / step) }, (_, k) => k * step), count - 1])].filter((i) => i < count);
  for (const i of samples) await keyOf(i);
  const between = async (lo: number, hi: number): Promise<void> => {
    if (hi - lo < 2 || (await keyOf(lo)) === (await keyOf(hi))) return;
    const mid = (lo + hi) >> 1;
    await keyOf(mid);
    await between(lo, mid);
    await between(mid, hi);
  };
  for (let s = 0; s + 1 < samples.length; s++) await between(samples[s]!, samples[s + 1]!);
  return [...keys.keys()].sort((a, b) => a - b);
}

/** The table of the releases read (oldest first): per type and typeVersion, the index ranges that ship it. */
export function encodeTable(read: { release: string; set: NodeSet }[]): ReleaseTable {
  const presence = new Map<string, Map<number, number[]>>();
  for (const [index, { set }] of read.entries()) {
    for (const [type, versions] of set) {
      const byVersion = presence.get(type) ?? presence.set(type, new Map()).get(type)!;
      for (const v of versions) (byVersion.get(v) ?? byVersion.set(v, []).get(v)!).push(index);
    }
  }
  const last = read.length - 1;
  const types: ReleaseTable['types'] = {};
  for (const type of [...presence.keys()].sort()) {
    const versions: { [version: string]: number[] } = {};
    for (const [v, indexes] of [...presence.get(type)!].sort(([a], [b]) => a - b)) {
      const ranges: number[] = [];
      for (const [k, index] of indexes.entries()) {
        if (k === 0 || index !== indexes[k - 1]! + 1) ranges.push(index);
        if (k === indexes.length - 1 || indexes[k + 1] !== index + 1) ranges.push(index);
      }
      // Through the newest release: the end is left off.
      if (ranges.at(-1) === last) ranges.pop();
      setOwn(versions, String(v), ranges);
    }
    setOwn(types, type, versions);
  }
  return { releases: read.map((r) => r.release), types };
}
