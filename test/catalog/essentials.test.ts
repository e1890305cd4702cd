import { describe, expect, it } from 'vitest';
import { commonParameters, COMMON_SHARE, MIN_WORKFLOWS, type NodeUsage } from '../../src/catalog/essentials';

const version = (workflows: number, set: Record<string, number>, operations?: NodeUsage[string]['operations']) => ({
  workflows,
  set,
  ...(operations ? { operations } : {}),
});

describe('commonParameters', () => {
  it('takes what at least COMMON_SHARE of the workflows of the newest version set', () => {
    const share = Math.ceil(COMMON_SHARE * 100);
    const common = commonParameters({ '2': version(100, { path: 100, httpMethod: share, authentication: share - 1 }) }, [1, 2]);
    expect(common).toEqual({ version: 2, workflows: 100, parameters: ['path', 'httpMethod'] });
  });

  it('falls back to the nearest version with MIN_WORKFLOWS, the newer on a tie, and counts operations with enough of their own', () => {
    const usage: NodeUsage = {
      '1': version(MIN_WORKFLOWS, { old: MIN_WORKFLOWS }),
      '3': version(
        MIN_WORKFLOWS,
        { newer: MIN_WORKFLOWS },
        {
          'message:send': version(MIN_WORKFLOWS, { to: MIN_WORKFLOWS }),
          'message:get': version(MIN_WORKFLOWS - 1, { id: 1 }),
        },
      ),
      '2': version(MIN_WORKFLOWS - 1, { thin: MIN_WORKFLOWS - 1 }),
    };
    expect(commonParameters(usage, [2])).toEqual({ version: 3, workflows: MIN_WORKFLOWS, parameters: ['newer'], operations: { 'message:send': ['to'] } });
    expect(commonParameters(usage, [1, 1.1])?.version).toBe(1);
  });

  it('takes the best counted version when none has enough, and gives nothing for a node no workflow uses', () => {
    expect(commonParameters({ '1': version(2, { a: 2 }), '2': version(1, { b: 1 }) }, [2])).toEqual({ version: 1, workflows: 2, parameters: ['a'] });
    expect(commonParameters(undefined, [1])).toBeUndefined();
    expect(commonParameters({}, [1])).toBeUndefined();
  });
});
