import { describe, expect, it } from 'vitest';
import { autofix } from '../../src/workflows/autofix';
import { connect, n8nCatalog, node } from '../support/n8nCatalog';

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
          { id: 'a', name: 'who', value: 'Hi {{ $json.name }}', type: 'string' },
          { id: 'b', name: 'total', value: '={{ $json.total ', type: 'number' },
          { id: 'c', name: 'from', value: "={{ $('hook').item.json.body }}", type: 'string' },
        ],
      },
    };
    const result = fix(w);
    const values = (result.workflow as ReturnType<typeof workflow>).nodes[2]!.parameters as { assignments: { assignments: { value: string }[] } };
    expect(values.assignments.assignments.map((a) => a.value)).toEqual(['=Hi {{ $json.name }}', '={{ $json.total }}', "={{ $('Hook').item.json.body }}"]);
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
    w.nodes.push(node('Agent', AGENT, 3.1), node('Model', MODEL, 1.3, { model: { __rl: true, mode: 'id', value: 'gpt-4o' } }, { credentials: { openAiApi: { id: '1', name: 'o' } } }));
    Object.assign(w.connections, connect(['Model', 'Agent'], ['Yes', 'Agent', 1]));
    const result = fix(w);
    expect(kinds(result)).toEqual(['ai_connection:applied', 'output_index:applied']);
    expect(result.after.valid).toBe(true);
    expect((result.workflow as { connections: Record<string, unknown> }).connections.Model).toEqual({ main: [[]], ai_languageModel: [[{ node: 'Agent', type: 'ai_languageModel', index: 0 }]] });
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
