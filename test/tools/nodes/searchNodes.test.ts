import { beforeEach, describe, expect, it } from 'vitest';
import { loadCatalog } from '../../support/catalog';
import { callInSession } from '../../support/tools';

beforeEach(async () => {
  await loadCatalog();
});

describe('search_nodes', () => {
  it('ranks nodes with relevance scores', async () => {
    const hits = (await callInSession('search_nodes', { query: 'send email notification', max_results: 5 })).json;
    expect(hits.length).toBeGreaterThan(0);
    expect(hits.length).toBeLessThanOrEqual(5);
    expect(hits[0]).toEqual({
      node_type: expect.any(String),
      subtype: expect.any(String),
      display_name: expect.any(String),
      description: expect.any(String),
      relevance_score: expect.any(Number),
    });
    expect(hits.map((h: { subtype: string }) => h.subtype)).toContain('EXTERNAL_EMAIL');
  });

  it('includes essentials of each node when asked', async () => {
    const [hit] = (await callInSession('search_nodes', { query: 'http request', max_results: 1, include_details: true })).json;
    // The detail asked is the one answered, however small the spec.
    expect(hit).toMatchObject({ subtype: 'HTTP_REQUEST', detail: 'essentials', parameters: expect.any(Array), relevance_score: expect.any(Number) });
  });

  it.each([
    [{ query: '   ' }, /query must not be empty/],
    [{ query: 'x', max_results: 0 }, /max_results/],
    [{ query: 'x', max_results: 51 }, /max_results/],
  ])('refuses %j as invalid params', async (args, message) => {
    const result = await callInSession('search_nodes', args);
    expect(result.isError).toBe(true);
    expect(result.text).toMatch(message);
  });
});
