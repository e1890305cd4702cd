import { env } from 'cloudflare:workers';
import { beforeEach, describe, expect, it } from 'vitest';
import { clearCatalogCache } from '../../../src/catalog/catalog';
import { toolsFor } from '../../../src/server/registry';
import { TEMPLATE_CATEGORIES } from '../../../src/templates/categories';
import { clearTemplateCache } from '../../../src/templates/templateStore';
import { loadCatalog } from '../../support/catalog';
import { n8nSpecs } from '../../support/n8nCatalog';
import { callInSession } from '../../support/tools';
import { loadTemplates } from '../../templates/templateCatalog';
import { CHAT_AGENT, SLACK_REPORT, WEBHOOK_RELAY } from '../../templates/templateFixtures';

beforeEach(async () => {
  clearTemplateCache();
  await loadTemplates();
});

const ids = (answer: { json: { results: { id: string }[] } }) => answer.json.results.map((r) => r.id);

/** search_templates through the server in workerd, over a catalog of real n8n descriptions and three templates in KV. */
describe('search_templates', () => {
  it('is served to callers with nodes:read, beside search_nodes', () => {
    expect(toolsFor(env).find((t) => t.name === 'search_templates')).toMatchObject({
      scope: 'nodes:read',
      execution: 'direct',
      annotations: { readOnlyHint: true },
    });
  });

  it('finds templates by words, each with where it comes from and what validation found in it', async () => {
    const answer = await callInSession('search_templates', { query: 'relay webhook calls to an api' });
    expect(answer.isError).toBe(false);
    expect(answer.json.results[0]).toEqual({
      id: WEBHOOK_RELAY.id,
      name: WEBHOOK_RELAY.name,
      description: WEBHOOK_RELAY.description,
      node_types: ['n8n-nodes-base.httpRequest', 'n8n-nodes-base.webhook'],
      categories: [],
      licence: 'MIT',
      author: 'ada',
      link: WEBHOOK_RELAY.source.link,
      validation: { valid: false, errors: 1, warnings: 0 },
      relevance_score: expect.any(Number),
    });
    expect(answer.json.total).toBe(answer.json.results.length);
  });

  it('finds templates by the nodes they use, named by type or display name, every one required', async () => {
    expect(ids(await callInSession('search_templates', { nodes: ['Slack'] }))).toEqual([SLACK_REPORT.id]);
    expect(ids(await callInSession('search_templates', { nodes: ['@n8n/n8n-nodes-langchain.agent', 'Calculator'] }))).toEqual([CHAT_AGENT.id]);
    expect(ids(await callInSession('search_templates', { nodes: ['Slack', 'Calculator'] }))).toEqual([]);
    const unused = await callInSession('search_templates', { nodes: ['Slack', 'HubSpot'] });
    expect(unused.json).toEqual({ results: [], total: 0, no_template_uses: ['HubSpot'] });
  });

  it('finds templates by task', async () => {
    expect(ids(await callInSession('search_templates', { category: 'AI' }))).toEqual([CHAT_AGENT.id]);
  });

  it('answers at most max_results', async () => {
    const answer = await callInSession('search_templates', { max_results: 2 });
    expect(answer.json.results).toHaveLength(2);
    expect(answer.json.total).toBe(3);
  });

  it.each([
    ['max_results 0', { max_results: 0 }, /max_results/],
    ['max_results 21', { max_results: 21 }, /max_results/],
    ['a category not on the list', { category: 'Gardening' }, new RegExp(TEMPLATE_CATEGORIES[0])],
    ['no nodes', { nodes: [] }, /nodes/],
    ['11 nodes', { nodes: Array.from({ length: 11 }, (_, i) => `n${i}`) }, /nodes/],
    ['a query of 501 characters', { query: 'x'.repeat(501) }, /query/],
  ])('refuses %s as invalid params', async (_, args, message) => {
    const answer = await callInSession('search_templates', args);
    expect(answer.isError).toBe(true);
    expect(answer.text).toMatch(message);
  });

  it('says so when the catalog loaded was built without templates', async () => {
    await loadCatalog(n8nSpecs, ['n8n']);
    clearCatalogCache();
    const answer = await callInSession('search_templates', { query: 'slack' });
    expect(answer).toMatchObject({ isError: true, text: expect.stringMatching(/built without workflow templates/) });
  });
});
