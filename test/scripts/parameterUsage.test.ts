import { describe, expect, it } from 'vitest';
import type { NodeSpec, Parameter } from '../../src/catalog/nodeSpec';
import {
  countParameters,
  descriptionWords,
  scrub,
  setPaths,
  switchesOf,
  Vocabulary,
  VOCABULARY_WORKFLOWS,
  type UsedNode,
} from '../../scripts/catalog/usage/parameters';
import { catalogOf } from '../../src/workflows/nodeCatalog';

const p = (name: string, extra: Partial<Parameter> = {}): Parameter => ({ name, type: 'string', required: false, description: name, ...extra });

/** A Webhook-like node: method, path, a collection of options, and a fixed collection of rules. */
const parameters: Parameter[] = [
  p('httpMethod', { type: 'enum', enum_values: ['GET', 'POST'], default_value: 'GET' }),
  p('path', { required: true }),
  p('options', { type: 'collection', default_value: {}, options: [p('rawBody', { type: 'boolean' }), p('responseCode', { type: 'number' })] }),
  p('rules', {
    type: 'fixed_collection',
    multiple_values: true,
    default_value: {},
    options: [p('values', { type: 'collection', options: [p('key'), p('selector')] })],
  }),
];
const spec: NodeSpec = {
  node_type: 'TRIGGER_NODE',
  subtype: 'n8n-nodes-base.hook',
  version: '2',
  display_name: 'Hook',
  description: 'hook',
  aliases: [],
  categories: [],
  source: 'n8n',
  documentation_url: null,
  parameters,
  input_ports: [],
  output_ports: [],
  examples: [],
  type_versions: [2],
};
const resourceSpec: NodeSpec = {
  ...spec,
  subtype: 'n8n-nodes-base.mail',
  parameters: [
    p('resource', { type: 'enum', enum_values: ['message', 'label'], default_value: 'message' }),
    p('operation', { type: 'enum', enum_values: ['send', 'get'], default_value: 'send', display_options: { show: { resource: ['message'] } } }),
    p('to', { display_options: { show: { operation: ['send'] } } }),
    p('messageId', { display_options: { show: { operation: ['get'] } } }),
  ],
};
const catalog = catalogOf([spec, resourceSpec]);
const hook = (parameters: Record<string, unknown>): UsedNode => ({ type: 'n8n-nodes-base.hook', typeVersion: 2, parameters });

describe('setPaths', () => {
  it('names parameters, collection fields and fixed-collection group fields the description has, never keys a user chose', () => {
    const paths = setPaths(parameters, {
      path: 'orders',
      options: { rawBody: true, myHeader: 'x' },
      rules: { values: [{ key: 'title', selector: 'h1', mine: 1 }, { key: 'b' }] },
      columnOfMine: 'x',
    });
    expect(paths.sort()).toEqual(['options', 'options.rawBody', 'path', 'rules', 'rules.values', 'rules.values.key', 'rules.values.selector']);
  });
});

describe('scrub', () => {
  const vocabulary = new Vocabulary();
  // "POST", the key "equals" and its "x" in VOCABULARY_WORKFLOWS workflows; one user's key and values once.
  for (let i = 0; i < VOCABULARY_WORKFLOWS; i++) vocabulary.add('t', [{ type: 't', typeVersion: 1, parameters: { method: 'POST', op: { equals: 'x' } } }]);
  vocabulary.add('t', [{ type: 't', typeVersion: 1, parameters: { method: 'DELETE', op: { secretKey: 'y' } } }]);

  it('keeps n8n’s words and what many workflows write there; replaces the rest by placeholders of its kind', () => {
    const scrubbed = scrub(
      't',
      {
        method: 'POST',
        other: 'DELETE',
        mode: 'manual',
        op: { equals: 'x', secretKey: 'y' },
        to: 'ann@corp.example',
        url: 'https://corp.example/hook',
        body: '={{ $json.customerEmail }}',
        'Content-Type': '={{ 1 }}',
        list: [1, 2, 3],
        id: 123456789,
        limit: 50,
        flag: true,
      },
      vocabulary,
      new Set(['manual']),
    );
    expect(scrubbed).toEqual({
      method: 'POST',
      other: '<other>',
      mode: 'manual',
      op: { equals: 'x' },
      to: 'user@example.com',
      url: 'https://example.com',
      body: '={{ $json.body }}',
      'Content-Type': '={{ $json["Content-Type"] }}',
      list: [1, 2],
      id: 0,
      limit: 50,
      flag: true,
    });
  });

  it('never keeps e-mail addresses, URLs, UUIDs, long numbers or prose, however many workflows write them', () => {
    const common = new Vocabulary();
    const values = ['a@b.example', 'see https://x.example', '0f8fad5b-d9cb-469f-a165-70867728950e', 'chat 12345678', 'What is the answer?', 'table td a'];
    for (let i = 0; i < VOCABULARY_WORKFLOWS + 2; i++) common.add('t', [{ type: 't', typeVersion: 1, parameters: { v: values } }]);
    expect(scrub('t', { v: values }, common, new Set()).v).toEqual(['user@example.com', '<v>']);
    expect(scrub('t', { v: values.slice(2) }, common, new Set()).v).toEqual(['<v>', '<v>']);
    expect(scrub('t', { v: values.slice(4) }, common, new Set()).v).toEqual(['<v>', 'table td a']);
  });

  it('reads n8n’s words from choices and text defaults at any depth', () => {
    expect([...descriptionWords(parameters)].sort()).toEqual(['GET', 'POST']);
  });
});

describe('countParameters', () => {
  it('counts each workflow once per node version and path, per operation too, and picks the most common valid configuration', () => {
    const workflows = [
      [hook({ path: 'a', httpMethod: 'POST' }), hook({ path: 'b', httpMethod: 'POST', options: { rawBody: true } })],
      [hook({ path: 'c', httpMethod: 'POST' })],
      [hook({ path: 'd' })],
      // Not valid (path is required): never the example, however common.
      [hook({})],
      [hook({})],
      [hook({})],
      [hook({})],
      [{ type: 'n8n-nodes-base.unknown', typeVersion: 1, parameters: { x: 1 } }],
      [
        { type: 'n8n-nodes-base.mail', typeVersion: 2, parameters: { to: 'ann@corp.example' } },
        { type: 'n8n-nodes-base.mail', typeVersion: 2, parameters: { operation: 'get', messageId: '1' } },
      ],
    ];
    const usage = countParameters(workflows, catalog);
    expect(Object.keys(usage)).toEqual(['n8n-nodes-base.hook', 'n8n-nodes-base.mail']);
    const hookUsage = usage['n8n-nodes-base.hook']!['2']!;
    expect(hookUsage.workflows).toBe(7);
    // options.rawBody: one workflow alone, left out.
    expect(hookUsage.set).toEqual({ path: 3, httpMethod: 2 });
    expect(hookUsage.example).toEqual({ path: '<path>', httpMethod: 'POST' });
    const mail = usage['n8n-nodes-base.mail']!['2']!;
    expect(mail.example).toBeUndefined();
    expect(mail.operations).toEqual({
      'message:get': { workflows: 1, set: { messageId: 1, operation: 1 }, example: { operation: 'get', messageId: '<messageId>' } },
      'message:send': { workflows: 1, set: { to: 1 }, example: { to: 'user@example.com' } },
    });
  });
});

describe('the mode real workflows run a node in', () => {
  /** Crypto-like: an action that decides which other parameters apply, hash by default. */
  const crypto: NodeSpec = {
    ...spec,
    subtype: 'n8n-nodes-base.crypto',
    parameters: [
      p('action', { type: 'enum', enum_values: ['hash', 'hmac', 'sign'], default_value: 'hash' }),
      p('type', { type: 'enum', enum_values: ['MD5', 'SHA256'], default_value: 'MD5', display_options: { show: { action: ['hash', 'hmac'] } } }),
      p('value', { required: true }),
      p('secret', { display_options: { show: { action: ['hmac'] } } }),
      p('privateKey', { display_options: { show: { action: ['sign'] } } }),
    ],
  };
  const node = (parameters: Record<string, unknown>): UsedNode => ({ type: 'n8n-nodes-base.crypto', typeVersion: 2, parameters });

  it('counts the values workflows run each switch with, defaults included, and takes the example from the most common mode, written out', () => {
    const workflows = [
      // Three hash the value, each writing it differently (two leave the default action out).
      [node({ value: 'a', type: 'SHA256' })],
      [node({ action: 'hash', value: 'b' })],
      [node({ value: 'f' })],
      [node({ action: 'hmac', value: 'c', secret: 'k' })],
      // Two sign it, writing the same keys: the most common shape, not the most common mode.
      [node({ action: 'sign', value: 'd', privateKey: 'p' })],
      [node({ action: 'sign', value: 'e', privateKey: 'q' })],
    ];
    const usage = countParameters(workflows, catalogOf([crypto]))['n8n-nodes-base.crypto']!['2']!;
    expect(usage.choices).toEqual({ action: { hash: 3, sign: 2, hmac: 1 } });
    expect(usage.example).toMatchObject({ action: 'hash', value: '<value>' });
  });

  it('takes the choices that decide other parameters as switches, leaving resource and operation to their own counts', () => {
    expect(switchesOf(crypto.parameters).map((s) => s.name)).toEqual(['action']);
    expect(switchesOf(resourceSpec.parameters)).toEqual([]);
  });
});
