import { describe, expect, it } from 'vitest';
import { autofix } from '../../src/workflows/autofix';
import { catalogOf } from '../../src/workflows/nodeCatalog';
import { connect, n8nCatalog, node } from '../support/n8nCatalog';
import { expectOwn, fromJson, withPrototypesUnchanged } from '../support/specialNames';

const MODEL = '@n8n/n8n-nodes-langchain.lmChatOpenAi';
const AGENT = '@n8n/n8n-nodes-langchain.agent';
const ids = () => {
  let n = 0;
  return () => `00000000-0000-4000-8000-00000000000${++n}`;
};
const fix = (workflow: unknown) => autofix(workflow, n8nCatalog, { newId: ids() });
const kinds = (result: ReturnType<typeof fix>) => result.fixes.map((f) => `${f.kind}:${f.applied ? 'applied' : 'listed'}`);

function workflow() {
  return {
    nodes: [
      node('Hook', 'webhook', 2.1, { path: 'in', httpMethod: 'POST' }, { webhookId: 'w1' }),
      node('Check', 'if', 2.3),
      node('Yes', 'set', 3.4),
      node('No', 'set', 3.4),
    ],
    connections: connect(['Hook', 'Check'], ['Check', 'Yes', 0], ['Check', 'No', 1]),
  };
}

describe('autofix', () => {
  it('leaves a valid workflow as it is, and never changes its input', () => {
    const input = workflow();
    const snapshot = JSON.stringify(input);
    const result = fix(input);
    expect(result.fixes).toEqual([]);
    expect(result.workflow).toEqual(input);
    expect(JSON.stringify(input)).toBe(snapshot);
  });

  it('fixes a type typo with one clear match and a typeVersion the node lacks; lists an unclear type without applying it', () => {
    const w = workflow();
    w.nodes[1]!.type = 'n8n-nodes-base.iF';
    w.nodes[2]!.typeVersion = 9;
    w.nodes[3]!.type = 'n8n-nodes-base.zz';
    const result = fix(w);
    const newestSet = n8nCatalog.newest('n8n-nodes-base.set')!.node_versions!.at(-1);
    expect(result.workflow).toMatchObject({ nodes: [{}, { type: 'n8n-nodes-base.if' }, { typeVersion: newestSet }, { type: 'n8n-nodes-base.zz' }] });
    expect(kinds(result)).toEqual(['node_type:applied', 'type_version:applied']);
    expect(result.after.errors.map((e) => e.code)).toEqual(['unknown_node_type']);
  });

  it('adds the "=" an expression lacks, closes a "{{" left open, and points a near-miss reference at the real node', () => {
    const w = workflow();
    w.nodes[2]!.parameters = {
      assignments: {
        assignments: [
          { id: 'a', name: 'who', value: 'Hi {{ $json.body.name }}', type: 'string' },
          { id: 'b', name: 'total', value: '={{ $json.body.total ', type: 'number' },
          { id: 'c', name: 'from', value: "={{ $('hook').item.json.body }}", type: 'string' },
        ],
      },
    };
    const result = fix(w);
    const values = (result.workflow as ReturnType<typeof workflow>).nodes[2]!.parameters as { assignments: { assignments: { value: string }[] } };
    expect(values.assignments.assignments.map((a) => a.value)).toEqual([
      '=Hi {{ $json.body.name }}',
      '={{ $json.body.total }}',
      "={{ $('Hook').item.json.body }}",
    ]);
    expect(result.after.valid).toBe(true);
    expect(result.after.warnings).toEqual([]);
  });

  it('names connections by node name, removes stale, duplicate and self connections', () => {
    const w = workflow();
    w.connections = {
      ...connect(['id-Hook', 'Check'], ['Check', 'id-Yes', 0], ['Check', 'No', 1], ['Check', 'No', 1], ['No', 'No'], ['Gone', 'Yes']),
      ...{ Yes: connect(['Yes', 'Deleted'])['Yes']! },
    };
    const result = fix(w);
    expect(kinds(result).sort()).toEqual([
      'connection_by_name:applied',
      'connection_by_name:applied',
      'duplicate_connection:applied',
      'self_connection:applied',
      'stale_connection:applied',
      'stale_connection:applied',
    ]);
    expect(result.after.valid).toBe(true);
    expect((result.workflow as { connections: unknown }).connections).toEqual({
      ...connect(['Hook', 'Check'], ['Check', 'Yes', 0], ['Check', 'No', 1]),
      No: { main: [[]] },
      Yes: { main: [[]] },
    });
  });

  it('moves an AI sub-node wired as main to its AI output, and a connection from an output a one-output node lacks', () => {
    const w = workflow();
    w.nodes.push(
      node('Agent', AGENT, 3.1),
      node('Model', MODEL, 1.3, { model: { __rl: true, mode: 'id', value: 'gpt-4o' } }, { credentials: { openAiApi: { id: '1', name: 'o' } } }),
    );
    Object.assign(w.connections, connect(['Model', 'Agent'], ['Yes', 'Agent', 1]));
    const result = fix(w);
    expect(kinds(result)).toEqual(['ai_connection:applied', 'output_index:applied']);
    expect(result.after.valid).toBe(true);
    expect((result.workflow as { connections: Record<string, unknown> }).connections.Model).toEqual({
      main: [[]],
      ai_languageModel: [[{ node: 'Agent', type: 'ai_languageModel', index: 0 }]],
    });
  });

  it('lists, without applying, an output index on a node with several outputs', () => {
    const w = workflow();
    Object.assign(w.connections, connect(['Check', 'Yes', 2]));
    const result = fix(w);
    expect(kinds(result)).toEqual(['output_index:listed']);
    expect(result.fixes[0]!.description).toContain('0: true, 1: false');
    expect(result.after.valid).toBe(false);
  });

  it('gives a webhook its webhookId and path, and fixes a choice that differs only in case', () => {
    const w = workflow();
    w.nodes[0] = node('Hook', 'webhook', 2.1, { httpMethod: 'post' });
    const result = fix(w);
    expect(kinds(result)).toEqual(['option_value:applied', 'webhook_id:applied', 'webhook_path:applied']);
    expect((result.workflow as ReturnType<typeof workflow>).nodes[0]).toMatchObject({
      webhookId: '00000000-0000-4000-8000-000000000001',
      parameters: { httpMethod: 'POST', path: '00000000-0000-4000-8000-000000000001' },
    });
    expect(result.after.valid).toBe(true);
  });
});

describe('autofix, with node, parameter and connection names that mean something to JavaScript objects', () => {
  it("sets singleValue on conditions whose operation takes no right value, in IF and in every Switch rule, as n8n's editor does", () => {
    const options = { caseSensitive: true, leftValue: '', typeValidation: 'strict', version: 2 };
    const isTrue = { id: 'c1', leftValue: '={{ $json.paid }}', rightValue: '', operator: { type: 'boolean', operation: 'true' } };
    const exists = { id: 'c2', leftValue: '={{ $json.id }}', rightValue: '', operator: { type: 'string', operation: 'exists' } };
    const equals = { id: 'c3', leftValue: '={{ $json.a }}', rightValue: 'b', operator: { type: 'string', operation: 'equals' } };
    const w = workflow();
    w.nodes[1]!.parameters = { conditions: { options, combinator: 'and', conditions: [isTrue, equals] } };
    w.nodes.push(node('Route', 'switch', 3.2, { rules: { values: [{ conditions: { options, combinator: 'and', conditions: [equals, exists] } }] } }));
    const result = fix(w);
    expect(result.before.errors.map((f) => f.code)).toContain('filter_single_value_missing');
    expect(result.fixes.map((f) => `${f.kind}:${f.node}:${f.path}:${f.applied}`)).toEqual([
      'filter_single_value:Check:parameters.conditions.conditions[0].operator.singleValue:true',
      'filter_single_value:Route:parameters.rules.values[0].conditions.conditions[1].operator.singleValue:true',
    ]);
    const fixed = result.workflow as ReturnType<typeof workflow>;
    expect(fixed.nodes[1]!.parameters).toMatchObject({ conditions: { conditions: [{ operator: { singleValue: true } }, { operator: equals.operator }] } });
    expect(JSON.stringify(fixed.nodes[1]!.parameters)).not.toContain('"operation":"equals","singleValue"');
    expect([...result.after.errors, ...result.after.warnings].map((f) => f.code)).not.toContain('filter_single_value_missing');
  });

  it('takes a node named "__proto__" as a name: connections written "__PROTO__" move to it, and nothing else is written', () => {
    const input = {
      nodes: [{ name: '__proto__', type: 'n8n-nodes-base.noOp', typeVersion: 1, parameters: {} }],
      connections: JSON.parse('{"__PROTO__":{"polluted":[[]]}}'),
    };
    const result = withPrototypesUnchanged(() => autofix(input, catalogOf([])));
    expect(kinds(result)).toEqual(['connection_by_name:applied']);
    expect(JSON.stringify((result.workflow as { connections: unknown }).connections)).toBe('{"__proto__":{"polluted":[[]]}}');
  });

  it('fixes connections, references and expressions of such nodes as of any other, keeping every name an own key', () => {
    const w = {
      nodes: [
        node('__proto__', 'manualTrigger', 1),
        node(
          'constructor',
          'set',
          3.4,
          fromJson([
            ['__proto__', 'Hi {{ $json }}'],
            ['assignments', { assignments: [{ id: 'a', name: 'constructor', value: "={{ $('__Proto__').item.json }}", type: 'string' }] }],
          ]),
        ),
        node('prototype', 'set', 3.4),
        node('toString', 'if', 2.3),
        node('hasOwnProperty', 'set', 3.4),
      ],
      connections: fromJson([
        ['__PROTO__', connect(['x', 'CONSTRUCTOR'])['x']],
        ['constructor', connect(['x', 'prototype'], ['x', 'prototype'], ['x', 'constructor'])['x']],
        ['prototype', connect(['x', 'toString'], ['x', 'valueOf'])['x']],
        ['toString', connect(['x', 'hasOwnProperty'])['x']],
        ['valueOf', connect(['x', 'toString'])['x']],
      ]),
    };
    const result = withPrototypesUnchanged(() => fix(w));
    expect(kinds(result)).toEqual([
      'expression_prefix:applied',
      'node_reference:applied',
      'connection_by_name:applied',
      'connection_by_name:applied',
      'stale_connection:applied',
      'stale_connection:applied',
      'self_connection:applied',
      'duplicate_connection:applied',
    ]);
    expect(result.fixes.map((f) => f.node)).toEqual(['constructor', 'constructor', '__proto__', '__proto__', null, 'prototype', 'constructor', 'constructor']);
    expect(result.after.errors).toEqual([]);
    expect(result.after.warnings.map((f) => `${f.code}@${f.node}:${f.path}`)).toEqual(['unknown_parameter@constructor:parameters.__proto__']);
    const fixed = result.workflow as { connections: object; nodes: { parameters: object }[] };
    expect(Object.keys(fixed.connections).sort()).toEqual(['__proto__', 'constructor', 'prototype', 'toString']);
    expectOwn(fixed.connections, '__proto__', connect(['x', 'constructor'])['x']);
    expectOwn(fixed.connections, 'constructor', connect(['x', 'prototype'])['x']);
    expectOwn(fixed.nodes[1]!.parameters, '__proto__', '=Hi {{ $json }}');
    expect(JSON.stringify(fixed.nodes[1]!.parameters)).toContain(`"value":"={{ $('__proto__').item.json }}"`);
    expect(JSON.parse(JSON.stringify(fixed))).toEqual(fixed);
  });

  it('leaves connections of the wrong shape as they are, for validation to report, instead of failing', () => {
    const w = workflow();
    const connections = fromJson<Record<string, unknown>>([
      ...Object.entries(w.connections),
      ['Yes', 'main'],
      ['No', { main: [7, null, [null, 8, { node: 'No' }]] }],
      ['hook', { main: 'x' }],
    ]);
    const result = withPrototypesUnchanged(() => fix({ ...w, connections }));
    expect(kinds(result)).toEqual(['self_connection:applied']);
    expect((result.workflow as { connections: unknown }).connections).toEqual({ ...connections, No: { main: [7, null, [null, 8]] } });
    expect(result.after.errors.map((e) => e.code)).toEqual([
      'invalid_connections',
      'invalid_connections',
      'invalid_connections',
      'invalid_connections',
      'invalid_connections',
    ]);
  });
});

describe('autofix, however much there is to fix', () => {
  it('lists the first 100 fixes, counts the rest, and makes all the sure ones', () => {
    const w = workflow();
    w.nodes[2]!.parameters = {
      assignments: { assignments: Array.from({ length: 250 }, (_, i) => ({ id: `a${i}`, name: `f${i}`, value: `{{ $json.f${i} }}`, type: 'string' })) },
    };
    const result = fix(w);
    expect(result.fixes).toHaveLength(100);
    expect(result).toMatchObject({ omitted: 150, applied: 250 });
    expect(JSON.stringify(result.workflow)).not.toMatch(/"value":"\{\{/);
    expect(result.after.warnings).toEqual([]);
  });

  it('points every reference in a string at its node in one pass', () => {
    const w = workflow();
    w.nodes[2]!.parameters = {
      assignments: {
        assignments: [{ id: 'a', name: 'x', value: "={{ $('hook').item.json.a }} {{ $node['check'].json.b }} {{ $('Yess').item.json.c }}", type: 'string' }],
      },
    };
    const result = fix(w);
    expect(kinds(result)).toEqual(['node_reference:applied', 'node_reference:applied', 'node_reference:applied']);
    expect(JSON.stringify(result.workflow)).toContain(`"={{ $('Hook').item.json.a }} {{ $node['Check'].json.b }} {{ $('Yes').item.json.c }}"`);
  });

  it('gives up looking for names near references once thousands of long names have been compared, leaving them for validation to name', () => {
    // Names a_i + M + b_i; references c + M + d two letters longer: each comparison goes the whole way.
    const middle = 'm'.repeat(996);
    const tag = (i: number) => String.fromCharCode(97 + (i % 26), 97 + Math.floor(i / 26));
    const names = Array.from({ length: 600 }, (_, i) => `${tag(i)}${middle}${tag(i)}`);
    const near = (i: number) => `${tag(i)}${middle}${tag(i)}x`;
    const reference = (ref: string) => ({ id: ref.slice(0, 3), name: 'x', value: `={{ $('${ref}').item.json }}`, type: 'string' });
    const refs = [...Array.from({ length: 5 }, (_, i) => `z${tag(i)}${middle}${tag(i + 1)}z`), near(7)];
    const w = {
      nodes: [
        node('Start', 'manualTrigger', 1),
        node('Refs', 'set', 3.4, { assignments: { assignments: refs.map(reference) } }),
        ...names.map((n) => node(n, 'set', 3.4)),
      ],
      connections: {},
    };
    // One letter off one name: found while the comparisons last.
    expect(
      kinds(
        fix({ ...w, nodes: [...w.nodes.slice(0, 1), node('Refs', 'set', 3.4, { assignments: { assignments: [reference(near(7))] } }), ...w.nodes.slice(2)] }),
      ),
    ).toEqual(['node_reference:applied']);
    // Once two references have been compared with every name (600 comparisons of 5,000 steps each), no more are.
    const result = fix(w);
    expect(kinds(result)).toEqual([]);
    expect(result.after.errors.filter((e) => e.code === 'unknown_node_reference')).toHaveLength(6);
  });
});
