import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { DEFAULT_RETENTION, historyOf, retentionOf } from '../../src/history/history';

describe('retentionOf', () => {
  it('reads HISTORY_VERSIONS and HISTORY_DAYS as positive whole numbers, else the defaults', () => {
    expect(retentionOf({ ...env, HISTORY_VERSIONS: '3', HISTORY_DAYS: '7' })).toEqual({ versions: 3, days: 7 });
    for (const bad of ['0', '-2', '1.5', 'ten', '']) {
      expect(retentionOf({ ...env, HISTORY_VERSIONS: bad, HISTORY_DAYS: bad })).toEqual(DEFAULT_RETENTION);
    }
  });
});

describe('historyOf', () => {
  it('gives one history per n8n instance: the same for the same API URL, another for another', async () => {
    const workflow = (suffix: string) => ({
      workflowId: `w${suffix}`,
      name: 'W',
      versionId: null,
      active: false,
      nodes: 0,
      by: 'key_t',
      change: 'update' as const,
      reason: 'test',
    });
    const a = await historyOf(env, 'https://one.example.com/api/v1');
    await a.keep(workflow('shared'), '{}', DEFAULT_RETENTION);
    expect(await (await historyOf(env, 'https://one.example.com/api/v1/')).list('wshared', 10)).toHaveLength(1);
    expect(await (await historyOf(env, 'https://two.example.com/api/v1')).list('wshared', 10)).toEqual([]);
  });
});
