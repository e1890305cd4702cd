import { describe, expect, it } from 'vitest';
import { candidates } from '../../../../scripts/catalog/community/choosePackages';

const facts = new Map([
  ['n8n-nodes-small', { downloads: 10, verified: true }],
  ['n8n-nodes-big', { downloads: 900, verified: false }],
  ['n8n-nodes-tie-verified', { downloads: 500, verified: true }],
  ['n8n-nodes-tie', { downloads: 500, verified: false }],
  ['n8n-nodes-used', { downloads: 1, verified: true }],
]);

describe('choosing community packages', () => {
  it('takes the packages real workflows use first (most used first), then the most downloaded, verified first on a tie', () => {
    const counts = { 'n8n-nodes-used.a': 2, 'n8n-nodes-used.aTool': 1, 'n8n-nodes-other.b': 5, 'n8n-nodes-base.set': 900, 'CUSTOM.x': 3 };
    const list = candidates(counts, facts);
    expect(list.map((c) => c.name)).toEqual([
      'n8n-nodes-other',
      'n8n-nodes-used',
      'n8n-nodes-big',
      'n8n-nodes-tie-verified',
      'n8n-nodes-tie',
      'n8n-nodes-small',
    ]);
    expect(list[1]).toEqual({
      name: 'n8n-nodes-used',
      downloads: 1,
      verified: true,
      used: { 'n8n-nodes-used.a': 2, 'n8n-nodes-used.aTool': 1 },
      why: 'corpus',
    });
    // A corpus package nodes.db does not list is not known to be verified.
    expect(list[0]).toMatchObject({ verified: false, why: 'corpus' });
  });

  it('with the names a registry holds, asks for no other, and adds the node packages it holds that nodes.db lacks', () => {
    const available = new Map([
      ['n8n-nodes-big', 0],
      ['n8n-nodes-extra', 300],
      ['@acme/n8n-nodes-more', 400],
      ['left-pad', 9999],
      ['n8n-nodes-base', 9999],
    ]);
    const list = candidates({ 'n8n-nodes-other.b': 5 }, facts, available);
    expect(list.map((c) => `${c.name} ${c.why}`)).toEqual(['n8n-nodes-big nodes.db', '@acme/n8n-nodes-more registry', 'n8n-nodes-extra registry']);
  });
});
