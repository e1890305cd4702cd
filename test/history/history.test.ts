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
  it('gives one history per n8n instance: the same for the same API URL, another for another', async () => {
    const at = (apiBase: string) => historyOf(env, { apiBase, apiKey: 'k' });
    await (await at('https://one.example.com/api/v1')).keep(workflow('shared'), '{}', DEFAULT_LIMITS);
    expect(await (await at('https://one.example.com/api/v1/')).list('wshared', 10)).toHaveLength(1);
    expect(await (await at('https://two.example.com/api/v1')).list('wshared', 10)).toEqual([]);
  });

  it("gives a workspace's connection its own history, by its id: two workspaces on one n8n stay apart, a rename keeps it", async () => {
    const connection = (workspace: string, name: string, id: string) => ({
      apiBase: 'https://one.example.com/api/v1',
      apiKey: 'k',
      instance: { workspace, name, id },
    });
    const mine = await historyOf(env, connection('aaaaaaaaaaaa', 'prod', '0000000000000001'));
    await mine.keep({ ...workflow('ws'), workflowId: 'wws' }, '{}', DEFAULT_LIMITS);
    expect(await (await historyOf(env, connection('aaaaaaaaaaaa', 'renamed', '0000000000000001'))).list('wws', 10)).toHaveLength(1);
    expect(await (await historyOf(env, connection('bbbbbbbbbbbb', 'prod', '0000000000000001'))).list('wws', 10)).toEqual([]);
    expect(await (await historyOf(env, { apiBase: 'https://one.example.com/api/v1', apiKey: 'k' })).list('wws', 10)).toEqual([]);
  });
});
