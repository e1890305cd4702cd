import { describe, expect, it } from 'vitest';
import { validateNode } from '../../src/workflows/validateNode';
import { n8nCatalog } from '../support/n8nCatalog';
import { fromJson, withPrototypesUnchanged } from '../support/specialNames';

describe('validate_node', () => {
  it('takes a node, parameters and credentials named like Object.prototype’s properties as names', () => {
    const result = withPrototypesUnchanged(() =>
      validateNode(
        {
          name: '__proto__',
          type: 'n8n-nodes-base.slack',
          typeVersion: 2.3,
          parameters: fromJson([
            ['select', 'channel'],
            ['channelId', { __rl: true, mode: 'id', value: 'C1' }],
            ['text', 'hi'],
            ['__proto__', { resource: 'user' }],
            ['constructor', 'x'],
          ]),
          credentials: fromJson([['__proto__', { id: '1', name: 'Slack' }]]),
        },
        n8nCatalog,
      ),
    );
    expect(result.errors).toEqual([]);
    expect(result.warnings.map((f) => `${f.code}@${f.node}:${f.path}`)).toEqual([
      'unknown_parameter@__proto__:parameters.__proto__',
      'unknown_parameter@__proto__:parameters.constructor',
      'missing_credentials@__proto__:credentials',
    ]);
  });
});
