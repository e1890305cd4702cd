import { describe, expect, it } from 'vitest';
import { validateWorkflow } from '../../src/workflows/validateWorkflow';
import { connect, n8nCatalog, node } from '../support/n8nCatalog';

const hook = (responseMode: string, typeVersion = 2.1) =>
  node('Webhook', 'webhook', typeVersion, { path: 'in', httpMethod: 'POST', responseMode }, { webhookId: 'a6f0c0e2-0000-4000-8000-000000000003' });
const respond = (name = 'Answer') => node(name, 'respondToWebhook', 1.5, { respondWith: 'json', responseBody: '={{ { ok: true } }}' });
const check = node('Big?', 'if', 2.3, {
  conditions: {
    options: { caseSensitive: true, leftValue: '', typeValidation: 'strict', version: 2 },
    conditions: [{ id: 'c', leftValue: '={{ $json.body.n }}', rightValue: 1, operator: { type: 'number', operation: 'gt' } }],
    combinator: 'and',
  },
});
const keep = node('Keep', 'filter', 2.3, {
  conditions: {
    options: { caseSensitive: true, leftValue: '', typeValidation: 'strict', version: 2 },
    conditions: [{ id: 'f', leftValue: '={{ $json.body.n }}', rightValue: 1, operator: { type: 'number', operation: 'gt' } }],
    combinator: 'and',
  },
});
const RULES = new Set(['no_respond_node', 'unused_respond_node', 'respond_without_webhook', 'items_may_not_reach_respond', 'respond_node_unreachable']);
const found = (w: unknown) => {
  const r = validateWorkflow(w, n8nCatalog);
  return [...r.errors.map((f) => `E ${f.code}@${f.node}`), ...r.warnings.map((f) => `W ${f.code}@${f.node}`)].filter((s) =>
    RULES.has(s.split(' ')[1]!.split('@')[0]!),
  );
};

describe('webhook answers', () => {
  it('finds a Webhook waiting for a Respond to Webhook node that no path reaches', () => {
    expect(found({ nodes: [hook('responseNode'), check], connections: connect(['Webhook', 'Big?']) })).toEqual(['E no_respond_node@Webhook']);
    expect(found({ nodes: [hook('responseNode'), respond()], connections: connect(['Webhook', 'Answer']) })).toEqual([]);
  });

  it('finds a Respond to Webhook no path reaches while a webhook waits for one: the answer it was placed for is never sent', () => {
    const cut = { nodes: [hook('responseNode'), check, respond(), respond('Refusal')], connections: connect(['Webhook', 'Big?'], ['Big?', 'Answer', 0]) };
    expect(found(cut)).toEqual(['E respond_node_unreachable@Refusal', 'W items_may_not_reach_respond@Big?']);
  });

  it('finds a Respond to Webhook no waiting webhook is upstream of, and one after a webhook that answers by itself', () => {
    const w = { nodes: [node('Manual', 'manualTrigger', 1), respond()], connections: connect(['Manual', 'Answer']) };
    expect(found(w)).toEqual(['E respond_without_webhook@Answer']);
    // Never run (nothing reaches it): the unreachable-node warning says so, not this rule.
    expect(found({ nodes: [node('Manual', 'manualTrigger', 1), respond()], connections: {} })).toEqual([]);
    expect(found({ nodes: [hook('onReceived'), respond()], connections: connect(['Webhook', 'Answer']) })).toEqual(['E unused_respond_node@Webhook']);
    // Webhook v1 does not refuse: the Respond node answers nothing.
    expect(found({ nodes: [hook('onReceived', 1.1), respond()], connections: connect(['Webhook', 'Answer']) })).toEqual(['W unused_respond_node@Webhook']);
    expect(found({ nodes: [hook('streaming'), respond()], connections: connect(['Webhook', 'Answer']) })).toEqual([]);
  });

  it('judges a responseMode or resume that is an object whose toString is no function without throwing (the fuzzer found it)', () => {
    const odd = { toString: { x: 0 } };
    expect(found({ nodes: [hook(odd as never), respond()], connections: connect(['Webhook', 'Answer']) })).toEqual(['E unused_respond_node@Webhook']);
    const wait = node('Wait', 'wait', 1.1, { resume: odd, responseMode: 'responseNode' });
    // A Wait that resumes on no webhook or form owns no answer: the Respond node is the Webhook's, which answers by itself.
    expect(found({ nodes: [hook('onReceived'), wait, respond()], connections: connect(['Webhook', 'Wait'], ['Wait', 'Answer']) })).toEqual([
      'E unused_respond_node@Webhook',
    ]);
  });

  it('warns where items can stop before the Respond node: an IF branch that leads to none, a Filter without Always Output Data', () => {
    const branch = { nodes: [hook('responseNode'), check, respond()], connections: connect(['Webhook', 'Big?'], ['Big?', 'Answer', 0]) };
    expect(found(branch)).toEqual(['W items_may_not_reach_respond@Big?']);
    const both = {
      nodes: [hook('responseNode'), check, respond(), respond('Other')],
      connections: connect(['Webhook', 'Big?'], ['Big?', 'Answer', 0], ['Big?', 'Other', 1]),
    };
    expect(found(both)).toEqual([]);
    const filter = { nodes: [hook('responseNode'), keep, respond()], connections: connect(['Webhook', 'Keep'], ['Keep', 'Answer']) };
    expect(found(filter)).toEqual(['W items_may_not_reach_respond@Keep']);
    Object.assign(filter.nodes[1]!, { alwaysOutputData: true });
    expect(found(filter)).toEqual([]);
  });
});

describe('where items run out, as observed on a real n8n', () => {
  const path = (middle: ReturnType<typeof node>) => ({
    nodes: [hook('responseNode'), middle, respond()],
    connections: connect(['Webhook', middle.name], [middle.name, 'Answer']),
  });

  it('warns at a node seen to put out no items though items came in (Split Out of a missing or empty list), saying when', () => {
    const split = node('Split', 'splitOut', 1, { fieldToSplitOut: 'body.ids' });
    const warnings = validateWorkflow(path(split), n8nCatalog).warnings.filter((w) => w.code === 'items_may_not_reach_respond');
    expect(warnings.map((w) => w.node)).toEqual(['Split']);
    expect(warnings[0]!.message).toMatch(/items without the field it reads/);
    expect(warnings[0]!.message).toMatch(/alwaysOutputData/);
  });

  it('warns at a Merge that does not run when one input is empty', () => {
    const merge = node('Join', 'merge', 3.2, { mode: 'combine', combineBy: 'combineByFields', fieldsToMatchString: 'id' });
    const w = {
      nodes: [hook('responseNode'), node('A', 'noOp', 1), node('B', 'noOp', 1), merge, respond()],
      connections: connect(['Webhook', 'A'], ['Webhook', 'B'], ['A', 'Join'], ['B', 'Join', 0, 'main', 1], ['Join', 'Answer']),
    };
    const warning = validateWorkflow(w, n8nCatalog).warnings.find((f) => f.code === 'items_may_not_reach_respond' && f.node === 'Join');
    expect(warning?.message).toMatch(/one input empty/);
  });

  it('says nothing of a node seen always to put out items (Summarize), nor of one with Always Output Data', () => {
    const summarize = node('Count', 'summarize', 1.1, { fieldsToSummarize: { values: [{ aggregation: 'count', field: 'id' }] } });
    expect(found(path(summarize))).toEqual([]);
    expect(found(path(node('Split', 'splitOut', 1, { fieldToSplitOut: 'body.ids' }, { alwaysOutputData: true })))).toEqual([]);
  });
});

describe('webhook answers after a Form Trigger', () => {
  it('refuses a Respond to Webhook after a Form Trigger 2.2+, whatever its mode, as n8n does', () => {
    const form = (typeVersion: number, responseMode: string) =>
      node(
        'Form',
        'formTrigger',
        typeVersion,
        { formTitle: 'T', formFields: { values: [{ fieldLabel: 'Name' }] }, responseMode },
        { webhookId: 'a6f0c0e2-0000-4000-8000-000000000004' },
      );
    const w = (typeVersion: number, responseMode: string) => ({
      nodes: [form(typeVersion, responseMode), respond()],
      connections: connect(['Form', 'Answer']),
    });
    expect(found(w(2.2, 'onReceived'))).toEqual(['E unused_respond_node@Form']);
    expect(found(w(2.1, 'responseNode'))).toEqual([]);
    expect(found(w(2.1, 'onReceived'))).toEqual(['E unused_respond_node@Form']);
  });
});
