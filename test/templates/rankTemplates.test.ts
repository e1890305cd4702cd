import { describe, expect, it } from 'vitest';
import { TemplateSearcher } from '../../src/templates/rankTemplates';
import { buildTemplateIndex, type NodeText } from '../../src/templates/searchIndex';
import type { TemplateRecord } from '../../src/templates/template';
import { record } from './templateFixtures';

const NODES: Record<string, NodeText> = {
  'n8n-nodes-base.telegramTrigger': { display_name: 'Telegram Trigger', description: 'Starts the workflow on a Telegram update' },
  'n8n-nodes-base.telegram': { display_name: 'Telegram', description: 'Sends data to Telegram' },
  'n8n-nodes-base.slack': { display_name: 'Slack', description: 'Consume Slack API' },
  'n8n-nodes-base.googleSheets': { display_name: 'Google Sheets', description: 'Read, update and write data to Google Sheets' },
  'n8n-nodes-base.ssh': { display_name: 'SSH', description: 'Execute commands via SSH' },
  '@n8n/n8n-nodes-langchain.lmChatOpenAi': { display_name: 'OpenAI Chat Model', description: 'For advanced usage with an AI chain' },
};

const searcher = (records: TemplateRecord[]) => new TemplateSearcher(buildTemplateIndex(records, (type) => NODES[type]));

const TELEGRAM_BOT = record(
  'aaaaaaaaaaaa',
  'Telegram AI chatbot',
  ['n8n-nodes-base.telegramTrigger', '@n8n/n8n-nodes-langchain.lmChatOpenAi', 'n8n-nodes-base.telegram'],
  {
    categories: ['AI'],
  },
);
const SHEETS_TO_SLACK = record('bbbbbbbbbbbb', 'Post new spreadsheet rows to Slack', ['n8n-nodes-base.googleSheets', 'n8n-nodes-base.slack'], {
  categories: ['Data'],
  notes: ['Reads the sheet every hour. Tip: a Telegram node works here too.'],
});
const SLACK_BOT = record('cccccccccccc', 'Slack AI chatbot', ['n8n-nodes-base.slack', '@n8n/n8n-nodes-langchain.lmChatOpenAi'], {
  categories: ['AI'],
  validation: { valid: false, errors: 1, warnings: 0, first: ['x'] },
});
const ALL = [TELEGRAM_BOT, SHEETS_TO_SLACK, SLACK_BOT];

const ids = (results: { id: string }[]) => results.map((r) => r.id);

describe('TemplateSearcher', () => {
  it("ranks by the query's words, a template named by them first", () => {
    const { results, total } = searcher(ALL).search({ query: 'telegram chatbot', max: 5 });
    expect(ids(results)[0]).toBe(TELEGRAM_BOT.id);
    expect(results[0]!.relevance_score).toBeGreaterThan(results[1]?.relevance_score ?? 0);
    expect(total).toBe(results.length);
  });

  it('ranks a template using the node a query names above one whose notes and description only talk of it', () => {
    const talker = record('dddddddddddd', 'Reply to customers', ['n8n-nodes-base.slack'], {
      description: 'Replies on Slack; for Telegram, see the notes.',
      notes: ['Works for Telegram too: swap the Slack node for a Telegram node, point your Telegram bot here, and Telegram users get replies.'],
    });
    const replier = record('eeeeeeeeeeee', 'Answer questions', ['n8n-nodes-base.telegramTrigger', 'n8n-nodes-base.telegram']);
    expect(ids(searcher([talker, replier, SHEETS_TO_SLACK]).search({ query: 'telegram', max: 5 }).results)[0]).toBe(replier.id);
  });

  it('finds a template by what n8n says one of its nodes does', () => {
    const deploy = record('dddddddddddd', 'Nightly deploy', ['n8n-nodes-base.ssh']);
    expect(ids(searcher([...ALL, deploy]).search({ query: 'run commands on a server', max: 5 }).results)).toEqual([deploy.id]);
  });

  it('gives a template that does not validate a little less than the same one that does', () => {
    const valid = record('dddddddddddd', 'Telegram digest', ['n8n-nodes-base.telegram']);
    const invalid = { ...valid, id: 'eeeeeeeeeeee', validation: { valid: false, errors: 1, warnings: 0, first: ['x'] } };
    const [first, second] = searcher([invalid, valid]).search({ query: 'telegram digest', max: 5 }).results;
    expect(first!.id).toBe(valid.id);
    expect(second!.relevance_score).toBeCloseTo(0.95 * first!.relevance_score, 1);
  });

  it("answers a template's card with its score, never its workflow", () => {
    const [hit] = searcher(ALL).search({ query: 'spreadsheet', max: 1 }).results;
    expect(hit).toMatchObject({ id: SHEETS_TO_SLACK.id, name: SHEETS_TO_SLACK.name, licence: 'MIT', author: 'ada', relevance_score: expect.any(Number) });
    expect(hit).not.toHaveProperty('workflow');
  });

  it('leaves out templates far below the best, that share only a word most templates have', () => {
    const reports = ['Sales', 'Weather', 'Uptime', 'Expense', 'Traffic'].map((topic, i) =>
      record(`${i}`.repeat(12), `${topic} report`, ['n8n-nodes-base.slack']),
    );
    const telegram = record('ffffffffffff', 'Telegram report', ['n8n-nodes-base.telegram']);
    const { results } = searcher([...reports, telegram]).search({ query: 'telegram report', max: 5 });
    expect(ids(results)).toEqual([telegram.id]);
    // Asked for that word alone, they all match alike.
    expect(searcher([...reports, telegram]).search({ query: 'report', max: 10 }).total).toBe(6);
  });

  it('keeps only templates that use every node asked for, by type, type name or display name, in any case', () => {
    const search = searcher(ALL);
    for (const nodes of [
      ['n8n-nodes-base.slack', 'OpenAI Chat Model'],
      ['slack', 'lmChatOpenAi'],
      ['SLACK', 'openai chat model'],
    ]) {
      expect(ids(search.search({ nodes, max: 5 }).results)).toEqual([SLACK_BOT.id]);
    }
    expect(ids(search.search({ nodes: ['Slack'], max: 5 }).results).sort()).toEqual([SHEETS_TO_SLACK.id, SLACK_BOT.id]);
  });

  it('says which nodes asked for no template uses, and answers none', () => {
    expect(searcher(ALL).search({ nodes: ['Slack', 'n8n-nodes-base.hubspot'], max: 5 })).toEqual({
      results: [],
      total: 0,
      no_template_uses: ['n8n-nodes-base.hubspot'],
    });
  });

  it('keeps only templates of the category asked for', () => {
    expect(ids(searcher(ALL).search({ category: 'Data', max: 5 }).results)).toEqual([SHEETS_TO_SLACK.id]);
    expect(ids(searcher(ALL).search({ query: 'chatbot', category: 'Data', max: 5 }).results)).toEqual([]);
  });

  it('without words, answers every template that passes, valid ones first, then by name', () => {
    expect(ids(searcher(ALL).search({ max: 5 }).results)).toEqual([SHEETS_TO_SLACK.id, TELEGRAM_BOT.id, SLACK_BOT.id]);
    expect(ids(searcher(ALL).search({ query: 'the of and', max: 5 }).results)).toHaveLength(3);
  });

  it('answers at most max_results, and how many matched', () => {
    const { results, total } = searcher(ALL).search({ max: 2 });
    expect(results).toHaveLength(2);
    expect(total).toBe(3);
  });

  it('knows which ids it has', () => {
    expect(searcher(ALL).has(SLACK_BOT.id)).toBe(true);
    expect(searcher(ALL).has('dddddddddddd')).toBe(false);
  });
});
