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

/** An entry of the essentials' parameters. */
interface EssentialEntry {
  name: string;
  when?: string | string[];
  choices?: { value: unknown; description?: string; brings?: string[] }[];
  shape?: unknown;
}

describe('serializeSpec', () => {
  it('essentials name every required parameter and the resource/operation choices, with what each is and when it applies in words, and every other parameter once with a line', () => {
    const essentials = serializeSpec(big, { ...options, detail: 'essentials' });
    expect(essentials.detail).toBe('essentials');
    const described = expect.stringMatching(/^The \w+ parameter, described at length.{0,70}…$/);
    expect(essentials.parameters).toEqual([
      { name: 'resource', type: 'enum', required: false, default_value: 'message', description: described, enum_values: ['message', 'channel'] },
      { name: 'operation', type: 'enum', required: false, description: described, enum_values: ['post', 'update'], when: 'resource is message' },
      {
        name: 'channel',
        type: 'string',
        required: true,
        description: described,
        when: ['resource is message and operation is post', 'resource is message and operation is update'],
      },
    ]);
    const others = essentials.other_parameters as Record<string, string>;
    expect(Object.keys(others)).toEqual(Array.from({ length: 80 }, (_, i) => `option${i}`));
    expect(others.option0).toMatch(/^string — The option0 parameter, described at length.{0,40}…$/);
    expect(JSON.stringify(essentials).length).toBeLessThan(JSON.stringify(serializeSpec(big, { ...options, detail: 'full' })).length / 2);
  });

  it('answers the detail asked, however small the spec', () => {
    const small = { ...big, parameters: big.parameters.slice(0, 3) };
    expect(serializeSpec(small, { ...options, detail: 'essentials' }).detail).toBe('essentials');
    expect(serializeSpec(small, { ...options, detail: 'full' }).detail).toBe('full');
  });

  it('essentials carry what real workflows commonly set, with the collection fields they set, each with its line, and what decides whether those apply; the rest is listed with a line', () => {
    const hook: NodeSpec = {
      ...big,
      parameters: [
        param('httpMethod', { type: 'enum', enum_values: ['GET', 'POST'], default_value: 'GET', display_options: { show: { multipleMethods: [false] } } }),
        param('multipleMethods', { type: 'boolean', display_options: { show: { advanced: [true] } } }),
        param('options', {
          type: 'collection',
          display_options: { show: { advanced: [false] } },
          // n8n lists a field once per condition it has: the shape names it once.
          options: [
            param('rawBody', { type: 'boolean', default_value: false, display_options: { show: { '/httpMethod': ['POST'] } } }),
            param('rawBody', { type: 'boolean', default_value: false, display_options: { show: { '/httpMethod': ['PUT'] } } }),
            param('binaryData'),
          ],
        }),
        param('ignoreBots', { type: 'boolean' }),
      ],
      common_parameters: { version: 2, workflows: 40, parameters: ['httpMethod', 'options', 'options.rawBody'] },
    };
    const essentials = serializeSpec(hook, { ...options, detail: 'essentials' });
    expect((essentials.parameters as { name: string }[]).map((p) => p.name)).toEqual(['httpMethod', 'multipleMethods', 'options']);
    // Not commonly set, but it decides whether httpMethod applies.
    expect((essentials.parameters as EssentialEntry[])[1]).toMatchObject({ name: 'multipleMethods', when: 'advanced is true' });
    expect((essentials.parameters as EssentialEntry[])[2]).toEqual({
      name: 'options',
      type: 'collection',
      required: false,
      description: expect.any(String),
      common_fields: ['rawBody'],
      when: 'advanced is false',
      // The fields workflows set, each with its line; the others counted, never named bare.
      shape: { rawBody: expect.stringMatching(/^boolean = false \(when httpMethod is POST\) — The rawBody parameter/) },
      more_fields: '1 more: ask with "parameters": {"options": {}} to see each',
    });
    expect(essentials.other_parameters).toEqual({ ignoreBots: expect.stringMatching(/^boolean — The ignoreBots parameter/) });
    expect(essentials).not.toHaveProperty('common_parameters');
    // Named by the caller, a collection is given whole; so is a parameter that is not essential.
    const named = serializeSpec(hook, { ...options, detail: 'essentials', named: ['options', 'ignoreBots'] });
    const entries = named.parameters as EssentialEntry[];
    expect(Object.keys(entries.find((p) => p.name === 'options')!.shape as object)).toEqual(['rawBody', 'binaryData']);
    expect(entries.find((p) => p.name === 'options')).not.toHaveProperty('more_fields');
    expect(entries.map((p) => p.name)).toContain('ignoreBots');
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

  it('narrows either detail to a resource/operation: what applies to it, in full, and its example', () => {
    const example = (operation: string) => ({ name: operation, description: operation, parameters: {}, operation });
    const withExamples: NodeSpec = { ...big, examples: [example('message:update'), example('message:post')] };
    const full = serializeSpec(withExamples, { ...options, detail: 'full', values: { resource: 'message', operation: 'update' } });
    expect((full.parameters as Parameter[]).map((p) => p.name)).toEqual(['resource', 'operation', 'channel', 'notice']);
    expect(full.examples).toEqual([example('message:update')]);
    const essentials = serializeSpec(withExamples, { ...options, detail: 'essentials', values: { operation: 'post' } });
    expect(essentials.examples).toEqual([example('message:post')]);
    // What the operation brings in is given in full, its condition said already.
    const names = (essentials.parameters as EssentialEntry[]).map((p) => p.name);
    expect(names).toEqual(['resource', 'operation', 'channel', ...Array.from({ length: 80 }, (_, i) => `option${i}`)]);
    expect((essentials.parameters as EssentialEntry[]).find((p) => p.name === 'option0')).not.toHaveProperty('when');
    expect(essentials.other_parameters).toEqual({});
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

/** A Merge-like node: a mode, a choice under one mode, and what each of those brings in. */
const merge: NodeSpec = {
  ...big,
  subtype: 'n8n-nodes-base.merge',
  parameters: [
    param('mode', {
      type: 'enum',
      enum_values: ['append', 'combine'],
      enum_descriptions: ['One input after the other', 'Matching items merged'],
      default_value: 'append',
    }),
    param('combineBy', {
      type: 'enum',
      enum_values: ['combineByFields', 'combineByPosition'],
      default_value: 'combineByFields',
      display_options: { show: { mode: ['combine'] } },
    }),
    param('joinMode', {
      type: 'enum',
      enum_values: ['keepMatches', 'keepNonMatches'],
      enum_descriptions: ['Items that match (inner join)', ''],
      default_value: 'keepMatches',
      display_options: { show: { mode: ['combine'], combineBy: ['combineByFields'] } },
    }),
    param('fieldsToMatchString', { display_options: { show: { mode: ['combine'], combineBy: ['combineByFields'] } } }),
    param('includeUnpaired', { type: 'boolean', default_value: false, display_options: { show: { mode: ['combine'], combineBy: ['combineByPosition'] } } }),
  ],
  common_parameters: { version: 2, workflows: 40, parameters: ['mode'] },
};

describe('narrowing by the values of parameters that decide others', () => {
  const entries = (values?: Record<string, string>) =>
    serializeSpec(merge, { ...options, detail: 'essentials', ...(values ? { values } : {}) }) as { parameters: EssentialEntry[]; other_parameters: object };

  it('says, in the compact view, what each choice of a deciding parameter brings in', () => {
    const { parameters, other_parameters } = entries();
    const mode = parameters.find((p) => p.name === 'mode')!;
    expect(mode.choices).toEqual([
      { value: 'append', description: 'One input after the other' },
      { value: 'combine', description: 'Matching items merged', brings: ['combineBy', 'joinMode', 'fieldsToMatchString', 'includeUnpaired'] },
    ]);
    // Each name brought in is said in a line.
    expect(Object.keys(other_parameters)).toEqual(['combineBy', 'joinMode', 'fieldsToMatchString', 'includeUnpaired']);
  });

  it('answers, for the values asked, the parameters they bring in, in full, and leaves out those of other values', () => {
    const { parameters, other_parameters } = entries({ mode: 'combine', combineBy: 'combineByFields' });
    expect(parameters.map((p) => p.name)).toEqual(['mode', 'combineBy', 'joinMode', 'fieldsToMatchString']);
    const joinMode = parameters.find((p) => p.name === 'joinMode')!;
    expect(joinMode.choices).toEqual([{ value: 'keepMatches', description: 'Items that match (inner join)' }, { value: 'keepNonMatches' }]);
    // Its condition is what was asked: nothing left to say.
    expect(joinMode).not.toHaveProperty('when');
    expect(other_parameters).toEqual({});
    // Asked for combineBy alone, the condition on mode is still said.
    expect(entries({ combineBy: 'combineByPosition' }).parameters.find((p) => p.name === 'includeUnpaired')).toMatchObject({ when: 'mode is combine' });
  });

  it('shows only the examples that run with the values asked for, defaults counted', () => {
    const example = (name: string, parameters: Record<string, unknown>) => ({ name, description: name, parameters });
    const withExamples = { ...merge, examples: [example('by position', { mode: 'combine', combineBy: 'combineByPosition' }), example('appended', {})] };
    const shown = (values: Record<string, string>) =>
      ((serializeSpec(withExamples, { ...options, detail: 'full', values }).examples ?? []) as { name: string }[]).map((e) => e.name);
    expect(shown({ mode: 'combine' })).toEqual(['by position']);
    expect(shown({ mode: 'append' })).toEqual(['appended']);
    // A value of a parameter that decides nothing (a field to match on) is the caller's own: it hides no example.
    expect(shown({ mode: 'combine', fieldsToMatchString: 'id' })).toEqual(['by position']);
  });

  it('writes the values asked for into the first example where none runs with them, saying what it changed', () => {
    const example = {
      name: 'by position',
      description: 'Merged by position.',
      parameters: { mode: 'combine', combineBy: 'combineByPosition' },
      output: { type: merge.subtype, typeVersion: 3, name: 'Merge', parameters: { mode: 'combine', combineBy: 'combineByPosition' } },
    };
    const [shown, ...more] = serializeSpec(
      { ...merge, examples: [example] },
      { ...options, detail: 'full', values: { mode: 'combine', combineBy: 'combineByFields' } },
    ).examples as (typeof example)[];
    expect(more).toEqual([]);
    expect(shown!.parameters).toEqual({ mode: 'combine', combineBy: 'combineByFields' });
    expect(shown!.output.parameters).toEqual(shown!.parameters);
    expect(shown!.description).toBe(
      'Merged by position. Written here with combineBy "combineByFields" (it had "combineByPosition"), as asked; validate_node says what else that needs.',
    );
  });
});

describe('required', () => {
  it('is what n8n enforces: a required parameter whose default n8n runs with asks nothing of the caller', () => {
    // Crypto's hash: n8n marks all four required.
    const crypto: NodeSpec = {
      ...big,
      parameters: [
        param('binaryData', { type: 'boolean', required: true, default_value: false }),
        param('type', { type: 'enum', required: true, enum_values: ['MD5', 'SHA256'], default_value: 'SHA256' }),
        param('dataPropertyName', { required: true, default_value: 'data' }),
        param('value', { required: true }),
      ],
    };
    for (const detail of ['essentials', 'full'] as const) {
      const { parameters, other_parameters } = serializeSpec(crypto, { ...options, detail }) as {
        parameters: { name: string; required: boolean }[];
        other_parameters?: object;
      };
      const required = parameters.filter((p) => p.required).map((p) => p.name);
      expect(required, detail).toEqual(['value']);
      expect(JSON.stringify(other_parameters ?? {})).not.toContain('required');
    }
  });
});

describe('the full answer', () => {
  it('says conditions in words at every depth, and gives the filter version only in the shape', () => {
    const spec: NodeSpec = {
      ...big,
      type_versions: [2, 2.2],
      parameters: [
        param('conditions', {
          type: 'filter',
          filter_versions: [
            [2, 1],
            [2.2, 2],
          ],
          display_options: { show: { '@version': [{ _cnd: { gte: 2 } }] } },
        }),
        param('options', { type: 'collection', options: [param('clash', { display_options: { show: { '/mode': [{ _cnd: { not: 'addSuffix' } }] } } })] }),
      ],
    };
    const full = serializeSpec(spec, { ...options, detail: 'full', typeVersion: 2.2 });
    const text = JSON.stringify(full);
    expect(text).not.toMatch(/display_options|_cnd|filter_versions/);
    expect((full.parameters as { when?: string; options?: { when?: string }[] }[]).map((p) => p.when ?? p.options?.[0]?.when)).toEqual([
      'typeVersion is at least 2',
      'mode is not addSuffix',
    ]);
    expect([...text.matchAll(/"version":(\d+)/g)].map((m) => m[1])).toEqual(['2', '2']);
  });
});

describe('versions', () => {
  const filter = param('conditions', {
    type: 'filter',
    filter_versions: [
      [2, 1],
      [2.2, 2],
      [2.3, 3],
    ],
  });
  const conditions = (version: number) => ({
    options: { caseSensitive: true, leftValue: '', typeValidation: 'strict', version },
    combinator: 'and',
    conditions: [],
  });
  const example = (name: string, typeVersion: number, extra: object = {}) => ({
    name,
    description: name,
    parameters: { conditions: conditions(1) },
    output: { type: 'n8n-nodes-base.filter', typeVersion, name: 'Filter', parameters: { conditions: conditions(1) }, position: [0, 0] },
    ...extra,
  });
  const spec: NodeSpec = {
    ...big,
    subtype: 'n8n-nodes-base.filter',
    version: '2.3',
    type_versions: [2, 2.2, 2.3],
    parameters: [filter],
    examples: [example('only at 2', 2, { type_versions: [2] }), example('everywhere', 2)],
  };

  it('gives one typeVersion and one filter version per answer: the examples, the shape and the tables agree with the typeVersion described', () => {
    for (const detail of ['essentials', 'full'] as const) {
      for (const [typeVersion, filterVersion] of [
        [2.2, 2],
        [2.3, 3],
      ] as const) {
        const answer = serializeSpec(spec, { ...options, detail, typeVersion });
        const text = JSON.stringify(answer);
        expect(new Set([...text.matchAll(/"typeVersion":([\d.]+)/g)].map((m) => Number(m[1]))), `${detail} ${typeVersion}`).toEqual(new Set([typeVersion]));
        expect(new Set([...text.matchAll(/"version":(\d+)/g)].map((m) => Number(m[1]))), `${detail} ${typeVersion}`).toEqual(new Set([filterVersion]));
        // An example valid only at other typeVersions is not shown.
        expect((answer.examples as { name: string }[]).map((e) => e.name)).toEqual(['everywhere']);
      }
    }
    // Unasked, the description's newest.
    expect((serializeSpec(spec, { ...options, detail: 'essentials' }).examples as { output: { typeVersion: number } }[])[0]!.output.typeVersion).toBe(2.3);
    expect((serializeSpec(spec, { ...options, detail: 'full', typeVersion: 2 }).examples as object[]).length).toBe(2);
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
