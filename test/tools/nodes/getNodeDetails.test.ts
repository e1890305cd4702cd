import { beforeEach, describe, expect, it } from 'vitest';
import { loadCatalog, seedSpecs, spec } from '../../support/catalog';
import { n8nSpecs } from '../../support/n8nCatalog';
import { callInSession } from '../../support/tools';

beforeEach(async () => {
  await loadCatalog();
});

describe('get_node_details', () => {
  it('answers one entry per requested node, in order, with errors in place', async () => {
    const details = (
      await callInSession('get_node_details', {
        nodes: [
          { node_type: 'ACTION_NODE', subtype: 'HTTP_REQUEST' },
          { node_type: 'ACTION_NODE', subtype: 'NOPE' },
          { node_type: 'AI_AGENT_NODE', subtype: 'OPENAI_NODE' },
        ],
      })
    ).json;
    expect(details).toHaveLength(3);
    expect(details[0]).toMatchObject({ node_type: 'ACTION_NODE', subtype: 'HTTP_REQUEST', parameters: expect.any(Array) });
    expect(details[1]).toEqual({ node_type: 'ACTION_NODE', subtype: 'NOPE', error: 'Node specification not found' });
    expect(details[2]).toMatchObject({ subtype: 'OPENAI_NODE', examples: expect.any(Array) });
  });

  it('answers names that are not in the catalog as not found, however long, under any node type', async () => {
    const nodes = [
      { node_type: 'ACTION_NODE', subtype: 'x'.repeat(600) },
      { node_type: '__proto__', subtype: 'NOPE' },
    ];
    const result = await callInSession('get_node_details', { nodes });
    expect(result.isError).toBeFalsy();
    expect(result.json).toEqual(nodes.map((n) => ({ ...n, error: 'Node specification not found' })));
  });

  it('finds a node asked for under the wrong node type, and says which is right', async () => {
    const details = (
      await callInSession('get_node_details', {
        nodes: [
          { node_type: 'FLOW_NODE', subtype: 'HTTP_REQUEST' },
          { node_type: 'Core Nodes', subtype: 'HTTP_REQUEST', operation: 'nope' },
          { node_type: 'ACTION_NODE', subtype: 'HTTP_REQUEST' },
        ],
      })
    ).json;
    expect(details[0]).toMatchObject({
      node_type: 'ACTION_NODE',
      subtype: 'HTTP_REQUEST',
      node_type_note: 'HTTP_REQUEST is listed under node_type ACTION_NODE, not FLOW_NODE: this answer is for ACTION_NODE/HTTP_REQUEST',
      parameters: expect.any(Array),
    });
    // The answer is the one the right node type gets, with the note besides.
    const { node_type_note: _, ...found } = details[0];
    expect(found).toEqual(details[2]);
    expect(details[1]).toMatchObject({ node_type: 'ACTION_NODE', node_type_note: expect.stringContaining('not Core Nodes'), error: expect.any(String) });
    expect(details[2]).not.toHaveProperty('node_type_note');
  });

  it('leaves out examples and port schemas when asked', async () => {
    const details = async (flags: Record<string, boolean>) =>
      (await callInSession('get_node_details', { nodes: [{ node_type: 'ACTION_NODE', subtype: 'HTTP_REQUEST' }], detail: 'full', ...flags })).json[0];
    const ports = (detail: { input_ports: object[]; output_ports: object[] }) =>
      [...detail.input_ports, ...detail.output_ports] as { data_format: unknown; validation_schema: unknown }[];
    // Unless asked, both are there.
    const whole = await details({});
    expect(whole.examples.length).toBeGreaterThan(0);
    expect(ports(whole).some((port) => port.data_format !== null && port.validation_schema !== null)).toBe(true);
    const lean = await details({ include_examples: false, include_schemas: false });
    expect(lean).not.toHaveProperty('examples');
    expect(ports(lean).length).toBe(ports(whole).length);
    for (const port of ports(lean)) expect(port).toMatchObject({ data_format: null, validation_schema: null });
  });

  it('narrows an n8n node to the resource/operation asked, and names the choices when one is not the node’s', async () => {
    const param = (name: string, extra: object) => ({ name, type: 'string' as const, required: true, description: name, ...extra });
    const mail = spec('n8n-nodes-base.mail', {
      node_type: 'EXTERNAL_ACTION_NODE',
      source: 'n8n',
      type_versions: [1],
      node_versions: [1],
      version: '1',
      parameters: [
        param('resource', { type: 'enum', enum_values: ['message', 'label'], default_value: 'message' }),
        param('operation', { type: 'enum', enum_values: ['send', 'get'], default_value: 'send', display_options: { show: { resource: ['message'] } } }),
        param('to', { display_options: { show: { resource: ['message'], operation: ['send'] } } }),
        param('messageId', { display_options: { show: { resource: ['message'], operation: ['get'] } } }),
      ],
    });
    await loadCatalog([...seedSpecs(), mail]);
    const node = { node_type: 'EXTERNAL_ACTION_NODE', subtype: 'n8n-nodes-base.mail' };
    const [get, send, unknown, none] = (
      await callInSession('get_node_details', {
        detail: 'full',
        nodes: [
          { ...node, resource: 'message', operation: 'get' },
          { ...node, operation: 'send' },
          { ...node, operation: 'archive' },
          { node_type: 'ACTION_NODE', subtype: 'HTTP_REQUEST', resource: 'x' },
        ],
      })
    ).json;
    expect(get.parameters.map((p: { name: string }) => p.name)).toEqual(['resource', 'operation', 'messageId']);
    expect(send.parameters.map((p: { name: string }) => p.name)).toEqual(['resource', 'operation', 'to']);
    expect(unknown).toEqual({ ...node, error: 'No operation "archive": n8n-nodes-base.mail has "send", "get"' });
    expect(none.error).toMatch(/has no parameter resource: leave it out/);
  });

  it('narrows to the values asked for any parameter that decides others, and names what there is when one is not the node’s', async () => {
    const param = (name: string, extra: object) => ({ name, type: 'string' as const, required: false, description: `What ${name} is`, ...extra });
    const merge = spec('n8n-nodes-base.merge', {
      node_type: 'FLOW_NODE',
      source: 'n8n',
      type_versions: [3],
      node_versions: [3],
      version: '3',
      parameters: [
        param('mode', { type: 'enum', enum_values: ['append', 'combine'], default_value: 'append' }),
        param('joinMode', { type: 'enum', enum_values: ['keepMatches', 'keepNonMatches'], display_options: { show: { mode: ['combine'] } } }),
        param('numberInputs', { type: 'number', default_value: 2, display_options: { show: { mode: ['append'] } } }),
        param('options', { type: 'collection', default_value: {}, options: [param('fuzzyCompare', { type: 'boolean' }), param('clashHandling', {})] }),
      ],
    });
    await loadCatalog([...seedSpecs(), merge]);
    const node = { node_type: 'FLOW_NODE', subtype: 'n8n-nodes-base.merge' };
    const [combine, all, unknownValue, unknownName, structured] = (
      await callInSession('get_node_details', {
        nodes: [
          { ...node, parameters: { mode: 'combine' } },
          node,
          { ...node, parameters: { mode: 'chooseBranch' } },
          { ...node, parameters: { joinMode: 'keepMatches', colour: 'red' } },
          // Structured values and expressions decide nothing before run time: not narrowed by, not judged.
          { ...node, parameters: { mode: 'combine', options: { fuzzyCompare: true }, joinMode: '={{ $json.mode }}' } },
        ],
      })
    ).json;
    expect(combine.parameters.map((p: { name: string }) => p.name)).toEqual(['mode', 'joinMode', 'options']);
    // A collection no workflow is known to set is counted, not named, until the caller names it.
    expect(combine.parameters.find((p: { name: string }) => p.name === 'options')).toMatchObject({ more_fields: expect.stringMatching(/^2: /) });
    expect(combine.other_parameters).toEqual({});
    expect(all.parameters.find((p: { name: string }) => p.name === 'mode').choices).toContainEqual({ value: 'combine', brings: ['joinMode'] });
    expect(unknownValue.error).toBe('No mode "chooseBranch": n8n-nodes-base.merge has "append", "combine"');
    expect(unknownName.error).toBe('n8n-nodes-base.merge has no parameter colour: leave it out');
    expect(structured.parameters.map((p: { name: string }) => p.name)).toEqual(['mode', 'joinMode', 'options']);
    expect(Object.keys(structured.parameters.find((p: { name: string }) => p.name === 'options').shape)).toEqual(['fuzzyCompare', 'clashHandling']);
  });

  it('answers the node settings when asked, described as parameters are, and where they are written', async () => {
    const [plain] = (await callInSession('get_node_details', { nodes: [{ node_type: 'ACTION_NODE', subtype: 'HTTP_REQUEST' }] })).json;
    expect(plain).not.toHaveProperty('node_settings');
    const [withSettings] = (await callInSession('get_node_details', { nodes: [{ node_type: 'ACTION_NODE', subtype: 'HTTP_REQUEST' }], include_settings: true }))
      .json;
    const { written, settings } = withSettings.node_settings as { written: string; settings: { name: string; type: string; description: string }[] };
    expect(written).toMatch(/beside "parameters"/);
    expect(settings.map((s) => s.name)).toEqual(expect.arrayContaining(['alwaysOutputData', 'executeOnce', 'onError', 'retryOnFail', 'notes']));
    expect(settings.find((s) => s.name === 'maxTries')).toMatchObject({ type: 'number', default_value: 3, when: 'retryOnFail is true' });
    expect(settings.find((s) => s.name === 'onError')).toMatchObject({
      default_value: 'stopWorkflow',
      choices: expect.arrayContaining([expect.objectContaining({ value: 'continueErrorOutput', description: expect.any(String) })]),
    });
  });

  it('refuses an empty node list as invalid params', async () => {
    const result = await callInSession('get_node_details', { nodes: [] });
    expect(result.isError).toBe(true);
    expect(result.text).toMatch(/nodes/);
  });
});

describe('get_node_details: behaviour observed on a real n8n', () => {
  const details = async (node: Record<string, unknown>) => (await callInSession('get_node_details', { nodes: [{ node_type: 'FLOW_NODE', ...node }] })).json[0];

  it('says what the outputs hold, how their fields are named from the parameters, and what no items do', async () => {
    await loadCatalog(n8nSpecs, ['n8n']);
    const summarize = n8nSpecs.find((s) => s.subtype === 'n8n-nodes-base.summarize')!;
    const answer = await details({ node_type: summarize.node_type, subtype: summarize.subtype });
    expect(answer.behaviour.observed_on).toMatch(/^n8n 1\.123\.81/);
    expect(Object.keys(answer.behaviour.outputs[0].fields)).toEqual(['count_score']);
    expect(answer.behaviour.on_zero_items).toMatch(/does not run/);
  });

  it('describes the configuration nearest the parameters given, and names the others', async () => {
    await loadCatalog(n8nSpecs, ['n8n']);
    const merge = n8nSpecs.find((s) => s.subtype === 'n8n-nodes-base.merge')!;
    const answer = await details({
      node_type: merge.node_type,
      subtype: merge.subtype,
      version: 3.2,
      parameters: { mode: 'combine', joinMode: 'enrichInput1' },
    });
    expect(answer.behaviour.configuration).toMatch(/joinMode=enrichInput1/);
    expect(answer.behaviour.on_one_input_empty).toMatch(/input 2 empty/);
    expect(answer.behaviour.other_configurations).toContain('mode=append');
    const defaults = await details({ node_type: merge.node_type, subtype: merge.subtype, version: 3.2 });
    expect(defaults.behaviour.configuration).toBe('mode=append');
  });
});
