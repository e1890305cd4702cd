import { describe, expect, it } from 'vitest';
import { buildSearchIndex, COMMUNITY, decodePostings, INDEX_VERSION, usagePrior } from '../../../src/catalog/search/buildIndex';
import { int8s } from '../../../src/catalog/search/semantic';
import { stem } from '../../../src/catalog/search/tokenize';
import type { NodeSpec } from '../../../src/catalog/nodeSpec';
import { Searcher } from '../../../src/catalog/search/search';
import { spec } from '../../support/catalog';
import { fixtureTable } from '../../support/wordTable';

const n8n = (name: string, display_name: string, overrides: Partial<NodeSpec> = {}) =>
  spec(`n8n-nodes-base.${name}`, { display_name, source: 'n8n', description: `Consume the ${display_name} API`, ...overrides });

describe('buildSearchIndex', () => {
  const catalog = [n8n('crypto', 'Crypto'), n8n('mailgun', 'Mailgun'), n8n('mailjet', 'Mailjet')];
  const term = (word: string) => stem(word);

  it('records the nodes builders mostly mean by a term: a fifth of its uses or more, in two workflows or more', () => {
    const names = {
      'n8n-nodes-base.crypto': { 'Generate UUID': 4, 'Hash it': 1 },
      'n8n-nodes-base.mailgun': { 'Generate report': 12 },
      'n8n-nodes-base.mailjet': { 'Generate newsletter': 1 },
    };
    const index = buildSearchIndex(catalog, { counts: {}, names });
    const doc = (name: string) => index.docs.findIndex(([, subtype]) => subtype === `n8n-nodes-base.${name}`);
    expect(decodePostings(index.meant[term('generate')]!)).toEqual([doc('crypto'), 24, doc('mailgun'), 71]);
    expect(decodePostings(index.meant[term('uuid')]!)).toEqual([doc('crypto'), 100]);
    expect(index.meant[term('hash')]).toBeUndefined();
  });
});

describe('the index format', () => {
  const catalog = [
    n8n('crypto', 'Crypto', { description: 'Hash and sign values' }),
    spec('n8n-nodes-tavily.tavily', {
      display_name: 'Tavily Search',
      description: 'Search the web',
      community: { package: '@tavily/n8n-nodes-tavily', version: '0.5.1', verified: true, install: 'npm install @tavily/n8n-nodes-tavily' },
    }),
  ];

  it('is of its own version, with node vectors only when built with a word table', () => {
    expect(INDEX_VERSION).toBe(4);
    const lexical = buildSearchIndex(catalog);
    expect(lexical.version).toBe(INDEX_VERSION);
    expect(lexical.semantic).toBeUndefined();
    const { semantic } = buildSearchIndex(catalog, undefined, fixtureTable());
    expect(semantic!.dims).toBe(4);
    expect(semantic!.words.split(' ')).toEqual(fixtureTable().words);
    expect(int8s(semantic!.docVectors)).toHaveLength(catalog.length * 4);
    expect(int8s(semantic!.wordVectors)).toEqual(fixtureTable().vectors);
  });

  it("marks community nodes and keeps the words of their name and package that no n8n node's text has", () => {
    const index = buildSearchIndex(catalog);
    expect(index.docs.map(([, , , , flags]) => flags & COMMUNITY)).toEqual([0, COMMUNITY]);
    // "search" is a word of n8n's nodes only when one of them says it: here none does.
    expect(index.ownNames).toEqual([[], ['tavili', 'search']]);
    const withSearch = buildSearchIndex([n8n('httpRequest', 'HTTP Request', { description: 'Search anything' }), ...catalog]);
    expect(withSearch.ownNames[2]).toEqual(['tavili']);
  });
});

describe('usagePrior', () => {
  it('scales counts by their logarithm to 0–100 and gives replaced nodes none', () => {
    const specs = [n8n('a', 'A'), n8n('b', 'B'), n8n('c', 'C'), n8n('d', 'D', { hidden: true }), n8n('e', 'E', { legacy: true })];
    const prior = usagePrior(specs, { 'n8n-nodes-base.a': 99, 'n8n-nodes-base.b': 9, 'n8n-nodes-base.d': 500, 'n8n-nodes-base.e': 500 });
    expect(prior).toEqual([100, 50, 0, 0, 0]);
    expect(usagePrior(specs, {})).toEqual([0, 0, 0, 0, 0]);
  });
});

describe("people's words for a node", () => {
  const catalog = [
    n8n('pagerDuty', 'PagerDuty', { description: 'Consume the PagerDuty API' }),
    n8n('postgres', 'Postgres', { description: 'Get, add and update data in Postgres' }),
    n8n('slack', 'Slack', { description: 'Consume the Slack API' }),
  ];
  const words = {
    'n8n-nodes-base.pagerDuty': { names: ['PD'], jobs: ['page the on-call engineer', 'escalate an alert'], domain: ['incident management'] },
    'n8n-nodes-base.postgres': { names: ['pg'], jobs: ['run a SQL query'], domain: ['database'] },
  };
  const top = (index: ReturnType<typeof buildSearchIndex>, query: string) => new Searcher(index).search(query, 3)[0]?.subtype;

  it('finds a node by a job, another name or a field its own text never says', () => {
    const index = buildSearchIndex(catalog, undefined, undefined, words);
    expect(top(index, 'escalate an alert')).toBe('n8n-nodes-base.pagerDuty');
    expect(top(index, 'pg')).toBe('n8n-nodes-base.postgres');
    expect(top(index, 'incident management')).toBe('n8n-nodes-base.pagerDuty');
  });

  it("gives a tool variant its node's words, and nothing without them", () => {
    const tool = n8n('pagerDutyTool', 'PagerDuty Tool', {
      node_type: 'TOOL_NODE',
      tool_of: 'n8n-nodes-base.pagerDuty',
      description: 'Consume the PagerDuty API',
    });
    const index = buildSearchIndex([...catalog, tool], undefined, undefined, words);
    expect(new Searcher(index).search('page the on-call agent tool', 3).map((h) => h.subtype)).toContain('n8n-nodes-base.pagerDutyTool');
    expect(top(buildSearchIndex(catalog), 'escalate an alert')).toBeUndefined();
  });
});
