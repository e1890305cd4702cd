import { describe, expect, it } from 'vitest';
import { checkConnections, checkRequiredInputs, readConnections, type Endpoint } from '../../src/workflows/connections';
import { Findings } from '../../src/workflows/findings';
import type { NodePort } from '../../src/workflows/ports';

const port = (type: string, overrides: Partial<NodePort> = {}): NodePort => ({ type, name: type, required: false, maxConnections: null, ...overrides });

/** A node with these ports (null: unknown, the rules do not guess). */
const endpoint = (name: string, inputs: NodePort[] | null, outputs: NodePort[] | null, extra: Partial<Endpoint['node']> = {}): [string, Endpoint] => [
  name,
  { node: { name, type: `n8n-nodes-base.${name.toLowerCase()}`, typeVersion: 1, parameters: {}, ...extra }, ports: { inputs, outputs }, displayName: name },
];

const codes = (out: Findings) => out.result().errors.map((e) => `${e.code}@${e.node}`);

describe('readConnections', () => {
  it("reads n8n's connections, a target's type and index defaulting to the output's type and 0, empty outputs skipped", () => {
    const out = new Findings();
    const list = readConnections({ IF: { main: [[{ node: 'A' }], null, [{ node: 'B', type: 'main', index: 1 }]] } }, out);
    expect(list).toEqual([
      { source: 'IF', outputType: 'main', outputIndex: 0, target: 'A', inputType: 'main', inputIndex: 0, path: 'connections.IF.main[0][0]' },
      { source: 'IF', outputType: 'main', outputIndex: 2, target: 'B', inputType: 'main', inputIndex: 1, path: 'connections.IF.main[2][0]' },
    ]);
    expect(out.result().errors).toEqual([]);
    expect(readConnections(undefined, out)).toEqual([]);
  });

  it('answers each bad shape with a finding at its place, and reads the rest', () => {
    const out = new Findings();
    const list = readConnections({ A: 'x', B: { main: 'x' }, C: { main: ['x', [{ nope: 1 }, { node: 'D' }]] } }, out);
    expect(list.map((c) => `${c.source}→${c.target}`)).toEqual(['C→D']);
    expect(out.result().errors.map((e) => e.path)).toEqual(['connections.A', 'connections.B.main', 'connections.C.main[0]', 'connections.C.main[1][0]']);
    expect(out.result().errors.every((e) => e.code === 'invalid_connections')).toBe(true);
    const notAnObject = new Findings();
    readConnections([], notAnObject);
    expect(codes(notAnObject)).toEqual(['invalid_connections@null']);
  });
});

describe('checkConnections', () => {
  const nodes = new Map([
    endpoint('Start', [], [port('main')]),
    endpoint('IF', [port('main')], [port('main', { name: 'true' }), port('main', { name: 'false' })]),
    endpoint('Model', [], [port('ai_languageModel')]),
    endpoint('Agent', [port('main'), port('ai_languageModel', { required: true, maxConnections: 1 })], [port('main')]),
    endpoint('Off', [port('main')], [port('main')], { disabled: true }),
  ]);
  const check = (connections: unknown, ids = new Map<string, string>()) => {
    const out = new Findings();
    checkConnections(readConnections(connections, out), nodes, ids, out);
    return out;
  };

  it('accepts connections between outputs and inputs the nodes have', () => {
    const out = check({
      Start: { main: [[{ node: 'IF' }]] },
      IF: { main: [[{ node: 'Agent' }], [{ node: 'Agent' }]] },
      Model: { ai_languageModel: [[{ node: 'Agent' }]] },
    });
    expect(out.result()).toMatchObject({ valid: true, errors: [] });
  });

  it('finds each kind of wrong connection under its own code', () => {
    expect(codes(check({ Nobody: { main: [[{ node: 'IF' }]] } }))).toEqual(['unknown_source_node@Nobody']);
    expect(codes(check({ Start: { main: [[{ node: 'Nobody' }]] } }))).toEqual(['unknown_target_node@Start']);
    expect(codes(check({ IF: { main: [[{ node: 'IF' }]] } }))).toEqual(['self_connection@IF']);
    expect(codes(check({ Start: { main: [[{ node: 'Agent', type: 'ai_languageModel' }]] } }))).toEqual(['connection_type_mismatch@Start']);
    expect(codes(check({ IF: { main: [[], [], [{ node: 'Agent' }]] } }))).toEqual(['output_index_out_of_range@IF']);
    expect(codes(check({ Model: { main: [[{ node: 'Agent' }]] } }))).toEqual(['invalid_connection_type@Model']);
    expect(codes(check({ IF: { main: [[{ node: 'Start' }]] } }))).toEqual(['invalid_connection_type@IF']);
    expect(codes(check({ Start: { main: [[{ node: 'IF', index: 1 }]] } }))).toEqual(['input_index_out_of_range@Start']);
  });

  it('says when a connection names a node by its id', () => {
    const out = check({ 'id-1': { main: [[{ node: 'IF' }]] } }, new Map([['id-1', 'Start']]));
    expect(out.result().errors[0]!.message).toMatch(/"id-1" is the id of "Start"/);
  });

  it('does not judge what leaves a disabled node', () => {
    expect(codes(check({ Off: { main: [[], [], [{ node: 'IF' }]] } }))).toEqual([]);
  });
});

describe('checkRequiredInputs', () => {
  const nodes = new Map([
    endpoint('Model', [], [port('ai_languageModel')]),
    endpoint('Model 2', [], [port('ai_languageModel')]),
    endpoint('Agent', [port('main'), port('ai_languageModel', { required: true, maxConnections: 1 })], [port('main')]),
  ]);
  const check = (connections: unknown) => {
    const out = new Findings();
    checkRequiredInputs(readConnections(connections, out), nodes, out);
    return codes(out);
  };

  it('finds an AI input a node needs and lacks, and one with more connections than it takes', () => {
    expect(check({})).toEqual(['missing_ai_input@Agent']);
    expect(check({ Model: { ai_languageModel: [[{ node: 'Agent' }]] } })).toEqual([]);
    expect(check({ Model: { ai_languageModel: [[{ node: 'Agent' }]] }, 'Model 2': { ai_languageModel: [[{ node: 'Agent' }]] } })).toEqual([
      'too_many_connections@Agent',
    ]);
  });
});
