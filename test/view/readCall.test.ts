import { describe, expect, it } from 'vitest';
import { dict } from '../../src/lib/ownKeys';
import { answerOf, compare, readCall, runsOf, runsOfRunData, toolOf, withFetched } from '../../src/view/readCall';
import type { Fetch, Finding, Scene } from '../../src/view/scene';
import { readWorkflow } from '../../src/view/workflow';
import {
  answered,
  autofixValue,
  brokenOrders,
  diffAnswer,
  editAnswer,
  edited,
  errorView,
  execution,
  executionRecord,
  failed,
  fixture,
  keptVersion,
  nodeNamed,
  refused,
  runReport,
  saved,
  summarisedExecution,
  summaryOf,
  testAnswer,
  validateAnswer,
  validation,
  type Answer,
  type Json,
} from './answers';

const names = (scene: Scene, which: 'workflow' | 'before' = 'workflow') => scene[which]?.nodes.map((n) => n.name);
const findingFrom = (f: Json, severity: Finding['severity']): Finding => ({
  severity,
  message: f.message,
  code: f.code,
  ...(f.path === undefined ? {} : { path: f.path }),
});
/** Every finding of a validation result, by the key the view files it under: the node's name, or "" for the workflow. */
function findingsByNode(result: Json): Record<string, Finding[]> {
  const byNode: Record<string, Finding[]> = {};
  for (const [list, severity] of [
    ['errors', 'error'],
    ['warnings', 'warning'],
  ] as const)
    for (const f of result[list] as Json[]) (byNode[f.node ?? ''] ??= []).push(findingFrom(f, severity));
  return byNode;
}

describe('answerOf', () => {
  it('takes structuredContent first, then JSON text, else the words', () => {
    const value = validation(fixture('39'));
    expect(answerOf(validateAnswer(fixture('39')))).toEqual({ json: value, text: '' });
    expect(answerOf(answered(value)).json).toEqual(value);
    expect(answerOf(failed('Not found (404)'))).toEqual({ text: 'Error: Not found (404)' });
    // Text that starts like JSON but is not, or JSON that is not an object: words.
    expect(answerOf({ content: [{ type: 'text', text: '{ not json' }] })).toEqual({ text: '{ not json' });
    expect(answerOf({ content: [{ type: 'text', text: '[1,2]' }] }).json).toBeUndefined();
    expect(answerOf({ content: [{ type: 'text', text: 'a' }, { type: 'image' }, { type: 'text', text: 'b' }] })).toEqual({ text: 'a\n\nb' });
    expect(answerOf({})).toEqual({ text: '' });
  });
});

describe('readCall: validate_workflow', () => {
  it('pins each finding to its node by name, and the workflow’s own under ""', () => {
    // An agent's draft: the order workflow without its trigger (its connections left behind), and a stray entry in its nodes.
    const draft = fixture('39');
    draft.nodes = [...(draft.nodes as Json[]).filter((n) => n.name !== 'New Order'), 'Audit'];
    const result = validation(draft);
    const scene = readCall('validate_workflow', { workflow: draft }, validateAnswer(draft));
    expect(scene.findings).toEqual(findingsByNode(result));
    expect(scene.findings['']).toEqual([expect.objectContaining({ severity: 'error', code: 'invalid_node' })]);
    expect(scene.findings['New Order']).toContainEqual(expect.objectContaining({ severity: 'error', code: 'unknown_source_node' }));
    expect(scene.findings.Lines).toContainEqual(expect.objectContaining({ severity: 'warning', code: 'unreachable_node' }));
    expect(names(scene)).toEqual((draft.nodes as Json[]).filter((n) => typeof n === 'object').map((n) => n.name));
    expect(scene.title).toContain(draft.name);
    expect(scene.summary).toMatch(/^Not valid/);
    expect(scene.summary).toContain(`${result.errors.length} error`);
    expect(scene.actions).toEqual([expect.objectContaining({ tool: 'autofix_workflow', arguments: { workflow: draft } })]);
    expect(scene.fetch).toBeUndefined();
  });

  it('a valid workflow: its warnings, and nothing to fix', () => {
    const workflow = fixture('32');
    const result = validation(workflow);
    expect(result.valid).toBe(true);
    const scene = readCall('validate_workflow', { workflow }, validateAnswer(workflow));
    expect(scene.summary).toMatch(/^Valid/);
    expect(scene.findings).toEqual(findingsByNode(result));
    expect(scene.actions).toEqual([]);
  });
});

describe('readCall: autofix_workflow', () => {
  const broken = brokenOrders();
  const value = autofixValue(broken);

  it('shows the workflow before and after the sure fixes, the fixed nodes marked changed', () => {
    const scene = readCall('autofix_workflow', { workflow: broken }, answered(value));
    expect(nodeNamed(broken, 'Has Lines?').type).toBe('n8n-nodes-base.iF');
    expect(scene.before!.nodes.find((n) => n.name === 'Has Lines?')!.type).toBe('n8n-nodes-base.iF');
    expect(scene.workflow!.nodes.find((n) => n.name === 'Has Lines?')!.type).toBe('n8n-nodes-base.if');
    const fixedNodes = (value.fixes as Json[]).filter((f) => f.applied && f.node !== null).map((f) => f.node);
    expect(fixedNodes.length).toBeGreaterThan(0);
    expect(scene.marks).toEqual(Object.fromEntries(fixedNodes.map((n) => [n, 'changed'])));
  });

  it('lists each fix on its node (made, or left to the person), with the findings left after', () => {
    const scene = readCall('autofix_workflow', { workflow: broken }, answered(value));
    for (const fix of value.fixes as Json[]) {
      expect(scene.findings[fix.node ?? '']).toContainEqual({
        severity: 'info',
        message: fix.description,
        code: fix.kind,
        path: fix.path,
        fix: fix.applied ? 'made' : expect.stringMatching(/^not made \(low\)/),
      });
    }
    for (const f of value.after.errors as Json[]) expect(scene.findings[f.node ?? '']).toContainEqual(findingFrom(f, 'error'));
    expect(scene.summary).toContain(`${value.applied} sure fixes made`);
    expect(scene.summary).toContain(`errors ${value.before.errors} → ${value.after.errors.length}`);
    expect(scene.summary).toContain(`warnings ${value.before.warnings} → ${value.after.warnings.length}`);
    expect(scene.actions).toEqual([]);
  });

  it('a saved workflow (with its id and versionId): offers to save the sure fixes, refused if it changed since', () => {
    const read = saved(broken, 'wf39');
    const scene = readCall('autofix_workflow', { workflow: read }, answered(autofixValue(read)));
    expect(scene.actions).toEqual([
      expect.objectContaining({ tool: 'edit_workflow', arguments: { id: 'wf39', operations: [], autofix: true, expectedVersionId: read.versionId } }),
    ]);
    // Nothing sure to make: nothing to save.
    const clean = saved(fixture('39'), 'wf39');
    expect(readCall('autofix_workflow', { workflow: clean }, answered(autofixValue(clean))).actions).toEqual([]);
  });

  it('an answer too large for the fixed workflow: the workflow as sent, no marks', () => {
    const { workflow: _left, ...rest } = value;
    const scene = readCall(
      'autofix_workflow',
      { workflow: broken },
      answered({ ...rest, workflowLeftOut: 'The answer is 900,000 bytes… The fixed workflow is left out.' }),
    );
    expect(scene.workflow).toEqual(readWorkflow(broken));
    expect(scene.marks).toEqual({});
    expect(scene.findings['Media Mail']).toContainEqual(expect.objectContaining({ code: 'type_version', fix: 'made' }));
  });
});

describe('readCall: the reads of a workflow', () => {
  const orders = fixture('39');

  it('get_workflow: draws n8n’s workflow, offers to check it and to run its saved tests', () => {
    const scene = readCall('get_workflow', { id: 'wf39' }, answered(saved(orders, 'wf39')));
    expect(scene.workflow).toEqual(readWorkflow(saved(orders, 'wf39')));
    expect(scene.title).toBe(`Workflow: ${orders.name}`);
    expect(scene.summary).toBe('Inactive');
    expect(scene.actions).toEqual([
      expect.objectContaining({ tool: 'validate_workflow', arguments: { workflow: saved(orders, 'wf39') } }),
      expect.objectContaining({ tool: 'run_workflow_tests', arguments: { id: 'wf39' } }),
    ]);
    const draft = readCall(
      'get_workflow',
      { id: 'wf39' },
      answered({ ...saved(orders, 'wf39', { active: true }), draft: 'The saved version (a) is a draft…' }),
    );
    expect(draft.summary).toMatch(/^Active · the saved version is not the published one/);
  });

  it('get_workflow with nodes: draws the nodes asked for', () => {
    const whole = saved(orders, 'wf39');
    const part = {
      ...whole,
      nodes: (whole.nodes as Json[]).slice(0, 3),
      connections: { 'New Order': whole.connections['New Order'] },
      partial: 'Only the nodes asked for…',
    };
    const scene = readCall('get_workflow', { id: 'wf39', nodes: ['New Order', 'Has Lines?', 'Reject'] }, answered(part));
    expect(names(scene)).toEqual(['New Order', 'Has Lines?', 'Reject']);
    expect(scene.workflow!.edges.map((e) => e.to)).toEqual(['Has Lines?']);
  });

  it('get_workflow too large (an outline without positions): says so, draws nothing', () => {
    const whole = saved(orders, 'wf39');
    const outline = {
      ...whole,
      nodes: (whole.nodes as Json[]).map((n) => ({ name: n.name, type: n.type, typeVersion: n.typeVersion, bytes: JSON.stringify(n).length })),
      answerTooLarge: 'The answer is 900,000 bytes…',
    };
    const scene = readCall('get_workflow', { id: 'wf39' }, answered(outline));
    expect(scene.workflow).toBeUndefined();
    expect(scene.error).toMatch(/too large/);
    // An outline cannot be checked: only its tests can be run.
    expect(scene.actions.map((a) => a.tool)).not.toContain('validate_workflow');
  });

  it('get_workflow_version: the kept version, and its restore', () => {
    const scene = readCall('get_workflow_version', { id: 'wf39', version: 4 }, answered(keptVersion('wf39', 4, orders)));
    expect(names(scene)).toEqual((orders.nodes as Json[]).map((n) => n.name));
    expect(scene.summary).toBe('Version 4 of workflow wf39');
    expect(scene.actions).toEqual([expect.objectContaining({ tool: 'restore_workflow_version', arguments: { id: 'wf39', version: 4 } })]);
  });

  it('get_template: the template’s workflow, its licence and author', () => {
    const template = {
      id: '0123456789ab',
      name: 'Order fulfilment',
      description: 'Routes order lines to carriers',
      licence: 'MIT',
      author: 'n8n community',
      source: { repo: 'example/templates', commit: 'abc', path: 'orders.json', link: 'https://github.com/example/templates/blob/abc/orders.json' },
      fixes: [],
      attribution: '"Order fulfilment" from …',
      deploy: 'Pass `workflow` to create_workflow…',
      workflow: orders,
    };
    const scene = readCall('get_template', { id: template.id }, answered(template));
    expect(scene.workflow).toEqual(readWorkflow(orders));
    expect(scene.title).toBe('Template: Order fulfilment');
    expect(scene.summary).toBe('MIT, by n8n community');
  });
});

describe('readCall: create_workflow and update_workflow', () => {
  const orders = fixture('39');
  const result = validation(orders);

  it('create: every node added, the validation’s findings on their nodes', () => {
    const scene = readCall('create_workflow', { workflow: orders }, answered({ ...summaryOf(orders, 'new1'), validation: result }));
    expect(scene.marks).toEqual(Object.fromEntries((orders.nodes as Json[]).map((n) => [n.name, 'added'])));
    expect(scene.findings).toEqual(findingsByNode(result));
    expect(scene.summary).toMatch(/^Created workflow new1\./);
    expect(scene.fetch).toBeUndefined();
    expect(scene.actions).toEqual([]);
    const unchecked = readCall(
      'create_workflow',
      { workflow: orders },
      answered({ ...summaryOf(orders, 'new1'), validation: { skipped: 'no node catalog is loaded on this server' } }),
    );
    expect(unchecked.findings).toEqual({});
  });

  it('update: reads the version it replaced, and offers to undo', () => {
    const scene = readCall('update_workflow', { id: 'wf39', workflow: orders }, answered({ ...summaryOf(orders, 'wf39'), previousVersion: 7 }));
    expect(scene.marks).toEqual({});
    expect(scene.fetch).toEqual([{ tool: 'get_workflow_version', arguments: { id: 'wf39', version: 7 }, into: 'before' }]);
    expect(scene.actions).toEqual([
      expect.objectContaining({ label: 'Undo this change', tool: 'restore_workflow_version', arguments: { id: 'wf39', version: 7 } }),
    ]);
    // The id may be only in the workflow: the answer's id is used.
    const byAnswer = readCall('update_workflow', { workflow: orders }, answered({ ...summaryOf(orders, 'wf39'), previousVersion: 7 }));
    expect(byAnswer.fetch).toEqual(scene.fetch);
  });

  it('update that changed nothing: nothing to read or undo', () => {
    const scene = readCall(
      'update_workflow',
      { id: 'wf39', workflow: orders },
      answered({ ...summaryOf(orders, 'wf39'), unchanged: 'n8n already held this workflow: nothing was written.' }),
    );
    expect(scene.fetch).toBeUndefined();
    expect(scene.actions).toEqual([]);
    expect(scene.summary).toContain('nothing was written');
  });
});

describe('readCall: edit_workflow', () => {
  const before = fixture('39');
  const operations = [
    { type: 'addNode', node: { name: 'Audit', type: 'n8n-nodes-base.noOp', typeVersion: 1, position: [1900, 500] } },
    { type: 'addConnection', source: 'Accept', target: 'Audit' },
    { type: 'removeNode', name: 'Freight' },
    { type: 'setParameter', name: 'Media Mail', path: '/assignments/assignments/0/value', value: 'media' },
    { type: 'renameNode', name: 'Standard Parcel', newName: 'Parcel' },
    { type: 'disableNode', name: 'Reject' },
  ];
  const after = edited(before, operations);

  it('saved: marks the nodes its operations name, reads the workflow now and the version it replaced, offers to undo', () => {
    const scene = readCall('edit_workflow', { id: 'wf39', operations }, answered(editAnswer('wf39', after, operations, 12)));
    expect(scene.workflow).toBeUndefined();
    expect(scene.marks).toEqual({ Audit: 'added', Freight: 'removed', 'Media Mail': 'changed', Parcel: 'changed', Reject: 'changed' });
    expect(scene.fetch).toEqual([
      { tool: 'get_workflow', arguments: { id: 'wf39' }, into: 'workflow' },
      { tool: 'get_workflow_version', arguments: { id: 'wf39', version: 12 }, into: 'before' },
    ]);
    expect(scene.actions).toEqual([expect.objectContaining({ tool: 'restore_workflow_version', arguments: { id: 'wf39', version: 12 } })]);
    expect(scene.summary).toMatch(/^Saved: 6 operations\./);
  });

  it('marks only nodes: operations on the workflow itself (its name, settings, tags) mark none', () => {
    const whole = [
      ...operations,
      { type: 'updateName', name: 'Orders (edited)' },
      { type: 'updateSettings', settings: { timezone: 'Europe/Berlin' } },
      { type: 'addTag', tag: 'orders' },
    ];
    const renamed = edited(before, whole);
    const scene = readCall('edit_workflow', { id: 'wf39', operations: whole }, answered(editAnswer('wf39', renamed, whole, 12)));
    const nodes = new Set([...(before.nodes as Json[]), ...(renamed.nodes as Json[])].map((n) => n.name));
    expect(Object.keys(scene.marks).filter((name) => !nodes.has(name))).toEqual([]);
  });

  it('a preview (validateOnly): draws the edited workflow, reads the saved one as the before', () => {
    const { saved: _s, previousVersion: _p, ...rest } = editAnswer('wf39', after, operations, 12);
    const preview = { ...rest, saved: false, preview: true, tags: { add: [], remove: [] }, workflow: after };
    const scene = readCall('edit_workflow', { id: 'wf39', operations, validateOnly: true }, answered(preview));
    expect(names(scene)).toEqual((after.nodes as Json[]).map((n) => n.name));
    expect(scene.fetch).toEqual([{ tool: 'get_workflow', arguments: { id: 'wf39' }, into: 'before' }]);
    expect(scene.actions).toEqual([]);
    expect(scene.summary).toMatch(/^Preview, not saved/);
  });
});

describe('readCall: runs', () => {
  it('test_workflow: each node’s run in order, the failed node’s error and the items it got; reads the workflow', () => {
    const run = execution('failed');
    const answer = testAnswer(run);
    const scene = readCall('test_workflow', { id: run.workflowId, payload: { n: 2 } }, answered(answer));
    const report = answer.execution;
    expect(Object.keys(scene.runs)).toEqual(report.path);
    expect(report.path).toEqual(['Hook', 'Split', 'Check']);
    expect(scene.runs.Hook).toMatchObject({ status: 'success', items: [1], order: 1 });
    expect(scene.runs.Split).toMatchObject({ status: 'success', items: [2], order: 2, output: report.nodes[1].sample });
    expect(scene.runs.Check).toMatchObject({
      status: 'error',
      order: 3,
      error: report.failed.error,
      received: { from: 'Split', items: 2, samples: report.failed.input.samples },
    });
    expect(scene.runs.Check!.error).toBe(run.data.resultData.runData.Check[0].error.message);
    expect(scene.summary).toBe(report.verdict);
    expect(scene.title).toBe(`Test run: ${run.workflowData.name}`);
    expect(scene.fetch).toEqual([{ tool: 'get_workflow', arguments: { id: run.workflowId }, into: 'workflow' }]);
    expect(scene.actions).toEqual([expect.objectContaining({ tool: 'run_workflow_tests', arguments: { id: run.workflowId } })]);
  });

  it('test_workflow: a node with labelled outputs (a Filter’s Kept and Discarded) has its items per output', () => {
    const run = execution('stopped');
    const report = runReport(run);
    expect(report.nodes.find((n: Json) => n.node === 'Keep').outputs).toEqual([
      { name: 'Kept', count: 0 },
      { name: 'Discarded', count: 2 },
    ]);
    const scene = readCall('test_workflow', { id: run.workflowId }, answered({ ...testAnswer(run), execution: report }));
    expect(scene.runs.Keep).toMatchObject({ status: 'success', items: [0, 2] });
    expect(scene.runs).not.toHaveProperty('Respond');
  });

  it('test_workflow with cases: the failed cases’ words, and the first failed case’s run read from its execution', () => {
    const run = execution('failed');
    const answer = {
      workflow: { id: run.workflowId, name: run.workflowData.name },
      passed: false,
      cases: [
        { name: 'answers', passed: true, failures: [], execution: '2', ranVersionId: 'b7f5', verdict: 'success', response: { status: 200, body: [] } },
        {
          name: 'needs need',
          passed: false,
          failures: ['the run failed: "Check" stopped the run: need is missing on item 0 [line 1]'],
          execution: '1',
          verdict: 'failed',
        },
        { name: 'no trigger', passed: false, failures: ['"Nope" is not an enabled Webhook, Form or Chat trigger'] },
      ],
    };
    const scene = readCall('test_workflow', { id: run.workflowId, cases: [{}, {}, {}] }, answered(answer));
    expect(scene.summary).toBe('1 of 3 tests passed');
    expect(scene.findings['']!.map((f) => f.message)).toEqual([`needs need: ${answer.cases[1]!.failures[0]}`, `no trigger: ${answer.cases[2]!.failures[0]}`]);
    expect(scene.fetch).toEqual([
      { tool: 'get_workflow', arguments: { id: run.workflowId }, into: 'workflow' },
      { tool: 'get_execution', arguments: { id: '1', view: 'error' }, into: 'runs' },
    ]);
  });

  it('run_workflow_tests: the saved tests, the failed one’s run read; none saved: its note', () => {
    const tests = [
      { name: 'greets', passed: true, failures: [], execution: '5' },
      { name: 'refuses', passed: false, failures: ['status 500, not 400'], execution: '6' },
    ];
    const scene = readCall('run_workflow_tests', { id: 'wf1' }, answered({ id: 'wf1', passed: false, tests }));
    expect(scene.summary).toBe('1 of 2 tests passed');
    expect(scene.fetch).toEqual([
      { tool: 'get_workflow', arguments: { id: 'wf1' }, into: 'workflow' },
      { tool: 'get_execution', arguments: { id: '6', view: 'error' }, into: 'runs' },
    ]);
    const passing = readCall('run_workflow_tests', { id: 'wf1' }, answered({ id: 'wf1', passed: true, tests: [tests[0]] }));
    expect(passing.fetch![1]!.arguments).toEqual({ id: '5', view: 'error' });
    const none = readCall('run_workflow_tests', { id: 'wf1' }, answered({ id: 'wf1', passed: true, tests: [], note: 'Workflow wf1 has no saved tests.' }));
    expect(none.summary).toBe('Workflow wf1 has no saved tests.');
    expect(none.fetch).toEqual([{ tool: 'get_workflow', arguments: { id: 'wf1' }, into: 'workflow' }]);
  });

  it('try_nodes: its nodes in a chain at the places it puts them, each node’s run, the failure', () => {
    const run = execution('failed');
    const tried = ['Split', 'Check'].map((name) => {
      const { position: _p, id: _id, ...node } = nodeNamed(run.workflowData, name);
      return node;
    });
    const report = runReport(run);
    const answer = {
      nodes: report.nodes.filter((n: Json) => n.node !== 'Hook'),
      failed: { ...report.failed, input: { ...report.failed.input } },
      cleanUp: { deleted: true, workflow: 'tHrOwAwAy1', executions: ['1'] },
    };
    const scene = readCall('try_nodes', { nodes: tried, items: [{ n: 2 }] }, answered(answer));
    expect(scene.workflow!.nodes.map((n) => [n.name, n.position])).toEqual([
      ['Split', [400, 0]],
      ['Check', [600, 0]],
    ]);
    expect(scene.workflow!.edges).toEqual([{ from: 'Split', type: 'main', output: 0, to: 'Check', input: 0 }]);
    expect(scene.runs.Check).toMatchObject({ status: 'error', error: report.failed.error, received: { items: 2 } });
    expect(scene.summary).toBe(`Failed at "Check": ${report.failed.error}`);
  });

  it('try_nodes: the connections given, and the last node’s output items', () => {
    const run = execution('answered');
    const nodes = ['Split', 'Check', 'Keep'].map((name) => nodeNamed(run.workflowData, name));
    const connections = { Split: run.workflowData.connections.Split, Check: run.workflowData.connections.Check };
    const kept = run.data.resultData.runData.Keep[0].data.main.map((items: Json[]) => items.map((i) => i.json));
    const report = runReport(run);
    const answer = {
      nodes: report.nodes.filter((n: Json) => nodes.some((node) => node.name === n.node)),
      output: {
        node: 'Keep',
        count: 2,
        outputs: kept.map((items: unknown[], output: number) => ({ output, name: ['Kept', 'Discarded'][output], count: items.length, items })),
      },
      cleanUp: { deleted: true, workflow: 'tHrOwAwAy2' },
    };
    const scene = readCall('try_nodes', { nodes, connections, items: [{ n: 2, need: 'yes' }] }, answered(answer));
    // Their own positions where given.
    expect(scene.workflow!.nodes.map((n) => n.position)).toEqual(nodes.map((n) => n.position));
    expect(scene.workflow!.edges.map((e) => `${e.from}→${e.to}`)).toEqual(['Split→Check', 'Check→Keep']);
    expect(scene.runs.Keep!.output).toEqual(answer.output.outputs);
    expect(scene.summary).toBe('Ran: 2 items out of "Keep"');
  });
});

describe('readCall: get_execution', () => {
  it('n8n’s raw execution: the workflow as it ran and each node’s run, nothing to read', () => {
    const run = execution('failed');
    const scene = readCall('get_execution', { id: '1', includeData: true }, answered(run));
    expect(scene.workflow).toEqual(readWorkflow(run.workflowData));
    const runData = run.data.resultData.runData;
    expect(Object.keys(scene.runs)).toEqual(['Hook', 'Split', 'Check']);
    expect(scene.runs.Split).toEqual({ status: 'success', items: [2], output: runData.Split[0].data.main[0].map((i: Json) => i.json), order: 2 });
    expect(scene.runs.Check).toMatchObject({ status: 'error', error: runData.Check[0].error.message, order: 3 });
    expect(scene.title).toBe('Execution: #1');
    // n8n's record names no failure of its own: the node whose run erred is where it stopped.
    expect(scene.summary).toBe(`${run.status} at "Check": ${runData.Check[0].error.message}`);
    expect(scene.fetch).toEqual([]);
    const answeredRun = execution('answered');
    expect(readCall('get_execution', { id: '2', includeData: true }, answered(answeredRun)).runs.Keep).toMatchObject({ status: 'success', items: [2, 0] });
  });

  it('the error view: each node’s run and the failure; reads the workflow', () => {
    const run = execution('failed');
    const view = errorView(run);
    const scene = readCall('get_execution', { id: '1', view: 'error' }, answered(view));
    expect(scene.runs.Check).toMatchObject({ status: 'error', order: 3, received: { from: 'Split', items: 2, samples: view.failed.input.samples } });
    expect(scene.summary).toBe(`error at "Check": ${view.failed.error}`);
    expect(scene.fetch).toEqual([{ tool: 'get_workflow', arguments: { id: run.workflowId }, into: 'workflow' }]);
  });

  it('summarised data: the runs from the per-node summary; reads the workflow', () => {
    const run = execution('failed');
    const scene = readCall('get_execution', { id: '1', includeData: true }, answered(summarisedExecution(run)));
    expect(Object.keys(scene.runs)).toEqual(['Hook', 'Split', 'Check']);
    expect(scene.runs.Check!.status).toBe('error');
    expect(scene.fetch).toEqual([{ tool: 'get_workflow', arguments: { id: run.workflowId }, into: 'workflow' }]);
  });

  it('the record alone: reads the workflow and the error view', () => {
    const run = execution('failed');
    const scene = readCall('get_execution', { id: '1' }, answered(executionRecord(run)));
    expect(scene.runs).toEqual({});
    expect(scene.fetch).toEqual([
      { tool: 'get_workflow', arguments: { id: run.workflowId }, into: 'workflow' },
      { tool: 'get_execution', arguments: { id: '1', view: 'error' }, into: 'runs' },
    ]);
  });
});

describe('readCall: versions', () => {
  const before = fixture('39');
  const after = edited(before, [
    { type: 'removeNode', name: 'Freight' },
    { type: 'addNode', node: { name: 'Audit', type: 'n8n-nodes-base.noOp', typeVersion: 1, position: [1900, 500] } },
    { type: 'setParameter', name: 'Media Mail', path: '/assignments/assignments/0/value', value: 'media' },
  ]);

  it('diff_workflow_versions: marks what the diff names, reads both versions, offers to restore the older', () => {
    const diff = diffAnswer('wf39', 3, 'current', before, after);
    const scene = readCall('diff_workflow_versions', { id: 'wf39', from: 3 }, answered(diff));
    expect(scene.marks).toEqual({
      ...Object.fromEntries((diff.nodes.added as string[]).map((n) => [n, 'added'])),
      ...Object.fromEntries((diff.nodes.removed as string[]).map((n) => [n, 'removed'])),
      ...Object.fromEntries((diff.nodes.changed as Json[]).map((c) => [c.node, 'changed'])),
    });
    expect(scene.marks).toMatchObject({ Audit: 'added', Freight: 'removed', 'Media Mail': 'changed' });
    expect(scene.fetch).toEqual([
      { tool: 'get_workflow_version', arguments: { id: 'wf39', version: 3 }, into: 'before' },
      { tool: 'get_workflow', arguments: { id: 'wf39' }, into: 'workflow' },
    ]);
    expect(scene.actions).toEqual([expect.objectContaining({ tool: 'restore_workflow_version', arguments: { id: 'wf39', version: 3 } })]);
    expect(scene.summary).toContain('1 added, 1 removed');
  });

  it('diff: the versions read in keep the diff’s own marks, which its summary counts (a connection to a node does not change it)', () => {
    const diff = diffAnswer('wf39', 3, 'current', before, after);
    let scene = readCall('diff_workflow_versions', { id: 'wf39', from: 3 }, answered(diff));
    const marks = scene.marks;
    scene = withFetched(scene, 'before', answered(keptVersion('wf39', 3, before)));
    scene = withFetched(scene, 'workflow', answered(saved(after, 'wf39')));
    expect(scene.marks).toEqual(marks);
    // Comparing the two alone would also mark the nodes whose connections moved.
    expect(Object.keys(compare(scene.before!, scene.workflow!)).length).toBeGreaterThan(Object.keys(marks).length);
  });

  it('diff from the current copy to a kept version: no restore of "current"; the same versions: said', () => {
    const scene = readCall('diff_workflow_versions', { id: 'wf39', from: 'current', to: 2 }, answered(diffAnswer('wf39', 'current', 2, after, before)));
    expect(scene.fetch).toEqual([
      { tool: 'get_workflow', arguments: { id: 'wf39' }, into: 'before' },
      { tool: 'get_workflow_version', arguments: { id: 'wf39', version: 2 }, into: 'workflow' },
    ]);
    expect(scene.actions).toEqual([]);
    const same = readCall('diff_workflow_versions', { id: 'wf39', from: 2, to: 3 }, answered(diffAnswer('wf39', 2, 3, before, before)));
    expect(same.summary).toBe('The two versions are the same');
    expect(same.marks).toEqual({});
  });

  it('restore_workflow_version: reads the workflow now and the version it replaced; offers to undo', () => {
    const answer = { restored: true, id: 'wf39', version: 2, active: false, versionId: 'v9', liveVersionId: null, kept: 9 };
    const scene = readCall('restore_workflow_version', { id: 'wf39', version: 2 }, answered(answer));
    expect(scene.summary).toBe('Version 2 restored');
    expect(scene.fetch).toEqual([
      { tool: 'get_workflow', arguments: { id: 'wf39' }, into: 'workflow' },
      { tool: 'get_workflow_version', arguments: { id: 'wf39', version: 9 }, into: 'before' },
    ]);
    expect(scene.actions).toEqual([
      expect.objectContaining({ label: 'Undo the restore', tool: 'restore_workflow_version', arguments: { id: 'wf39', version: 9 } }),
    ]);
  });

  it('restore of a deleted workflow: reads the new workflow by its new id', () => {
    const answer = {
      restored: true,
      id: 'nEw1',
      from: { id: 'wf39', version: 2 },
      note: 'Workflow wf39 was deleted: version 2 is now workflow nEw1 (inactive).',
      kept: 1,
    };
    const scene = readCall('restore_workflow_version', { id: 'wf39', version: 2 }, answered(answer));
    expect(scene.summary).toBe(answer.note);
    // The new workflow's first version is the only one it has: nothing before it to read or go back to.
    expect(scene.fetch).toEqual([{ tool: 'get_workflow', arguments: { id: 'nEw1' }, into: 'workflow' }]);
    expect(scene.actions).toEqual([]);
  });
});

describe('readCall: error answers', () => {
  it('a get_workflow that failed is not read again: the same read would fail the same way', () => {
    const scene = readCall('get_workflow', { id: 'wf39' }, failed('Not found (404)'));
    expect(scene.error).toBe('Not found (404)');
    expect(scene.fetch).toBeUndefined();
    // Any other call about a saved workflow reads it, to show what went wrong on it.
    expect(readCall('test_workflow', { id: 'wf39' }, failed('This caller has 2 runs going')).fetch).toEqual([
      { tool: 'get_workflow', arguments: { id: 'wf39' }, into: 'workflow' },
    ]);
  });

  it('an error sentence: its words, without "Error: "', () => {
    const scene = readCall('get_execution', { id: '99' }, failed('Not found (404)'));
    expect(scene.error).toBe('Not found (404)');
    expect(scene.summary).toMatch(/^Not done/);
    expect(scene.workflow).toBeUndefined();
    expect(scene.fetch).toBeUndefined();
    const input = readCall(
      'validate_workflow',
      {},
      { isError: true, content: [{ type: 'text', text: 'Input validation error: Invalid arguments for tool validate_workflow: workflow: Required' }] },
    );
    expect(input.error).toBe('Input validation error: Invalid arguments for tool validate_workflow: workflow: Required');
  });

  it('a refused create: the reason, the workflow sent with the findings on their nodes', () => {
    const broken = brokenOrders();
    const { errors, warnings } = validation(broken);
    const reason = 'The workflow has 4 errors: nothing was saved. Fix them, or pass force: true.';
    const scene = readCall('create_workflow', { workflow: broken }, refused({ saved: false, reason, errors, warnings }));
    expect(scene.error).toBe(reason);
    expect(scene.workflow).toEqual(readWorkflow(broken));
    expect(scene.findings).toEqual(findingsByNode({ errors, warnings }));
    expect(scene.summary).toBe(`Not done. ${errors.length} errors, ${warnings.length} warnings`);
  });

  it('a refused edit (no workflow in the call): reads the saved workflow to show the findings on', () => {
    const errors = [{ node: 'Big', code: 'output_index_out_of_range', path: 'connections.Big.main[3][0]', message: '"Big" has 1 main output…' }];
    const scene = readCall(
      'edit_workflow',
      { id: 'wf1', operations: [{ type: 'addConnection', source: 'Big', target: 'Small order', sourceOutput: 3 }] },
      refused({ saved: false, reason: 'The edit brings new errors…', operation: { index: 0, type: 'addConnection' }, errors }),
    );
    expect(scene.findings.Big).toEqual([findingFrom(errors[0]!, 'error')]);
    expect(scene.fetch).toEqual([{ tool: 'get_workflow', arguments: { id: 'wf1' }, into: 'workflow' }]);
  });

  it('a refused try: the nodes it was given, and why they cannot run', () => {
    const nodes = [
      nodeNamed(execution('failed').workflowData, 'Split'),
      { name: 'Shell', type: 'n8n-nodes-base.executeCommand', typeVersion: 1, parameters: { command: 'ls' } },
    ];
    const scene = readCall(
      'try_nodes',
      { nodes },
      refused({ ran: false, reason: 'Some nodes cannot run here.', cannotRun: [{ node: 'Shell', why: 'runs commands on the n8n host' }] }),
    );
    expect(names(scene)).toEqual(['Split', 'Shell']);
    expect(scene.error).toBe('Some nodes cannot run here.');
  });

  it('a read over the budget: its sentence', () => {
    const scene = readCall(
      'diff_workflow_versions',
      { id: 'wf1', from: 1 },
      refused({ id: 'wf1', from: 1, to: 'current', same: false, answerTooLarge: 'The answer is 900,000 bytes…' }),
    );
    expect(scene.error).toBe('The answer is 900,000 bytes…');
  });
});

describe('readCall: the instance a call named', () => {
  const orders = fixture('39');
  const run = execution('failed');
  const calls: [string, Json, Json][] = [
    ['get_workflow', { id: 'wf39' }, saved(orders, 'wf39')],
    ['get_workflow_version', { id: 'wf39', version: 2 }, keptVersion('wf39', 2, orders)],
    ['update_workflow', { id: 'wf39', workflow: orders }, { ...summaryOf(orders, 'wf39'), previousVersion: 3 }],
    ['edit_workflow', { id: 'wf39', operations: [] }, editAnswer('wf39', orders, [], 3)],
    ['test_workflow', { id: run.workflowId }, testAnswer(run)],
    ['run_workflow_tests', { id: 'wf39' }, { id: 'wf39', passed: false, tests: [{ name: 'a', passed: false, failures: ['x'], execution: '1' }] }],
    ['get_execution', { id: '1' }, executionRecord(run)],
    ['diff_workflow_versions', { id: 'wf39', from: 1 }, diffAnswer('wf39', 1, 'current', orders, orders)],
    [
      'restore_workflow_version',
      { id: 'wf39', version: 1 },
      { restored: true, id: 'wf39', version: 1, active: false, versionId: 'a', liveVersionId: null, kept: 4 },
    ],
  ];

  it.each(calls)('%s: every read and action it leads to names the same instance', (tool, args, value) => {
    const plain = readCall(tool, args, answered(value));
    const onStaging = readCall(tool, { ...args, instance: 'staging' }, answered(value));
    // validate_workflow and autofix_workflow read no n8n: they take no instance.
    const followUps = (scene: Scene): (Fetch | Scene['actions'][number])[] =>
      [...(scene.fetch ?? []), ...scene.actions].filter((f) => f.tool !== 'validate_workflow' && f.tool !== 'autofix_workflow');
    expect(followUps(onStaging).length).toBeGreaterThan(0);
    expect(followUps(onStaging).map((f) => f.arguments)).toEqual(followUps(plain).map((f) => ({ ...f.arguments, instance: 'staging' })));
    for (const f of followUps(plain)) expect(f.arguments).not.toHaveProperty('instance');
  });
});

describe('withFetched', () => {
  const orders = fixture('39');

  it('lays in the workflow a run’s answer lacked, keeping the runs', () => {
    const run = execution('failed');
    const scene = readCall('test_workflow', { id: run.workflowId }, answered(testAnswer(run)));
    const next = withFetched(scene, 'workflow', answered(saved(run.workflowData, run.workflowId)));
    expect(next.workflow).toEqual(readWorkflow(saved(run.workflowData, run.workflowId)));
    expect(next.runs).toBe(scene.runs);
    expect(next.fetch).toBe(scene.fetch);
    expect(next.marks).toEqual({});
  });

  it('lays in the version before a change, and marks what changed by comparing the two', () => {
    const after = edited(orders, [
      { type: 'removeNode', name: 'Freight' },
      { type: 'moveNode', name: 'Reject', position: [900, 900] },
    ]);
    const scene = readCall('update_workflow', { id: 'wf39', workflow: after }, answered({ ...summaryOf(after, 'wf39'), previousVersion: 5 }));
    const next = withFetched(scene, 'before', answered(keptVersion('wf39', 5, orders)));
    expect(next.before).toEqual(readWorkflow(keptVersion('wf39', 5, orders).workflow));
    // Freight's neighbours lost a connection; Reject moved.
    expect(next.marks).toEqual({ Freight: 'removed', Reject: 'changed', 'By Category': 'changed', 'All Shipments': 'changed' });
  });

  it('keeps the marks the answer gave over the comparison (a rename is a change, not an add)', () => {
    const operations = [{ type: 'renameNode', name: 'Freight', newName: 'Pallet' }];
    const after = edited(orders, operations);
    let scene = readCall('edit_workflow', { id: 'wf39', operations }, answered(editAnswer('wf39', after, operations, 8)));
    scene = withFetched(scene, 'workflow', answered(saved(after, 'wf39')));
    scene = withFetched(scene, 'before', answered(keptVersion('wf39', 8, orders)));
    expect(scene.marks.Pallet).toBe('changed');
    expect(scene.marks.Freight).toBe('removed');
  });

  it('lays in a run read from its execution, the runs the answer had standing', () => {
    const run = execution('failed');
    const scene: Scene = { ...readCall('run_workflow_tests', { id: run.workflowId }, answered({ id: run.workflowId, passed: false, tests: [] })) };
    scene.runs = dict([['Hook', { status: 'waiting', items: [] }]]);
    const next = withFetched(scene, 'runs', answered(errorView(run)));
    expect(Object.keys(next.runs).sort()).toEqual(['Check', 'Hook', 'Split']);
    expect(next.runs.Hook!.status).toBe('waiting');
    expect(next.runs.Check).toMatchObject({ status: 'error', received: { from: 'Split' } });
  });

  it('says when the read failed, or its workflow is too large to draw; an error already said stands', () => {
    const scene = readCall('get_execution', { id: '1' }, answered(executionRecord(execution('failed'))));
    expect(withFetched(scene, 'workflow', failed('Not found (404)')).error).toBe('The workflow could not be read: Not found (404)');
    expect(withFetched(scene, 'runs', failed('Forbidden: get_execution needs the scope "executions:read"')).error).toBe(
      'The run could not be read: Forbidden: get_execution needs the scope "executions:read"',
    );
    const outline = {
      ...saved(orders, 'wf39'),
      nodes: (orders.nodes as Json[]).map((n) => ({ name: n.name, type: n.type, typeVersion: n.typeVersion, bytes: 10 })),
      answerTooLarge: '…',
    };
    expect(withFetched(scene, 'workflow', answered(outline)).error).toMatch(/too large/);
    expect(withFetched({ ...scene, error: 'first' }, 'workflow', failed('second')).error).toBe('first');
  });
});

describe('compare', () => {
  const orders = readWorkflow(fixture('39'))!;

  it('finds nothing between a workflow and its copy, whatever the order of its parameters’ keys', () => {
    const copy = readWorkflow(fixture('39'))!;
    copy.nodes = copy.nodes.map((n) => ({ ...n, parameters: Object.fromEntries(Object.entries(n.parameters).reverse()) }));
    expect(compare(orders, copy)).toEqual({});
  });

  it('marks a node changed for its parameters, version, place, deactivation and notes; added and removed nodes', () => {
    const changes: [string, (n: Json) => void][] = [
      ['Media Mail', (n) => (n.parameters = { ...n.parameters, includeOtherFields: false })],
      ['Freight', (n) => (n.typeVersion = 3.3)],
      ['Lines', (n) => (n.position = [n.position[0] + 20, n.position[1]])],
      ['Reject', (n) => (n.disabled = true)],
      ['Accept', (n) => (n.notes = 'answers the caller')],
    ];
    const workflow = fixture('39');
    for (const [name, change] of changes) change(nodeNamed(workflow, name));
    workflow.nodes.push({ name: 'Extra', type: 'n8n-nodes-base.noOp', typeVersion: 1, position: [0, 0], parameters: {} });
    workflow.nodes = (workflow.nodes as Json[]).filter((n) => n.name !== 'Shipment Plan');
    workflow.connections['All Shipments'] = { main: [[]] };
    expect(compare(orders, readWorkflow(workflow)!)).toEqual({
      ...Object.fromEntries(changes.map(([name]) => [name, 'changed'])),
      'All Shipments': 'changed',
      Extra: 'added',
      'Shipment Plan': 'removed',
    });
  });

  it('marks both ends of a connection that changed, and no other node', () => {
    const workflow = fixture('39');
    workflow.connections['Has Lines?'].main.reverse();
    const marks = compare(orders, readWorkflow(workflow)!);
    expect(marks).toEqual({ 'Has Lines?': 'changed', Lines: 'changed', Reject: 'changed' });
  });
});

describe('runsOf and runsOfRunData agree on a real execution', () => {
  it.each(['failed', 'answered', 'stopped'] as const)('%s', (which) => {
    const run = execution(which);
    const fromReport = runsOf(errorView(run));
    const fromRunData = runsOfRunData(run);
    expect(Object.keys(fromRunData)).toEqual(Object.keys(fromReport));
    for (const name of Object.keys(fromReport)) {
      expect(fromRunData[name]).toMatchObject({ status: fromReport[name]!.status, items: fromReport[name]!.items, order: fromReport[name]!.order });
    }
  });
});

describe('toolOf: the tool a call was, for hosts that do not say', () => {
  it('names each drawn tool from its arguments and answer alone', () => {
    const workflow = fixture('05');
    const run = execution('failed');
    const cases: [string, Json, Answer][] = [
      ['validate_workflow', { workflow }, validateAnswer(workflow)],
      ['autofix_workflow', { workflow }, answered(autofixValue(workflow))],
      ['get_workflow', { id: 'wf1' }, answered(saved(workflow, 'wf1'))],
      ['get_workflow_version', { id: 'wf1', version: 2 }, answered(keptVersion('wf1', 2, workflow))],
      ['create_workflow', { workflow }, answered(summaryOf(workflow, 'wf1'))],
      ['update_workflow', { id: 'wf1', workflow }, answered(summaryOf(workflow, 'wf1', { previousVersion: 1 }))],
      ['edit_workflow', { id: 'wf1', operations: [] }, answered({ saved: true, id: 'wf1', operations: 0, valid: true, errors: [], warnings: [] })],
      ['get_execution', { id: '1', includeData: true }, answered(run)],
      ['get_execution', { id: '1', view: 'error' }, answered(errorView(run))],
      ['diff_workflow_versions', { id: 'wf1', from: 1 }, answered(diffAnswer('wf1', 1, 'current', workflow, workflow))],
      ['restore_workflow_version', { id: 'wf1', version: 1 }, answered({ restored: true, id: 'wf1', version: 1, kept: 2 })],
      ['run_workflow_tests', { id: 'wf1' }, answered({ id: 'wf1', passed: true, tests: [] })],
    ];
    for (const [tool, args, answer] of cases) expect(toolOf(args, answer), tool).toBe(tool);
    expect(toolOf({}, answered({ something: 'else' }))).toBe('');
  });
});

describe('findings past the first hundred', () => {
  it('are counted in the summary as the validator counted them', () => {
    const answer = answered({ valid: false, errors: [{ node: null, code: 'x', message: 'x' }], warnings: [], omitted: { errors: 249, warnings: 3 } }, true);
    expect(readCall('validate_workflow', { workflow: fixture('05') }, answer).summary).toBe('Not valid: 250 errors, 3 warnings');
  });
});
