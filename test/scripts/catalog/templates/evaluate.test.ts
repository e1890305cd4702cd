import { describe, expect, it } from 'vitest';
import { contains, score } from '../../../../scripts/catalog/templates/evaluate';
import { TemplateSearcher } from '../../../../src/templates/rankTemplates';
import { buildTemplateIndex } from '../../../../src/templates/searchIndex';
import { record } from '../../../templates/templateFixtures';

const searcher = new TemplateSearcher(
  buildTemplateIndex(
    [
      record('aaaaaaaaaaaa', 'Slack alerts', ['n8n-nodes-base.slack']),
      record('bbbbbbbbbbbb', 'Slack and Gmail alerts', ['n8n-nodes-base.slack', 'n8n-nodes-base.gmail']),
    ],
    () => undefined,
  ),
);

describe('template search quality', () => {
  it('counts the share of the first templates that hold every node asked for, first templates that do, and the reciprocal rank of the first that does', () => {
    const { precision, top1, mrr, rows } = score(searcher, [
      { q: 'slack alerts', nodes: ['n8n-nodes-base.slack'] },
      { q: 'slack alerts', nodes: ['n8n-nodes-base.gmail'] },
      { q: 'nothing matches this', nodes: ['n8n-nodes-base.slack'] },
    ]);
    expect(rows.map((r) => [r.precision, r.top1, r.reciprocalRank])).toEqual([
      [1, true, 1],
      [0.5, false, 0.5],
      [0, false, 0],
    ]);
    expect(precision).toBeCloseTo(0.5);
    expect(top1).toBeCloseTo(1 / 3);
    expect(mrr).toBeCloseTo(0.5);
  });

  it("takes a node's tool variant for the node, and not its trigger", () => {
    expect(contains(['n8n-nodes-base.notionTool'], 'n8n-nodes-base.notion')).toBe(true);
    expect(contains(['n8n-nodes-base.telegramTrigger'], 'n8n-nodes-base.telegram')).toBe(false);
    expect(contains(['n8n-nodes-base.telegram'], 'n8n-nodes-base.telegramTrigger')).toBe(false);
  });
});
