import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { importNodes } from '../../scripts/catalog/n8n/importNodes';
import { mapNode, ports, type MapContext, type N8nNode } from '../../scripts/catalog/n8n/mapNode';

/** Real n8n node descriptions, a few of them: triggers, AI agents and sub-nodes, resource/operation nodes, IF, Switch, Merge, Set. */
const fixture = JSON.parse(readFileSync('test/fixtures/n8n/nodes.json', 'utf8')) as Record<string, N8nNode[]>;
const packages = Object.entries(fixture).map(([typePrefix, nodes]) => ({ typePrefix, nodes }));
const result = importNodes(packages);
const spec = (subtype: string) => result.specs.find((s) => s.subtype === subtype)!;

describe('n8n import', () => {
  it('imports every description of every node, each with the typeVersions it covers, newest first', () => {
    expect([...new Set(result.specs.map((s) => s.subtype))]).toEqual([
      '@n8n/n8n-nodes-langchain.agent',
      '@n8n/n8n-nodes-langchain.lmChatOpenAi',
      '@n8n/n8n-nodes-langchain.toolCalculator',
      'n8n-nodes-base.if',
      'n8n-nodes-base.mailcheck',
      'n8n-nodes-base.mailcheckTool',
      'n8n-nodes-base.manualTrigger',
      'n8n-nodes-base.merge',
      'n8n-nodes-base.scheduleTrigger',
      'n8n-nodes-base.set',
      'n8n-nodes-base.slack',
      'n8n-nodes-base.slackTool',
      'n8n-nodes-base.switch',
      'n8n-nodes-base.webhook',
    ]);
    const agents = result.specs.filter((s) => s.subtype === '@n8n/n8n-nodes-langchain.agent');
    expect(agents.map((s) => s.type_versions)).toEqual([
      [3, 3.1],
      [2, 2.1, 2.2],
      [1, 1.1, 1.2, 1.3, 1.4, 1.5, 1.6, 1.7, 1.8, 1.9],
    ]);
    expect(agents.every((s) => s.node_versions?.join() === '1,1.1,1.2,1.3,1.4,1.5,1.6,1.7,1.8,1.9,2,2.1,2.2,3,3.1')).toBe(true);
    expect(agents[0]!.version).toBe('3.1');
    expect(result.specs.filter((s) => s.subtype === 'n8n-nodes-base.if').map((s) => s.version)).toEqual(['2.3', '1']);
    expect(result.skipped).toEqual([]);
  });

  it('takes from a legacy package only the typeVersions the current ones lack', () => {
    const legacyIf = { ...fixture['n8n-nodes-base']!.find((n) => n.name === 'if')!, version: [1, 1.5] };
    const withLegacy = importNodes([...packages, { typePrefix: 'n8n-nodes-base', nodes: [legacyIf], legacy: true }]);
    const ifs = withLegacy.specs.filter((s) => s.subtype === 'n8n-nodes-base.if');
    expect(ifs.map((s) => [s.type_versions, s.legacy ?? false])).toEqual([
      [[2, 2.1, 2.2, 2.3], false],
      [[1.5], true],
      [[1], false],
    ]);
  });

  it('keeps the credential types a node takes, with when each applies', () => {
    expect(spec('n8n-nodes-base.mailcheck').credentials).toEqual([{ name: 'mailcheckApi', required: true }]);
    const v1 = result.specs.find((s) => s.subtype === '@n8n/n8n-nodes-langchain.agent' && s.type_versions?.includes(1))!;
    expect(v1.credentials?.map((c) => c.name)).toEqual(['mySql', 'postgres']);
    expect(v1.credentials?.[0]?.display_options).toEqual({ show: { agent: ['sqlAgent'], '/dataSource': ['mysql'] } });
  });

  it('derives the AI-agent tool n8n makes of a node marked usableAsTool', () => {
    const tool = spec('n8n-nodes-base.mailcheckTool');
    expect(tool.tool_of).toBe('n8n-nodes-base.mailcheck');
    expect(tool.input_ports).toEqual([]);
    expect(tool.output_ports.map((p) => p.type)).toEqual(['ai_tool']);
    expect(tool.parameters.slice(0, 2).map((p) => p.name)).toEqual(['descriptionType', 'toolDescription']);
  });

  it('names the port function of ports computed from parameters, and collects its source', () => {
    const agent = spec('@n8n/n8n-nodes-langchain.agent');
    expect(agent.dynamic_ports?.inputs).toMatch(/^[0-9a-z]+$/);
    expect(result.portSources.get(agent.dynamic_ports!.inputs!)).toContain('ai_languageModel');
    expect(spec('n8n-nodes-base.if').dynamic_ports).toBeUndefined();
  });

  it('is repeatable: the same input gives byte-identical output', () => {
    expect(JSON.stringify(importNodes(packages).specs)).toBe(JSON.stringify(result.specs));
  });

  it('classifies by the rules', () => {
    expect(spec('n8n-nodes-base.scheduleTrigger').node_type).toBe('TRIGGER_NODE');
    expect(spec('@n8n/n8n-nodes-langchain.agent').node_type).toBe('AI_AGENT_NODE');
    expect(spec('@n8n/n8n-nodes-langchain.toolCalculator').node_type).toBe('TOOL_NODE');
    expect(spec('n8n-nodes-base.if').node_type).toBe('FLOW_NODE');
    expect(spec('n8n-nodes-base.mailcheck').node_type).toBe('EXTERNAL_ACTION_NODE');
  });

  it('reads ports from expressions, including ai_* connections', () => {
    const agent = spec('@n8n/n8n-nodes-langchain.agent');
    expect(agent.input_ports.map((p) => `${p.type}:${p.name}`)).toEqual([
      'main:main',
      'ai_languageModel:Chat Model',
      'ai_languageModel:Fallback Model',
      'ai_memory:Memory',
      'ai_tool:Tool',
      'ai_outputParser:Output Parser',
    ]);
    expect(agent.input_ports.find((p) => p.name === 'Chat Model')!.required).toBe(true);
    expect(spec('@n8n/n8n-nodes-langchain.toolCalculator').output_ports.map((p) => p.type)).toEqual(['ai_tool']);
    expect(spec('n8n-nodes-base.if').output_ports.map((p) => p.name)).toEqual(['true', 'false']);
    expect(spec('n8n-nodes-base.scheduleTrigger').input_ports).toEqual([]);
  });

  it('keeps the resource/operation structure and display conditions', () => {
    const mailcheck = spec('n8n-nodes-base.mailcheck');
    const resource = mailcheck.parameters.find((p) => p.name === 'resource')!;
    expect(resource.type).toBe('enum');
    expect(resource.enum_values).toContain('email');
    const operation = mailcheck.parameters.find((p) => p.name === 'operation')!;
    expect(operation.display_options?.show?.resource).toEqual(['email']);
    expect(operation.enum_values).toContain('check');
  });

  it('carries codex aliases, categories and the documentation URL as search terms', () => {
    const agent = spec('@n8n/n8n-nodes-langchain.agent');
    expect(agent.aliases).toContain('LangChain');
    expect(agent.categories).toEqual(expect.arrayContaining(['AI', 'Agents']));
    expect(agent.documentation_url).toMatch(/^https:\/\/docs\.n8n\.io\//);
  });

  it('writes an example node with its structural choices, required parameters and credential', () => {
    const example = spec('n8n-nodes-base.mailcheck').examples[0]!;
    expect(example.output).toMatchObject({
      type: 'n8n-nodes-base.mailcheck',
      typeVersion: 1,
      parameters: { resource: 'email', operation: 'check' },
      credentials: { mailcheckApi: { id: expect.any(String), name: expect.any(String) } },
    });
    // The newest version n8n's editor adds, for a node with several.
    expect(spec('n8n-nodes-base.if').examples[0]!.output).toMatchObject({ typeVersion: 2.3 });
    // The choices that decide which other parameters apply are written out too, at their defaults: the node's mode.
    expect(spec('n8n-nodes-base.merge').examples[0]!.parameters).toMatchObject({ mode: 'append' });
    expect(spec('n8n-nodes-base.switch').examples[0]!.parameters).toMatchObject({ mode: 'rules' });
    // Only the switch itself: a parameter of the same name that is no choice at this typeVersion keeps its default unwritten.
    const model: N8nNode = {
      name: 'model',
      displayName: 'Model',
      version: [1, 2],
      properties: [
        { name: 'model', type: 'options', default: 'a', options: [{ name: 'A', value: 'a' }], displayOptions: { show: { '@version': [1] } } },
        { name: 'model', type: 'resourceLocator', default: { mode: 'list', value: '' }, displayOptions: { show: { '@version': [2] } } },
        { name: 'temperature', type: 'number', default: 1, displayOptions: { show: { model: ['a'] } } },
      ],
    };
    const ctx: MapContext = { report: { droppedProperties: {} }, nodeVersions: [1, 2], defaultVersion: 2, legacy: false, portSources: new Map() };
    expect(mapNode(model, 'n8n-nodes-base', ctx).examples[0]!.parameters).toEqual({});
  });

  it('keeps what structured parameters need: each filter’s version per typeVersion, each locator mode’s pattern', () => {
    const ifV2 = result.specs.find((s) => s.subtype === 'n8n-nodes-base.if' && s.type_versions?.includes(2))!;
    expect(ifV2.parameters.find((p) => p.name === 'conditions')!.filter_versions).toEqual([
      [2, 1],
      [2.1, 1],
      [2.2, 2],
      [2.3, 3],
    ]);
    const slack = result.specs.find((s) => s.subtype === 'n8n-nodes-base.slack')!;
    expect(slack.parameters.find((p) => p.name === 'channelId')!.locator_modes).toContainEqual({
      name: 'id',
      placeholder: 'C0122KQ70S7E',
      pattern: '[a-zA-Z0-9]{2,}',
      error: 'Not a valid Slack Channel ID',
    });
  });
});

describe('builder hints', () => {
  it('carries what n8n tells its own AI builder: about the node, the nodes that go with it, and each property', () => {
    const node: N8nNode = {
      name: 'respondToWebhook',
      displayName: 'Respond to Webhook',
      version: 1,
      builderHint: {
        searchHint: 'Only works with a <b>webhook</b> node',
        relatedNodes: [{ nodeType: 'n8n-nodes-base.webhook', relationHint: 'Required trigger' }],
      },
      properties: [
        {
          name: 'respondWith',
          type: 'options',
          default: 'json',
          options: [
            { name: 'JSON', value: 'json', description: 'Respond with a custom JSON body' },
            { name: 'No Data', value: 'noData' },
            { name: 'First Incoming Item', value: 'firstIncomingItem', builderHint: { propertyHint: 'Sends `$json` of the first item' } },
            { name: 'Redirect to a URL', value: 'redirect' },
          ],
          builderHint: { propertyHint: 'Pick json for  objects' },
        },
        { name: 'plain', type: 'string', default: '' },
      ],
    };
    const ctx: MapContext = { report: { droppedProperties: {} }, nodeVersions: [1], defaultVersion: 1, legacy: false, portSources: new Map() };
    const mapped = mapNode(node, 'n8n-nodes-base', ctx);
    expect(mapped.builder_hint).toBe('Only works with a webhook node');
    expect(mapped.related_nodes).toEqual([{ subtype: 'n8n-nodes-base.webhook', hint: 'Required trigger' }]);
    expect(mapped.parameters.map((p) => [p.name, p.hint])).toEqual([
      ['respondWith', 'Pick json for objects'],
      ['plain', undefined],
    ]);
    // What each choice does, where n8n says it: its description, else a label that says more than the value, and its hint.
    expect(mapped.parameters[0]!.enum_descriptions).toEqual(['Respond with a custom JSON body', '', 'Sends `$json` of the first item', 'Redirect to a URL']);
  });

  it('lists the choices n8n loads in its editor that the description itself names: defaults, and values conditions test for', () => {
    // Merge's resolveClash is computed by the node (loadOptions); its default sits on the collection, "addSuffix" in a condition.
    const clash = spec('n8n-nodes-base.merge')
      .parameters.filter((p) => p.name === 'options')
      .flatMap((p) => p.options ?? [])
      .filter((o) => o.name === 'clashHandling')
      .flatMap((o) => o.options![0]!.options!)
      .filter((f) => f.name === 'resolveClash');
    expect(clash.length).toBeGreaterThan(0);
    for (const field of clash) expect(field).toMatchObject({ dynamic_options: true, enum_values: expect.arrayContaining(['addSuffix']) });
    expect(clash.flatMap((f) => f.enum_values)).toContain('preferLast');
  });
});

describe('output ports', () => {
  it('says which outputs n8n names but gives no port (Filter’s "Discarded"): its run data shows them, nothing can be wired to them', () => {
    const [kept, ...rest] = ports(['main'], 'output', ['Kept', 'Discarded']);
    expect(rest).toEqual([]);
    expect(kept!.name).toBe('Kept');
    expect(kept!.description).toContain('"Discarded" items, which this node has no output to connect for');
  });
});
