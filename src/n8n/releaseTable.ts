/**
 * Which node typeVersions each n8n release ships: the committed table typeVersionsByRelease.json
 * (built by `npm run catalog:releases`, scripts/catalog/n8n/releases.ts, from the n8n-nodes-base and
 * @n8n/n8n-nodes-langchain each release pins) and the lookups on it. Pure.
 */
import { own } from '../lib/ownKeys';
import committed from './typeVersionsByRelease.json';

export interface ReleaseTable {
  /** The n8n releases whose node sets were read, oldest first: the axis the ranges index. */
  releases: string[];
  /**
   * Per node type, per typeVersion (as String(version)): the releases that ship it as index ranges
   * [from, to, from, to, …], both ends included; an odd length means the last range runs through the
   * newest release.
   */
  types: { [type: string]: { [version: string]: number[] } };
}

export const RELEASE_TABLE = committed as ReleaseTable;

/** Whether a release ships a typeVersion: "unknown" when the table cannot tell (see `ships`). */
export type Shipped = 'yes' | 'no' | 'unknown';

/** `a.b.c` compared as numbers; anything after the third number (a pre-release tag) is ignored. */
export function compareReleases(a: string, b: string): number {
  const [x, y] = [a, b].map((r) => (/^(\d+)\.(\d+)\.(\d+)/.exec(r) ?? []).slice(1, 4).map(Number));
  for (let i = 0; i < 3; i++) if (x![i] !== y![i]) return (x![i] ?? 0) - (y![i] ?? 0);
  return 0;
}

/** A release as n8n names it: three numbers, maybe a pre-release tag. */
export const isRelease = (text: string): boolean => /^\d+\.\d+\.\d+(?:-[\w.]+)?$/.test(text);

const covers = (ranges: readonly number[], index: number): boolean => {
  for (let i = 0; i < ranges.length; i += 2) if (index >= ranges[i]! && (i + 1 === ranges.length || index <= ranges[i + 1]!)) return true;
  return false;
};

/** The n8n catalog release the table ends with: what "the newest" means without an instance. */
export const newestRelease = (table: ReleaseTable = RELEASE_TABLE): string => table.releases.at(-1)!;

/**
 * What one n8n release has, by the table: each question answered "yes", "no" or "unknown". A release
 * on the table's axis is known exactly; one between two read releases is known where both agree (the
 * build read every release where anything changed, down to neighbours); one older than the table is
 * unknown; one newer has what the newest read release has.
 */
export class ReleaseNodes {
  /** Index of the last read release at or before this one (-1: older than all), and whether it is this one. */
  private readonly at: number;
  private readonly exact: boolean;

  constructor(
    readonly release: string,
    private readonly table: ReleaseTable = RELEASE_TABLE,
  ) {
    let at = -1;
    while (at + 1 < table.releases.length && compareReleases(table.releases[at + 1]!, release) <= 0) at++;
    this.at = at;
    this.exact = at >= 0 && compareReleases(table.releases[at]!, release) === 0;
  }

  /** Whether the table knows the node type at all (community nodes and types newer than it are not judged). */
  knows(type: string): boolean {
    return own(this.table.types, type) !== undefined;
  }

  ships(type: string, version: number): Shipped {
    const versions = own(this.table.types, type);
    if (!versions || this.at < 0) return 'unknown';
    const ranges = own(versions, String(version)) ?? [];
    const here = covers(ranges, this.at);
    if (this.exact || this.at === this.table.releases.length - 1) return here ? 'yes' : 'no';
    return here === covers(ranges, this.at + 1) ? (here ? 'yes' : 'no') : 'unknown';
  }

  /** The typeVersions of a type this release surely has, oldest first. */
  versions(type: string): number[] {
    const versions = own(this.table.types, type);
    if (!versions) return [];
    return Object.keys(versions)
      .map(Number)
      .filter((v) => this.ships(type, v) === 'yes')
      .sort((a, b) => a - b);
  }

  /** The first read release that ships a typeVersion, if any does. */
  firstShipping(type: string, version: number): string | undefined {
    const from = own(own(this.table.types, type) ?? {}, String(version))?.[0];
    return from === undefined ? undefined : this.table.releases[from];
  }
}
