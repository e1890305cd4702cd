import { describe, expect, it } from 'vitest';
import type { NodeSpec, Parameter } from '../../src/catalog/nodeSpec';
import { serializeSpec } from '../../src/catalog/serialize';

const param = (name: string, extra: Partial<Parameter> = {}): Parameter => ({
  name,
  type: 'string',
  required: false,
  description: `The ${name} parameter, described at length so that the full form is visibly bigger. `.repeat(3),
  ...extra,
});

/** A node shaped like n8n's big integrations: resources, operations, many conditional parameters. */
const big: NodeSpec = {
  node_type: 'EXTERNAL_ACTION_NODE',
  subtype: 'n8n-nodes-base.big',
  version: '2',
  display_name: 'Big',
  description: 'A large integration',
  aliases: [],
  categories: [],
  source: 'n8n',
  documentation_url: null,
  parameters: [
    param('resource', { type: 'enum', enum_values: ['message', 'channel'], default_value: 'message' }),
    param('operation', { type: 'enum', enum_values: ['post', 'update'], display_options: { show: { resource: ['message'] } } }),
    param('channel', { required: true, display_options: { show: { resource: ['message'], operation: ['post'] } } }),
    param('channel', { required: true, display_options: { show: { resource: ['message'], operation: ['update'] } } }),
    param('notice', { type: 'notice' }),
    ...Array.from({ length: 80 }, (_, i) => param(`option${i}`, { display_options: { show: { operation: ['post'] } } })),
  ],
  input_ports: [{ name: 'main', type: 'main', required: true, description: 'Items', max_connections: null, data_format: null }],
  output_ports: [],
  examples: [],
};

const options = { includeExamples: true, includeSchemas: true };

describe('serializeSpec', () => {
  it('essentials name every required parameter and the resource/operation choices, with when they apply, and every other parameter once with a line', () => {
    const essentials = serializeSpec(big, { ...options, detail: 'essentials' });
    expect(essentials.detail).toBe('essentials');
    expect(essentials.parameters).toEqual([
      { name: 'resource', type: 'enum', required: false, default_value: 'message', enum_values: ['message', 'channel'] },
      { name: 'operation', type: 'enum', required: false, enum_values: ['post', 'update'], when: 'resource=message' },
      {
        name: 'channel',
        type: 'string',
        required: true,
        when: ['resource=message, operation=post', 'resource=message, operation=update'],
      },
    ]);
    const others = essentials.other_parameters as Record<string, string>;
    expect(Object.keys(others)).toEqual(Array.from({ length: 80 }, (_, i) => `option${i}`));
    expect(others.option0).toMatch(/^string: The option0 parameter, described at length.{0,40}…$/);
    expect(JSON.stringify(essentials).length).toBeLessThan(JSON.stringify(serializeSpec(big, { ...options, detail: 'full' })).length / 2);
  });

  it('answers the detail asked, however small the spec', () => {
    const small = { ...big, parameters: big.parameters.slice(0, 3) };
    expect(serializeSpec(small, { ...options, detail: 'essentials' }).detail).toBe('essentials');
    expect(serializeSpec(small, { ...options, detail: 'full' }).detail).toBe('full');
  });

  it('essentials carry what real workflows commonly set, with the collection fields they set, and what decides whether those apply; the rest is listed by name', () => {
    const hook: NodeSpec = {
      ...big,
      parameters: [
        param('httpMethod', { type: 'enum', enum_values: ['GET', 'POST'], default_value: 'GET', display_options: { show: { multipleMethods: [false] } } }),
        param('multipleMethods', { type: 'boolean', display_options: { show: { advanced: [true] } } }),
        param('options', {
          type: 'collection',
          display_options: { show: { advanced: [false] } },
          // n8n lists a field once per condition it has: the choices name it once.
          options: [
            param('rawBody', { display_options: { show: { a: [1] } } }),
            param('rawBody', { display_options: { show: { a: [2] } } }),
            param('binaryData'),
          ],
        }),
        param('ignoreBots', { type: 'boolean' }),
      ],
      common_parameters: { version: 2, workflows: 40, parameters: ['httpMethod', 'options', 'options.rawBody'] },
    };
    const essentials = serializeSpec(hook, { ...options, detail: 'essentials' });
    expect(essentials.parameters).toEqual([
      { name: 'httpMethod', type: 'enum', required: false, default_value: 'GET', enum_values: ['GET', 'POST'], when: 'multipleMethods=false' },
      // Not commonly set, but it decides whether httpMethod applies.
      { name: 'multipleMethods', type: 'boolean', required: false, when: 'advanced=true' },
      {
        name: 'options',
        type: 'collection',
        required: false,
        enum_values: ['rawBody', 'binaryData'],
        common_fields: ['rawBody'],
        when: 'advanced=false',
        // The shape of a plain collection keeps to the fields workflows set; the others are named above.
        shape: { rawBody: expect.any(String) },
      },
    ]);
    expect(Object.keys(essentials.other_parameters as object)).toEqual(['ignoreBots']);
    expect(essentials).not.toHaveProperty('common_parameters');
  });

  it('gives essentials of the typeVersion asked: parameters of other versions are left out', () => {
    const versioned: NodeSpec = {
      ...big,
      type_versions: [1, 2],
      parameters: [
        param('old', { required: true, display_options: { show: { '@version': [1] } } }),
        param('current', { required: true, display_options: { hide: { '@version': [1] } } }),
      ],
    };
    const names = (typeVersion?: number) =>
      (serializeSpec(versioned, { ...options, detail: 'essentials', typeVersion }).parameters as { name: string; when?: unknown }[]).map((p) => [
        p.name,
        p.when,
      ]);
    expect(names()).toEqual([['current', undefined]]);
    expect(names(1)).toEqual([['old', undefined]]);
  });

  it('narrows either detail to a resource/operation: what applies to it, and its example', () => {
    const example = (operation: string) => ({ name: operation, description: operation, parameters: {}, operation });
    const withExamples: NodeSpec = { ...big, examples: [example('message:update'), example('message:post')] };
    const full = serializeSpec(withExamples, { ...options, detail: 'full', resource: 'message', operation: 'update' });
    expect((full.parameters as Parameter[]).map((p) => p.name)).toEqual(['resource', 'operation', 'channel', 'notice']);
    expect(full.examples).toEqual([example('message:update')]);
    const essentials = serializeSpec(withExamples, { ...options, detail: 'essentials', operation: 'post' });
    expect(essentials.examples).toEqual([example('message:post')]);
    expect(Object.keys(essentials.other_parameters as object)).toHaveLength(80);
    // Without a scope, essentials give the first (most used) example only.
    expect(serializeSpec(withExamples, { ...options, detail: 'essentials' }).examples).toEqual([example('message:update')]);
  });

  it('gives structured parameters their shape, and the tables the shapes point to once per answer', () => {
    const conditions = param('conditions', {
      type: 'filter',
      required: true,
      filter_versions: [
        [2, 1],
        [2.2, 2],
      ],
    });
    const rules = param('rules', {
      type: 'fixed_collection',
      required: true,
      multiple_values: true,
      options: [{ name: 'values', type: 'collection', required: false, description: '', options: [conditions, param('outputKey')] }],
    });
    const spec = { ...big, parameters: [...big.parameters, conditions, rules] };
    const essentials = serializeSpec(spec, { ...options, detail: 'essentials' });
    const listed = essentials.parameters as { name: string; shape?: unknown }[];
    expect(listed.find((p) => p.name === 'conditions')!.shape).toMatchObject({ value: { combinator: 'and', options: { version: 2 } } });
    expect(listed.find((p) => p.name === 'rules')!.shape).toMatchObject({
      values: [{ conditions: { value: { combinator: 'and' } }, outputKey: expect.stringMatching(/^string — The outputKey parameter/) }],
    });
    expect(Object.keys(essentials.structured_types as object)).toEqual(['filter']);
    const full = serializeSpec(spec, { ...options, detail: 'full' });
    // The full answer has the sub-fields to read, and gives the same shape besides them.
    expect((full.parameters as { name: string; shape?: unknown }[]).find((p) => p.name === 'conditions')!.shape).toEqual(
      listed.find((p) => p.name === 'conditions')!.shape,
    );
    expect(JSON.stringify(full).match(/"structured_types"/g)).toHaveLength(1);
    expect(serializeSpec(big, { ...options, detail: 'essentials' }).structured_types).toBeUndefined();
  });
});

describe('choices', () => {
  it('says what each choice does where n8n describes them, in place of the bare values', () => {
    const respondWith = param('respondWith', {
      type: 'enum',
      required: true,
      enum_values: ['json', 'noData'],
      enum_descriptions: ['Respond with a custom JSON body', ''],
    });
    const [entry] = serializeSpec({ ...big, parameters: [respondWith] }, { ...options, detail: 'essentials' }).parameters as Record<string, unknown>[];
    expect(entry!.choices).toEqual([{ value: 'json', description: 'Respond with a custom JSON body' }, { value: 'noData' }]);
    expect(entry).not.toHaveProperty('enum_values');
  });
});

describe('output items', () => {
  const output = { name: 'main', type: 'main', required: false, description: 'Items', max_connections: null, data_format: null };
  it("says what a node's items hold where the node alone decides it (a Webhook's request), at either detail", () => {
    const webhook: NodeSpec = { ...big, subtype: 'n8n-nodes-base.webhook', node_type: 'TRIGGER_NODE', parameters: [], input_ports: [], output_ports: [output] };
    for (const detail of ['essentials', 'full'] as const) {
      const [port] = serializeSpec(webhook, { ...options, detail }).output_ports as {
        item_fields?: { fields: Record<string, string>; other_fields: boolean };
      }[];
      expect(Object.keys(port!.item_fields!.fields)).toEqual(expect.arrayContaining(['headers', 'params', 'query', 'body']));
      expect(port!.item_fields!.other_fields).toBe(false);
    }
  });

  it('guesses nothing where the data decides (an app node)', () => {
    const [port] = serializeSpec({ ...big, output_ports: [output] }, { ...options, detail: 'essentials' }).output_ports as object[];
    expect(port).not.toHaveProperty('item_fields');
  });
});
