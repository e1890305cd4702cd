import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { clearCatalogCache } from '../../../src/catalog/catalog';
import { CURRENT_KEY } from '../../../src/catalog/keys';
import { rankNodes } from '../../../src/catalog/search/rankNodes';
import type { Env } from '../../../src/env';
import { loadCatalog } from '../../support/catalog';

/** The deployment's variables with a metrics dataset that keeps what it is given. */
function withMetrics(): { env: Env; points: AnalyticsEngineDataPoint[] } {
  const points: AnalyticsEngineDataPoint[] = [];
  return { env: { ...env, METRICS: { writeDataPoint: (point) => void points.push(point ?? {}) } }, points };
}

describe('rankNodes', () => {
  it('ranks the loaded catalog’s nodes for a query, at most as many as asked, within a node type when asked', async () => {
    await loadCatalog();
    const hits = (await rankNodes(env, 'http request', 3))!;
    expect(hits[0]!.subtype).toBe('HTTP_REQUEST');
    expect(hits.length).toBeLessThanOrEqual(3);
    const triggers = (await rankNodes(env, 'http request webhook', 10, 'TRIGGER_NODE'))!;
    expect(triggers.length).toBeGreaterThan(0);
    expect(triggers.every((h) => h.node_type === 'TRIGGER_NODE')).toBe(true);
  });

  it('records each search in the metrics: its time, its hits, and the length of the query, never the query', async () => {
    await loadCatalog();
    const { env: metered, points } = withMetrics();
    const hits = (await rankNodes(metered, 'send a secret message', 5))!;
    expect(points).toHaveLength(1);
    expect(JSON.stringify(points)).not.toContain('secret');
    expect(points[0]).toMatchObject({ indexes: ['search'], doubles: [expect.any(Number), hits.length, 'send a secret message'.length] });
  });

  it('answers null when no catalog is loaded', async () => {
    await env.SPECS.delete(CURRENT_KEY);
    clearCatalogCache();
    expect(await rankNodes(env, 'http request', 3)).toBeNull();
  });
});
