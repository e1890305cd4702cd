import { describe, expect, it } from 'vitest';
import type { NodeSpec, Parameter } from '../../src/catalog/nodeSpec';
import { applyUsage, realExamples } from '../../scripts/catalog/usage/applyUsage';

const p = (name: string, extra: Partial<Parameter> = {}): Parameter => ({ name, type: 'string', required: false, description: name, ...extra });
const constructed = {
  name: 'constructed',
  description: 'built from the description',
  parameters: { path: 'x' },
  output: {
    type: 'n8n-nodes-base.hook',
    typeVersion: 2,
    name: 'Hook',
    parameters: { path: 'x' },
    position: [0, 0],
    webhookId: '00000000-0000-4000-8000-000000000000',
  },
};
const hook: NodeSpec = {
  node_type: 'TRIGGER_NODE',
  subtype: 'n8n-nodes-base.hook',
  version: '2',
  display_name: 'Hook',
  description: 'hook',
  aliases: [],
  categories: [],
  source: 'n8n',
  documentation_url: null,
  input_ports: [],
  output_ports: [],
  type_versions: [1, 2],
  node_versions: [1, 2],
  parameters: [p('path', { required: true }), p('httpMethod', { type: 'enum', enum_values: ['GET', 'POST'], default_value: 'GET' })],
  examples: [constructed],
};
const mail: NodeSpec = {
  ...hook,
  node_type: 'ACTION_NODE',
  subtype: 'n8n-nodes-base.mail',
  display_name: 'Mail',
  type_versions: [1],
  node_versions: [1],
  examples: [],
  parameters: [
    p('operation', { type: 'enum', enum_values: ['send', 'get'], default_value: 'send' }),
    p('to', { display_options: { show: { operation: ['send'] } } }),
  ],
};

describe('realExamples', () => {
  it('writes the configuration of the version most workflows use, as a node with the constructed one’s webhookId and credentials', () => {
    const [example, ...rest] = realExamples(hook, {
      '1': { workflows: 3, set: {}, example: { path: '<path>' } },
      '2': { workflows: 9, set: { path: 9, httpMethod: 7 }, example: { path: '<path>', httpMethod: 'POST' } },
    });
    expect(rest).toEqual([]);
    expect(example!.parameters).toEqual({ path: '<path>', httpMethod: 'POST' });
    expect(example!.output).toEqual({ ...constructed.output, typeVersion: 2, parameters: { path: '<path>', httpMethod: 'POST' } });
    expect(example!.description).toMatch(/9 public workflows using Hook set.*own webhookId/);
    // No version in the words: an answer shows the example at the typeVersion it describes.
    expect(`${example!.name} ${example!.description}`).not.toMatch(/v\d/);
  });

  it('gives one per operation, the most used first, with its operation written out', () => {
    const examples = realExamples(mail, {
      '1': {
        workflows: 5,
        set: {},
        operations: { get: { workflows: 1, set: {}, example: { operation: 'get' } }, send: { workflows: 4, set: {}, example: { to: '<to>' } } },
      },
    });
    // The operation is written out, as a default too.
    expect(examples.map((e) => [e.operation, e.parameters])).toEqual([
      ['send', { operation: 'send', to: '<to>' }],
      ['get', { operation: 'get' }],
    ]);
  });
});

describe('applyUsage', () => {
  it('gives descriptions their common parameters and real examples; one validate_node refuses is reported and not served', () => {
    const { specs, refused } = applyUsage([hook, mail], {
      'n8n-nodes-base.hook': { '2': { workflows: 9, set: { path: 9, httpMethod: 7 }, example: { httpMethod: 'POST' } } },
      'n8n-nodes-base.mail': { '1': { workflows: 5, set: { to: 4 }, operations: { send: { workflows: 5, set: { to: 4 }, example: { to: '<to>' } } } } },
    });
    expect(specs[0]!.common_parameters).toEqual({ version: 2, workflows: 9, parameters: ['path', 'httpMethod'] });
    // The hook's configuration lacks its required path: the constructed example stays.
    expect(specs[0]!.examples).toEqual([constructed]);
    expect(refused).toEqual([expect.stringMatching(/^Hook, as real workflows write it: v1: .*path/)]);
    expect(specs[1]!.examples.map((e) => e.parameters)).toEqual([{ operation: 'send', to: '<to>' }]);
  });

  it('says at which typeVersions of its description an example holds, and keeps the constructed one for those real ones leave without', () => {
    // From typeVersion 2 on, a secret is required: what v1 workflows write is no v2 node.
    const versioned: NodeSpec = {
      ...hook,
      parameters: [...hook.parameters, p('secret', { required: true, display_options: { show: { '@version': [{ _cnd: { gte: 2 } }] } } })],
      examples: [{ ...constructed, parameters: { path: 'x', secret: 's' }, output: { ...constructed.output, parameters: { path: 'x', secret: 's' } } }],
    };
    const { specs } = applyUsage([versioned], { 'n8n-nodes-base.hook': { '1': { workflows: 9, set: { path: 9 }, example: { path: '<path>' } } } });
    expect(specs[0]!.examples.map((e) => [e.name, e.type_versions])).toEqual([
      ['Hook, as real workflows write it', [1]],
      ['constructed', undefined],
    ]);
  });

  it('leaves a node no workflow uses as it was', () => {
    expect(applyUsage([hook], {}).specs[0]).toBe(hook);
  });
});
