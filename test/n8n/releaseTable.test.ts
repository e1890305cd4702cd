import { describe, expect, it } from 'vitest';
import { compareReleases, newestRelease, RELEASE_TABLE, ReleaseNodes, type ReleaseTable } from '../../src/n8n/releaseTable';

const SET = 'n8n-nodes-base.set';

describe('the committed table (npm run catalog:releases)', () => {
  it('runs from n8n 1.0 to the catalog’s release, 2.41', () => {
    expect(RELEASE_TABLE.releases[0]).toBe('1.0.0');
    expect(newestRelease()).toMatch(/^2\.41\./);
    expect([...RELEASE_TABLE.releases].sort(compareReleases)).toEqual(RELEASE_TABLE.releases);
  });

  it('knows n8n 1.123.81 (the trial’s instance) has Edit Fields up to 3.4, not 3.5, which 2.41 has', () => {
    const trial = new ReleaseNodes('1.123.81');
    expect(trial.ships(SET, 3.4)).toBe('yes');
    expect(trial.ships(SET, 3.5)).toBe('no');
    expect(trial.versions(SET).at(-1)).toBe(3.4);
    expect(new ReleaseNodes(newestRelease()).ships(SET, 3.5)).toBe('yes');
    expect(compareReleases(trial.firstShipping(SET, 3.5)!, '1.123.81')).toBeGreaterThan(0);
  });

  it('knows n8n 2 dropped nodes that 1.x had, and the AI nodes came after 1.0', () => {
    const start = 'n8n-nodes-base.start';
    expect(new ReleaseNodes('1.123.81').ships(start, 1)).toBe('yes');
    expect(new ReleaseNodes(newestRelease()).ships(start, 1)).toBe('no');
    expect(new ReleaseNodes('1.0.0').versions('@n8n/n8n-nodes-langchain.agent')).toEqual([]);
    expect(new ReleaseNodes('1.123.81').versions('@n8n/n8n-nodes-langchain.agent').length).toBeGreaterThan(0);
  });
});

describe('ReleaseNodes', () => {
  // Read: 1.10.0, 1.20.0, 1.30.0. "x" 2 came between 1.10 and 1.20 (the releases between were not read).
  const table: ReleaseTable = { releases: ['1.10.0', '1.20.0', '1.30.0'], types: { x: { 1: [0], 2: [1], 3: [2] }, old: { 1: [0, 1] } } };

  it('answers a read release exactly', () => {
    const at = new ReleaseNodes('1.20.0', table);
    expect([at.ships('x', 1), at.ships('x', 2), at.ships('x', 3), at.ships('old', 1)]).toEqual(['yes', 'yes', 'no', 'yes']);
    expect(at.versions('x')).toEqual([1, 2]);
  });

  it('answers a release between two read ones where both agree, and "unknown" where they differ', () => {
    const at = new ReleaseNodes('1.15.3', table);
    expect(at.ships('x', 1)).toBe('yes');
    expect(at.ships('x', 3)).toBe('no');
    expect(at.ships('x', 2)).toBe('unknown');
    expect(at.versions('x')).toEqual([1]);
    expect(at.firstShipping('x', 2)).toBe('1.20.0');
  });

  it('answers "unknown" before the table and for types it does not know; past it, as its newest release', () => {
    expect(new ReleaseNodes('0.236.0', table).ships('x', 1)).toBe('unknown');
    expect(new ReleaseNodes('1.20.0', table).ships('community.node', 1)).toBe('unknown');
    expect(new ReleaseNodes('1.20.0', table).knows('community.node')).toBe(false);
    const later = new ReleaseNodes('2.0.0', table);
    expect([later.ships('x', 3), later.ships('old', 1), later.ships('x', 4)]).toEqual(['yes', 'no', 'no']);
  });

  it('reads type names as own keys only', () => {
    expect(new ReleaseNodes('1.20.0', table).knows('constructor')).toBe(false);
    expect(new ReleaseNodes('1.20.0', table).versions('__proto__')).toEqual([]);
  });
});

describe('compareReleases', () => {
  it('compares the numbers, not the text, and ignores a pre-release tag', () => {
    expect(compareReleases('1.9.0', '1.10.0')).toBeLessThan(0);
    expect(compareReleases('2.0.0', '1.123.81')).toBeGreaterThan(0);
    expect(compareReleases('1.123.81', '1.123.81-exp.1')).toBe(0);
  });
});
