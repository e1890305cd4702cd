import { describe, expect, it } from 'vitest';
import { closeMatches, editDistance, validateNode } from '../../src/workflows/validateNode';
import { Findings } from '../../src/workflows/findings';
import { validateWorkflow } from '../../src/workflows/validateWorkflow';
import { n8nCatalog, node } from '../support/n8nCatalog';
import { fromJson, withPrototypesUnchanged } from '../support/specialNames';

describe('validate_node', () => {
  it('reads a value holding an own toString or valueOf as a value: an object is no choice, and nothing throws', () => {
    for (const key of ['toString', 'valueOf']) {
      const result = validateNode(node('Hook', 'webhook', 2, { httpMethod: fromJson([[key, { x: 0 }]]), path: 'p' }), n8nCatalog);
      expect(result.errors.map((f) => `${f.code}:${f.path}`)).toEqual(['invalid_option:parameters.httpMethod']);
    }
  });

  it('takes a node, parameters and credentials named like Object.prototype’s properties as names', () => {
    const result = withPrototypesUnchanged(() =>
      validateNode(
        {
          name: '__proto__',
          type: 'n8n-nodes-base.slack',
          typeVersion: 2.3,
          parameters: fromJson([
            ['select', 'channel'],
            ['channelId', { __rl: true, mode: 'id', value: 'C0122KQ70S7E' }],
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

/** Levenshtein distance, the textbook way. */
function distance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) current.push(Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1)));
    previous = current;
  }
  return previous[b.length]!;
}

describe('close names', () => {
  it('measures edit distance exactly up to the limit, and says only that it is past it beyond', () => {
    let seed = 7;
    const random = () => (seed = (seed * 48271) % 2147483647) / 2147483647;
    const word = () => Array.from({ length: Math.floor(random() * 9) }, () => 'abc'[Math.floor(random() * 3)]).join('');
    for (let k = 0; k < 5_000; k++) {
      const [a, b, limit] = [word(), word(), Math.floor(random() * 4)];
      expect(editDistance(a, b, limit), `${a} ${b} ${limit}`).toBe(Math.min(distance(a, b), limit + 1));
    }
    // Long strings a few edits apart, or the same but for their ends.
    const long = 'x'.repeat(200_000);
    expect(editDistance(`a${long}b`, `${long}bc`, 2)).toBe(2);
    expect(editDistance(`ab${long}`, `ba${long}z`, 2)).toBe(3);
  });

  it('finds types close to a wrong one among those of about its length, and none for a made-up long one', () => {
    const known = n8nCatalog.typeNames();
    expect(closeMatches('n8n-nodes-base.iff', known)).toEqual(['n8n-nodes-base.if']);
    expect(closeMatches('n8n-nodes-base.SLACK', known)).toEqual(['n8n-nodes-base.slack']);
    expect(closeMatches('acme.slak', known)).toEqual(['n8n-nodes-base.slack']);
    expect(closeMatches(`n8n-nodes-base.${'slack'.repeat(300_000)}`, known)).toEqual([]);
  });
});

describe('explaining errors by a default that changed', () => {
  const slack = (name: string, operation: string) =>
    node(name, 'slack', 2.3, { operation, channelId: { __rl: true, mode: 'id', value: 'C1' } }, { credentials: { slackApi: { id: '1', name: 's' } } });
  /** Each node's (last) error code. */
  const codesOf = (nodes: unknown[]) => {
    const codes = new Map<string, string>();
    validateWorkflow({ nodes, connections: {} }, n8nCatalog, new Findings({ observe: (f, severity) => severity === 'error' && codes.set(f.node!, f.code) }));
    return codes;
  };

  it('names the unset choice whose old default the settings fit', () => {
    const [error] = validateNode(slack('S', 'archive'), n8nCatalog).errors;
    expect(error).toMatchObject({ node: 'S', code: 'default_changed', path: 'parameters.resource' });
    expect(error!.message).toMatch(/set "resource": "channel"\.$/);
  });

  it('tries other choices for at most 1,000 checks of a node per validation, then lists the errors unexplained', () => {
    // Settings no choice fits: each such node is checked again with every other authentication, resource, select…
    const hopeless = Array.from({ length: 100 }, (_, i) => slack(`H${i}`, 'nope'));
    expect(codesOf([...hopeless.slice(0, 10), slack('S', 'archive')]).get('S')).toBe('default_changed');
    expect(codesOf([...hopeless, slack('S', 'archive')]).get('S')).toBe('invalid_option');
  });
});
