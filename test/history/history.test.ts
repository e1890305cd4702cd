import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { DEFAULT_LIMITS, historyOf, limitsOf } from '../../src/history/history';

describe('limitsOf', () => {
  it('reads HISTORY_VERSIONS, HISTORY_DAYS, HISTORY_MB and HISTORY_CALLER_MB as positive whole numbers, else the defaults', () => {
    expect(limitsOf({ ...env, HISTORY_VERSIONS: '3', HISTORY_DAYS: '7', HISTORY_MB: '10', HISTORY_CALLER_MB: '2' })).toEqual({
      versions: 3,
      days: 7,
      instanceBytes: 10 * 1_048_576,
      callerBytes: 2 * 1_048_576,
    });
    for (const bad of ['0', '-2', '1.5', 'ten', '']) {
      expect(limitsOf({ ...env, HISTORY_VERSIONS: bad, HISTORY_DAYS: bad, HISTORY_MB: bad, HISTORY_CALLER_MB: bad })).toEqual(DEFAULT_LIMITS);
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
    await a.keep(workflow('shared'), '{}', DEFAULT_LIMITS);
    expect(await (await historyOf(env, 'https://one.example.com/api/v1/')).list('wshared', 10)).toHaveLength(1);
    expect(await (await historyOf(env, 'https://two.example.com/api/v1')).list('wshared', 10)).toEqual([]);
  });
});
