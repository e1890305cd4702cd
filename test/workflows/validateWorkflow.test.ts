import { describe, expect, it } from 'vitest';
import { validateWorkflow } from '../../src/workflows/validateWorkflow';
import { connect, n8nCatalog, node } from '../support/n8nCatalog';
import { fromJson, SPECIAL_NAMES, withPrototypesUnchanged } from '../support/specialNames';

const AGENT = '@n8n/n8n-nodes-langchain.agent';
const MODEL = '@n8n/n8n-nodes-langchain.lmChatOpenAi';
const CALCULATOR = '@n8n/n8n-nodes-langchain.toolCalculator';
const credentials = { openAiApi: { id: '1', name: 'OpenAI' } };

const slack = (name: string, parameters: Record<string, unknown> = {}) =>
  node(
    name,
    'slack',
    2.3,
    {
      select: 'channel',
      channelId: { __rl: true, mode: 'id', value: 'C0123' },
      text: "=Order {{ $json.body.id }} from {{ $('Webhook').item.json.body.name }}",
      ...parameters,
    },
    { credentials: { slackApi: { id: '2', name: 'Slack' } } },
  );

/** A workflow n8n runs: webhook → IF (true → Slack, false → Switch with two rules and a fallback) and an AI agent. */
function goodWorkflow() {
  return {
    name: 'Orders',
    nodes: [
      node('Webhook', 'webhook', 2.1, { path: 'orders', httpMethod: 'POST' }, { webhookId: 'a6f0c0e2-0000-4000-8000-000000000001' }),
      node('Is big', 'if', 2.3, {
        conditions: {
          options: { caseSensitive: true, leftValue: '', typeValidation: 'strict', version: 2 },
          conditions: [{ id: 'c1', leftValue: '={{ $json.body.total }}', rightValue: 100, operator: { type: 'number', operation: 'gt' } }],
          combinator: 'and',
        },
      }),
      slack('Tell sales'),
      node('Route', 'switch', 3.4, {
        rules: {
          values: [
            { renameOutput: true, outputKey: 'eu' },
            { renameOutput: true, outputKey: 'us' },
          ],
        },
        options: { fallbackOutput: 'extra' },
      }),
      node('EU', 'set', 3.4, { assignments: { assignments: [{ id: 'a', name: 'region', value: 'eu', type: 'string' }] } }),
      node('US', 'set', 3.4),
      node('Other', 'set', 3.4),
      node('Agent', AGENT, 3.1, { promptType: 'define', text: '={{ $json.body.question }}' }),
      node('Model', MODEL, 1.3, { model: { __rl: true, mode: 'list', value: 'gpt-4o-mini' } }, { credentials }),
      node('Calculator', CALCULATOR, 1),
      node('Note', 'n8n-nodes-base.stickyNote', 1, { content: 'Any text' }),
    ],
    connections: {
      ...connect(
        ['Webhook', 'Is big'],
        ['Is big', 'Tell sales', 0],
        ['Is big', 'Route', 1],
        ['Route', 'EU', 0],
        ['Route', 'US', 1],
        ['Route', 'Other', 2],
        ['Webhook', 'Agent'],
      ),
      ...connect(['Model', 'Agent', 0, 'ai_languageModel'], ['Calculator', 'Agent', 0, 'ai_tool']),
    },
  };
}

type Workflow = ReturnType<typeof goodWorkflow>;
const errorsOf = (w: unknown) => validateWorkflow(w, n8nCatalog).errors;
const codes = (w: unknown) => errorsOf(w).map((e) => `${e.code}@${e.node}`);
const nodeNamed = (w: Workflow, name: string) => w.nodes.find((n) => n.name === name)!;

describe('validate_workflow', () => {
  it('finds nothing wrong in a workflow n8n runs, sticky notes and AI sub-nodes included', () => {
    const result = validateWorkflow(goodWorkflow(), n8nCatalog);
    expect(result.errors).toEqual([]);
    expect(result.warnings).toEqual([]);
    expect(result.valid).toBe(true);
  });

  it('names an unknown node type with its close matches, and only warns about a community node', () => {
    const w = goodWorkflow();
    nodeNamed(w, 'Is big').type = 'n8n-nodes-base.iff';
    nodeNamed(w, 'EU').type = 'n8n-nodes-acme.widget';
    const result = validateWorkflow(w, n8nCatalog);
    expect(result.errors).toEqual([
      expect.objectContaining({ node: 'Is big', code: 'unknown_node_type', message: expect.stringContaining('"n8n-nodes-base.if"') }),
    ]);
    expect(result.warnings.map((x) => x.code)).toContain('unknown_community_node');
    // Its expressions are still n8n's, whatever the node: checked.
    nodeNamed(w, 'EU').parameters = { query: '={{ $json.q ' };
    expect(codes(w)).toEqual(['unknown_node_type@Is big', 'expression_unclosed@EU']);
  });

  it('refuses a typeVersion the node does not have, listing those it has', () => {
    const w = goodWorkflow();
    nodeNamed(w, 'Route').typeVersion = 3.9;
    const [error] = errorsOf(w);
    expect(error).toMatchObject({ node: 'Route', code: 'invalid_type_version', path: 'typeVersion' });
    expect(error!.message).toContain('3.4');
  });

  it('checks each node against its own version: IF v1 has other parameters than IF v2', () => {
    const v1 = {
      nodes: [
        node('Start', 'manualTrigger', 1),
        node('Check', 'if', 1, { conditions: { number: [{ value1: '={{ $now.hour }}', operation: 'larger', value2: 3 }] } }),
      ],
      connections: connect(['Start', 'Check']),
    };
    expect(validateWorkflow(v1, n8nCatalog).valid).toBe(true);
    v1.nodes[1]!.typeVersion = 2.3;
    expect(codes(v1)).toEqual(['invalid_shape@Check']);
  });

  it('finds connections from or to nodes that do not exist, and says when they name an id', () => {
    const w = goodWorkflow();
    w.connections['Route']!['main']![0] = [{ node: 'Nowhere', type: 'main', index: 0 }];
    w.connections['Route']!['main']![1] = [{ node: 'id-US', type: 'main', index: 0 }];
    const errors = errorsOf(w);
    expect(errors.map((e) => e.code)).toEqual(['unknown_target_node', 'unknown_target_node']);
    expect(errors[1]!.message).toContain('is the id of "US"');
  });

  it('finds duplicate node names and ids', () => {
    const w = goodWorkflow();
    w.nodes.push(node('EU', 'set', 3.4));
    nodeNamed(w, 'US').id = 'id-Other';
    expect(codes(w).sort()).toEqual(['duplicate_node_id@Other', 'duplicate_node_name@EU']);
  });

  it('finds a choice outside its option list, naming the choices', () => {
    const w = goodWorkflow();
    (nodeNamed(w, 'Webhook').parameters as Record<string, unknown>).httpMethod = 'FETCH';
    const [error] = errorsOf(w);
    expect(error).toMatchObject({ node: 'Webhook', code: 'invalid_option', path: 'parameters.httpMethod' });
    expect(error!.message).toContain('"POST"');
  });

  it('finds a required parameter that applies but is not set, as n8n does', () => {
    const w = goodWorkflow();
    delete (nodeNamed(w, 'Tell sales').parameters as Record<string, unknown>).text;
    expect(errorsOf(w)).toEqual([expect.objectContaining({ node: 'Tell sales', code: 'missing_required', path: 'parameters.text' })]);
    // Not required when it does not apply: the Slack node posting to a user instead of a channel.
    const other = goodWorkflow();
    Object.assign(nodeNamed(other, 'Tell sales').parameters, { select: 'user', user: { __rl: true, mode: 'id', value: 'U1' } });
    delete (nodeNamed(other, 'Tell sales').parameters as Record<string, unknown>).channelId;
    expect(errorsOf(other)).toEqual([]);
  });

  it('finds a broken expression, and warns about one without its "="', () => {
    const w = goodWorkflow();
    (nodeNamed(w, 'Agent').parameters as Record<string, unknown>).text = '={{ $json.body.question ';
    (nodeNamed(w, 'Tell sales').parameters as Record<string, unknown>).text = 'Order {{ $json.id }}';
    const result = validateWorkflow(w, n8nCatalog);
    expect(result.errors.map((e) => `${e.code}@${e.node}`)).toEqual(['expression_unclosed@Agent']);
    expect(result.warnings.map((e) => `${e.code}@${e.node}`)).toEqual(['expression_without_equals@Tell sales']);
  });

  it('finds references to nodes that do not exist, in each way expressions name a node', () => {
    for (const ref of ["$('Webhok').item.json.x", '$node["Webhok"].json.x', "$items('Webhok')[0].json.x"]) {
      const w = goodWorkflow();
      (nodeNamed(w, 'Tell sales').parameters as Record<string, unknown>).text = `={{ ${ref} }}`;
      const errors = errorsOf(w);
      expect(errors.map((e) => e.code)).toEqual(['unknown_node_reference']);
      expect(errors[0]!.message).toContain('"Webhok"');
    }
    const escaped = goodWorkflow();
    nodeNamed(escaped, 'EU').name = "Bob's";
    escaped.connections['Route']!['main']![0] = [{ node: "Bob's", type: 'main', index: 0 }];
    (nodeNamed(escaped, 'Tell sales').parameters as Record<string, unknown>).text = "={{ $('Bob\\'s').item.json.region }}";
    expect(errorsOf(escaped)).toEqual([]);
  });

  it("reads a Code node's references as n8n runs them: not in comments or the text of strings", () => {
    const w = goodWorkflow();
    w.nodes.push(
      node('Code', 'code', 2, {
        jsCode: [
          "// was $('Old lookup').all()",
          "/* $('Older') */ const note = \"see $('In text')\";",
          "return $('Missing').all().concat(`${$('Also missing').first().json.a} $('Template text')`);",
        ].join('\n'),
      }),
    );
    w.connections['Webhook']!['main']![0]!.push({ node: 'Code', type: 'main', index: 0 });
    expect(errorsOf(w).map((e) => [e.code, e.message.match(/"[^"]+"/)![0]])).toEqual([
      ['unknown_node_reference', '"Missing"'],
      ['unknown_node_reference', '"Also missing"'],
    ]);
  });

  it('finds an AI model connected as main, and an agent left without a model', () => {
    const w = goodWorkflow();
    w.connections['Model'] = connect(['Model', 'Agent'])['Model']!;
    const errors = errorsOf(w);
    expect(errors.map((e) => `${e.code}@${e.node}`)).toEqual(['invalid_connection_type@Model', 'missing_ai_input@Agent']);
    expect(errors[0]!.message).toContain('AI sub-node');
    expect(errors[1]!.message).toContain('Chat Model');
  });

  it('counts outputs for the node’s settings: IF has two, Switch one per rule plus its fallback', () => {
    const w = goodWorkflow();
    w.connections['Is big']!['main']![2] = [{ node: 'Other', type: 'main', index: 0 }];
    expect(codes(w)).toEqual(['output_index_out_of_range@Is big']);
    const noFallback = goodWorkflow();
    (nodeNamed(noFallback, 'Route').parameters as Record<string, unknown>).options = {};
    const [error] = errorsOf(noFallback);
    expect(error).toMatchObject({ node: 'Route', code: 'output_index_out_of_range' });
    expect(error!.message).toMatch(/2 main outputs/);
  });

  it('gives a node with onError continueErrorOutput its error output', () => {
    const w = goodWorkflow();
    w.connections['Tell sales'] = connect(['Tell sales', 'Other', 1])['Tell sales']!;
    expect(codes(w)).toEqual(['output_index_out_of_range@Tell sales']);
    Object.assign(nodeNamed(w, 'Tell sales'), { onError: 'continueErrorOutput' });
    expect(errorsOf(w)).toEqual([]);
  });

  it('finds a node connected to itself', () => {
    const w = goodWorkflow();
    w.connections['EU'] = connect(['EU', 'EU'])['EU']!;
    expect(codes(w)).toEqual(['self_connection@EU']);
  });

  it('counts inputs for the node’s settings: Merge takes as many as numberInputs says', () => {
    const w = goodWorkflow();
    w.nodes.push(node('Join', 'merge', 3.2));
    Object.assign(w.connections, connect(['EU', 'Join', 0, 'main', 0], ['US', 'Join', 0, 'main', 2]));
    expect(codes(w)).toEqual(['input_index_out_of_range@US']);
    (nodeNamed(w, 'Join').parameters as Record<string, unknown>).numberInputs = 3;
    expect(errorsOf(w)).toEqual([]);
  });

  it('warns about a node seen to fail on an item without the field it reads, unless it is set to go on after an error', () => {
    const sort = node('Rank', 'sort', 1, { sortFieldsUi: { sortField: [{ fieldName: 'score', order: 'descending' }] } });
    const w = { nodes: [node('Start', 'manualTrigger', 1), sort], connections: connect(['Start', 'Rank']) };
    const warning = validateWorkflow(w, n8nCatalog).warnings.find((f) => f.code === 'fails_on_missing_field');
    expect(warning?.node).toBe('Rank');
    expect(warning?.message).toMatch(/Couldn't find the field/);
    Object.assign(sort, { onError: 'continueRegularOutput' });
    expect(validateWorkflow(w, n8nCatalog).warnings.filter((f) => f.code === 'fails_on_missing_field')).toEqual([]);
    // Sorted in random order, it reads no field.
    const random = { ...w, nodes: [w.nodes[0], node('Rank', 'sort', 1, { type: 'random' })] };
    expect(validateWorkflow(random, n8nCatalog).warnings.filter((f) => f.code === 'fails_on_missing_field')).toEqual([]);
  });

  it('does not judge disabled nodes', () => {
    const w = goodWorkflow();
    Object.assign(nodeNamed(w, 'Tell sales'), { parameters: { text: 42, resource: 'nope' } });
    // Enabled, the same node is wrong.
    expect(codes(w)).not.toEqual([]);
    expect(codes(w).every((c) => c.endsWith('@Tell sales'))).toBe(true);
    Object.assign(nodeNamed(w, 'Tell sales'), { disabled: true });
    expect(errorsOf(w)).toEqual([]);
  });

  it('does not guess ports that depend on an expression', () => {
    const w = goodWorkflow();
    w.connections['Route']!['main']![7] = [{ node: 'Other', type: 'main', index: 0 }];
    // With its rules written out, Switch has three outputs: an eighth is wrong.
    expect(codes(w)).toEqual(['output_index_out_of_range@Route']);
    (nodeNamed(w, 'Route').parameters as Record<string, unknown>).rules = '={{ $json.body.rules }}';
    expect(errorsOf(w)).toEqual([]);
  });

  it('warns about a workflow nothing starts, and about nodes no trigger reaches', () => {
    const w = goodWorkflow();
    w.nodes.push(node('Orphan', 'set', 3.4));
    expect(validateWorkflow(w, n8nCatalog).warnings.map((x) => `${x.code}@${x.node}`)).toEqual(['unreachable_node@Orphan']);
    const noTrigger = { nodes: [node('A', 'set', 3.4)], connections: {} };
    expect(validateWorkflow(noTrigger, n8nCatalog).warnings.map((x) => x.code)).toEqual(['no_trigger']);
  });

  it('answers bad shapes with findings, not exceptions', () => {
    expect(codes(null)).toEqual(['invalid_workflow@null']);
    expect(codes({ nodes: 'x' })).toEqual(['invalid_workflow@null']);
    expect(codes({ nodes: [{ name: 'A' }, 7, { name: 'B', type: 'n8n-nodes-base.set' }], connections: [] }).sort()).toEqual([
      'invalid_connections@null',
      'invalid_node@A',
      'invalid_node@null',
      'missing_type_version@B',
    ]);
  });
});

describe('validate_workflow, with names that mean something to JavaScript objects', () => {
  /** A trigger named "__proto__" and a chain of nodes named after Object.prototype's properties, each referring to the one before. */
  function special() {
    const names = SPECIAL_NAMES;
    return {
      nodes: names.map((name, i) =>
        i === 0
          ? node(name, 'manualTrigger', 1)
          : node(
              name,
              'set',
              3.4,
              fromJson([
                ['__proto__', 'x'],
                [
                  'assignments',
                  { assignments: [{ id: 'a', name, value: `={{ $('${names[i - 1]}').item.json }} {{ $node["${names[i - 1]}"].json }}`, type: 'string' }] },
                ],
              ]),
            ),
      ),
      connections: fromJson(names.slice(0, -1).map((name, i) => [name, connect(['x', names[i + 1]!])['x']])),
      settings: fromJson([['__proto__', { executionOrder: 'v1' }]]),
    };
  }

  it('takes them as names: nodes, connections, parameters and references that name them', () => {
    const result = withPrototypesUnchanged(() => validateWorkflow(special(), n8nCatalog));
    expect(result.errors).toEqual([]);
    expect(result.warnings.map((f) => `${f.code}@${f.node}:${f.path}`)).toEqual(
      SPECIAL_NAMES.slice(1).map((name) => `unknown_parameter@${name}:parameters.__proto__`),
    );
  });

  it('reports what is wrong with them under their names: a missing target, a connection type nobody has, a duplicate, a reference', () => {
    const w = special();
    const connections = w.connections as Record<string, { main: unknown[][] }>;
    connections['__proto__']!.main[0]!.push({ node: 'valueOf', type: 'main', index: 0 });
    connections['constructor'] = fromJson([
      ['__proto__', [[{ node: 'toString', type: '__proto__', index: 0 }]]],
      ['main', connections['constructor']!.main],
    ]);
    w.nodes.push(node('prototype', 'set', 3.4));
    (w.nodes[4]!.parameters as Record<string, unknown>)['constructor'] = "={{ $('__Proto__').item.json }}";
    const result = withPrototypesUnchanged(() => validateWorkflow(w, n8nCatalog));
    expect(result.errors.map((f) => `${f.code}@${f.node}:${f.path}`)).toEqual([
      'duplicate_node_name@prototype:nodes[5].name',
      'unknown_target_node@__proto__:connections.__proto__.main[0][1]',
      'invalid_connection_type@constructor:connections.constructor.__proto__[0][0]',
      'invalid_connection_type@constructor:connections.constructor.__proto__[0][0]',
      'unknown_node_reference@hasOwnProperty:parameters.constructor',
    ]);
    expect(result.errors[1]!.message).toBe('"__proto__" is connected to "valueOf", which is not a node of this workflow.');
    expect(result.errors[2]!.message).toMatch(/^"constructor" \(Edit Fields \(Set\)\) has no __proto__ output; its outputs: main/);
    expect(result.errors[3]!.message).toMatch(/^"toString" \(Edit Fields \(Set\)\) has no __proto__ input; its inputs: main/);
    expect(result.errors[4]!.message).toMatch(/refers to a node "__Proto__" that this workflow does not have\. Did you mean "__proto__"\?$/);
  });
});

describe('validate_workflow’s answer, however much is wrong', () => {
  it('lists the first 100 errors and 100 warnings, counts the rest, and quotes long names clipped', () => {
    const source = `S${'s'.repeat(999)}`;
    const missing = `M${'m'.repeat(999)}`;
    const w = {
      nodes: [node('Start', 'manualTrigger', 1), node(source, 'set', 3.4)],
      connections: {
        Start: { main: [[{ node: source, type: 'main', index: 0 }]] },
        [source]: { main: [Array.from({ length: 200 }, () => ({ node: missing, type: 'main', index: 0 }))] },
      },
    };
    const result = validateWorkflow(w, n8nCatalog);
    expect(result).toMatchObject({ valid: false, errors: { length: 100 }, warnings: [], omitted: { errors: 100, warnings: 0 } });
    const [first] = result.errors;
    expect(first).toEqual({
      node: source,
      path: `connections.${source.slice(0, 288)}…`,
      code: 'unknown_target_node',
      message: `"${source.slice(0, 100)}…" is connected to "${missing.slice(0, 100)}…", which is not a node of this workflow.`,
    });
    // Each finding once held both names whole, and its path the source's: 0.83 MB for this 0.21 MB workflow.
    expect(JSON.stringify(result).length).toBeLessThan(200_000);
  });
});
