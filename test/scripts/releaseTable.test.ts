import { describe, expect, it } from 'vitest';
import { encodeTable, sampleAndBisect, setKey, type NodeSet } from '../../scripts/catalog/n8n/releaseTable';
import { ReleaseNodes } from '../../src/n8n/releaseTable';

describe('sampleAndBisect', () => {
  it('reads the samples, then bisects down to the neighbours around each change, and nothing between equal samples', async () => {
    // Node sets of 40 releases: the set changes after release 13 and after release 30.
    const truth = (i: number) => (i <= 13 ? 'a' : i <= 30 ? 'b' : 'c');
    const reads: number[] = [];
    const read = await sampleAndBisect(40, 8, async (i) => (reads.push(i), truth(i)));
    expect(reads.length).toBe(new Set(reads).size);
    expect(read).toEqual([...reads].sort((a, b) => a - b));
    for (const change of [13, 30]) expect(read).toEqual(expect.arrayContaining([change, change + 1]));
    // Samples 0, 8, 16, 24, 32, 39: the stretch 16…24 is equal at both ends and is not read inside.
    expect(read.filter((i) => i > 16 && i < 24)).toEqual([]);
    expect(read.length).toBeLessThan(16);
  });

  it('reads every release when there are fewer than a step', async () => {
    expect(await sampleAndBisect(3, 8, async (i) => String(i))).toEqual([0, 1, 2]);
  });
});

describe('encodeTable', () => {
  const set = (entries: [string, number[]][]): NodeSet => new Map(entries);
  const read = [
    {
      release: '1.0.0',
      set: set([
        ['n.set', [1, 2]],
        ['n.old', [1]],
      ]),
    },
    {
      release: '1.20.0',
      set: set([
        ['n.set', [1, 2, 3]],
        ['n.old', [1]],
      ]),
    },
    {
      release: '1.123.81',
      set: set([
        ['n.set', [1, 2, 3, 3.4]],
        ['n.old', [1]],
      ]),
    },
    { release: '2.0.0', set: set([['n.set', [1, 2, 3, 3.4, 3.5]]]) },
  ];

  it('gives each typeVersion the index ranges of the releases that ship it, open-ended through the newest', () => {
    expect(encodeTable(read)).toEqual({
      releases: ['1.0.0', '1.20.0', '1.123.81', '2.0.0'],
      types: { 'n.old': { 1: [0, 2] }, 'n.set': { 1: [0], 2: [0], 3: [1], 3.4: [2], 3.5: [3] } },
    });
  });

  it('round-trips: what the table answers for a read release is what was read', () => {
    const table = encodeTable(read);
    for (const { release, set: nodes } of read) {
      const at = new ReleaseNodes(release, table);
      for (const type of ['n.set', 'n.old']) expect(at.versions(type)).toEqual(nodes.get(type) ?? []);
    }
  });

  it('writes equal sets the same way, whatever their order', () => {
    expect(
      setKey(
        set([
          ['b', [2, 1]],
          ['a', [1]],
        ]),
      ),
    ).toBe(
      setKey(
        set([
          ['a', [1]],
          ['b', [1, 2]],
        ]),
      ),
    );
  });
});
