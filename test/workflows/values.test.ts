import { describe, expect, it } from 'vitest';
import type { Parameter } from '../../src/catalog/nodeSpec';
import { withDefaults } from '../../src/workflows/values';
import { expectOwn, fromJson, withPrototypesUnchanged } from '../support/specialNames';

const parameter = (name: string, default_value: unknown, show?: Record<string, unknown[]>): Parameter =>
  ({ name, display_name: name, type: 'string', default_value, ...(show ? { display_options: { show } } : {}) }) as Parameter;
const identity = { typeVersion: 1, nodeType: 'n8n-nodes-base.x' };

describe('a node’s values with n8n’s defaults', () => {
  it('fills in the defaults of what applies, in order, each visible to the conditions after it', () => {
    const parameters = [
      parameter('resource', 'message'),
      parameter('text', 'hi', { resource: ['message'] }),
      parameter('channel', 'c', { resource: ['channel'] }),
    ];
    expect(withDefaults(parameters, {}, identity)).toEqual({ resource: 'message', text: 'hi' });
    expect(withDefaults(parameters, { resource: 'channel' }, identity)).toEqual({ resource: 'channel', channel: 'c' });
  });

  it('takes parameter names that mean something to JavaScript objects as names: set ones kept, unset ones defaulted', () => {
    const parameters = [parameter('constructor', 'c'), parameter('toString', 't', { constructor: ['c'] }), parameter('__proto__', 'p')];
    const values = withPrototypesUnchanged(() => withDefaults(parameters, fromJson([['__proto__', { x: 1 }]]), identity));
    expect(Object.keys(values).sort()).toEqual(['__proto__', 'constructor', 'toString']);
    expectOwn(values, '__proto__', { x: 1 });
    expectOwn(values, 'constructor', 'c');
    expectOwn(values, 'toString', 't');
  });
});
