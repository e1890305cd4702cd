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
  it('essentials name every required parameter and the resource/operation choices, with when they apply', () => {
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
    expect(essentials.optional_parameters_not_shown).toBe(81);
    expect(JSON.stringify(essentials).length).toBeLessThan(JSON.stringify(serializeSpec(big, { ...options, detail: 'full' })).length / 5);
  });

  it('returns small specs whole, whatever the detail asked', () => {
    const small = { ...big, parameters: big.parameters.slice(0, 3) };
    expect(serializeSpec(small, { ...options, detail: 'essentials' })).toEqual(serializeSpec(small, { ...options, detail: 'full' }));
  });

  it('returns a small spec whole though the tables its shapes point to would make it large', () => {
    const conditions = param('conditions', { type: 'filter' });
    let small = { ...big, parameters: [conditions] };
    const sizeWithoutTables = () => JSON.stringify({ ...serializeSpec(small, { ...options, detail: 'full' }), structured_types: undefined }).length;
    for (let i = 0; sizeWithoutTables() < 5200; i++) small = { ...small, parameters: [...small.parameters, param(`extra${i}`)] };
    expect(sizeWithoutTables()).toBeLessThanOrEqual(6000);
    expect(JSON.stringify(serializeSpec(small, { ...options, detail: 'full' })).length).toBeGreaterThan(6000);
    expect(serializeSpec(small, { ...options, detail: 'essentials' }).detail).toBe('full');
  });

  it('gives structured parameters their shape, and the tables the shapes point to once per answer', () => {
    const conditions = param('conditions', { type: 'filter', required: true, filter_versions: [[2, 1], [2.2, 2]] });
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
    expect(listed.find((p) => p.name === 'rules')!.shape).toMatchObject({ values: [{ conditions: { value: { combinator: 'and' } }, outputKey: 'string' }] });
    expect(Object.keys(essentials.structured_types as object)).toEqual(['filter']);
    const full = serializeSpec(spec, { ...options, detail: 'full' });
    expect((full.parameters as { name: string; shape?: unknown }[]).find((p) => p.name === 'conditions')!.shape).toBeDefined();
    expect(JSON.stringify(full).match(/"structured_types"/g)).toHaveLength(1);
    expect(serializeSpec(big, { ...options, detail: 'essentials' }).structured_types).toBeUndefined();
  });
});

describe('withinBudget', () => {
  it('keeps entries in order and stands in for those that would pass the budget', async () => {
    const { RESPONSE_BUDGET, withinBudget } = await import('../../src/catalog/budget');
    const entries = await withinBudget<{ i: number; pad?: string; leftOut?: boolean }>(
      5,
      async (i) => ({ i, pad: 'x'.repeat(RESPONSE_BUDGET / 3) }),
      (i) => ({ i, leftOut: true }),
    );
    expect(entries.map((e) => e.i)).toEqual([0, 1, 2, 3, 4]);
    expect(entries.filter((e) => e.leftOut).map((e) => e.i)).toEqual([2, 3, 4]);
    expect(JSON.stringify(entries).length).toBeLessThanOrEqual(RESPONSE_BUDGET);
  });
});
