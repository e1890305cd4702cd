import { describe, expect, it } from 'vitest';
import { templateIndexKey, templateKey } from '../../src/catalog/keys';
import { buildTemplateIndex, cardOf, shorten, TEMPLATE_INDEX_VERSION, templateEntries, type TemplateIndex } from '../../src/templates/searchIndex';
import { spec } from '../support/catalog';
import { FIXTURE_TEMPLATES, record, SLACK_REPORT } from './templateFixtures';

const weights = (index: TemplateIndex, term: string): Map<string, number> => {
  const pairs = (index.postings[term] ?? '')
    .split(' ')
    .filter(Boolean)
    .map((n) => parseInt(n, 36));
  const byId = new Map<string, number>();
  for (let i = 0; i < pairs.length; i += 2) byId.set(index.cards[pairs[i]!]!.id, pairs[i + 1]!);
  return byId;
};

describe('the template search index', () => {
  it('cuts a description at a word, marking the cut', () => {
    expect(shorten('short  and\nsweet')).toBe('short and sweet');
    const cut = shorten('word '.repeat(100), 30);
    expect(cut.length).toBeLessThanOrEqual(30);
    expect(cut).toMatch(/^word( word)*…$/);
  });

  it('lists each template as a card: what search answers, the start of its description, its validation in numbers', () => {
    const long = record('aaaaaaaaaaaa', 'Long one', ['n8n-nodes-base.slack'], {
      description: 'x '.repeat(300),
      validation: { valid: false, errors: 2, warnings: 1, first: ['a', 'b'] },
    });
    const card = cardOf(long);
    expect(card).toEqual({
      id: 'aaaaaaaaaaaa',
      name: 'Long one',
      description: expect.stringMatching(/…$/),
      node_types: ['n8n-nodes-base.slack'],
      categories: [],
      licence: 'MIT',
      author: 'ada',
      link: expect.stringMatching(/^https:\/\/github\.com\//),
      validation: { valid: false, errors: 2, warnings: 1 },
    });
    expect(card.description!.length).toBeLessThanOrEqual(200);
  });

  it("indexes the words of the name above those of the sticky notes, and the nodes' names and what they do", () => {
    const index = buildTemplateIndex(
      [
        record('aaaaaaaaaaaa', 'Invoice reminder', ['n8n-nodes-base.gmail']),
        record('bbbbbbbbbbbb', 'Weekly digest', ['n8n-nodes-base.slack'], { notes: ['Also chases an invoice now and then'] }),
      ],
      (type) => (type === 'n8n-nodes-base.gmail' ? { display_name: 'Gmail', description: 'Consume the Gmail API' } : undefined),
    );
    expect(index.version).toBe(TEMPLATE_INDEX_VERSION);
    const invoice = weights(index, 'invoic');
    expect(invoice.get('aaaaaaaaaaaa')!).toBeGreaterThan(invoice.get('bbbbbbbbbbbb')!);
    expect(weights(index, 'gmail').has('aaaaaaaaaaaa')).toBe(true);
    expect(weights(index, 'consum').has('aaaaaaaaaaaa')).toBe(true);
    // A node the catalog does not know is named by its type.
    expect(index.nodes).toEqual({ 'n8n-nodes-base.gmail': 'Gmail', 'n8n-nodes-base.slack': 'slack' });
    expect(weights(index, 'slack').has('bbbbbbbbbbbb')).toBe(true);
  });

  it('weighs a word naming a node the template uses above any amount of the word in its text', () => {
    const index = buildTemplateIndex(
      [
        record('aaaaaaaaaaaa', 'Alerts', ['n8n-nodes-base.telegram']),
        record('bbbbbbbbbbbb', 'Telegram alerts for Telegram', ['n8n-nodes-base.slack'], {
          description: 'Telegram, Telegram, Telegram',
          notes: ['Telegram '.repeat(50)],
        }),
      ],
      (type) => (type === 'n8n-nodes-base.telegram' ? { display_name: 'Telegram', description: 'Sends data to Telegram' } : undefined),
    );
    const telegram = weights(index, 'telegram');
    expect(telegram.get('aaaaaaaaaaaa')!).toBeGreaterThan(telegram.get('bbbbbbbbbbbb')!);
  });

  it('gives the KV entries under the version: each template whole, then the index; none without templates', () => {
    const validated = FIXTURE_TEMPLATES.map((t) => ({ ...t, validation: { valid: true, errors: 0, warnings: 0, first: [] }, fixes: [] }));
    const entries = templateEntries('v1', validated, [spec('n8n-nodes-base.slack', { display_name: 'Slack', categories: ['Communication'] })]);
    expect(entries.map((e) => e.key)).toEqual([...FIXTURE_TEMPLATES.map((t) => templateKey('v1', t.id)), templateIndexKey('v1')]);
    expect(JSON.parse(entries[0]!.value)).toMatchObject({ ...SLACK_REPORT, node_types: ['n8n-nodes-base.scheduleTrigger', 'n8n-nodes-base.slack'] });
    expect((JSON.parse(entries.at(-1)!.value) as TemplateIndex).nodes['n8n-nodes-base.slack']).toBe('Slack');
    expect(templateEntries('v1', [], [])).toEqual([]);
  });
});
