import type { Frame } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { readCall, withFetched } from '../../src/view/readCall';
import type { Finding, Scene } from '../../src/view/scene';
import type { ToolCall } from '../support/appHost';
import {
  answered,
  asAnswer,
  autofixValue,
  brokenOrders,
  diffAnswer,
  edited,
  errorView,
  execution,
  failed,
  fakeN8nHost,
  fixture,
  recordedCalls,
  replay,
  saved,
  summaryOf,
  testAnswer,
  validateAnswer,
  type Answer,
  type Json,
  type N8nState,
} from './answers';
import { drawnNodes, expectClean, settled, showCall, status, viewPerFile } from './viewPage';

const view = viewPerFile();

const click = (frame: Frame, tool: string) => frame.locator(`#actions button[data-action="${tool}"]`).click();
const calls = () => view.session.host.calls().map(({ name, arguments: args }) => ({ name, arguments: args }));
const key = (call: ToolCall) => JSON.stringify([call.name, call.arguments]);
const byCall = (a: ToolCall, b: ToolCall) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0);
const names = (nodes: readonly { name?: unknown }[]) => nodes.map((n) => n.name).sort();
const worst = (findings: Finding[] = []) =>
  findings.some((f) => f.severity === 'error') ? 'error' : findings.some((f) => f.severity === 'warning') ? 'warning' : findings.length ? 'info' : null;
const pressed = (frame: Frame) => frame.locator('#modes button[aria-pressed="true"]').getAttribute('data-mode');
const versions = (frame: Frame) =>
  frame.evaluate(() =>
    [...document.querySelectorAll('#world > g.version')].map((g) => (g.classList.contains('ghost') ? 'ghost' : (g.getAttribute('data-version') ?? 'one'))),
  );

/** The scene the view ends with: the call's, with the answers the host gave its reads laid in. */
function finalScene(tool: string, args: Json, result: Answer): Scene {
  let scene = readCall(tool, args, result);
  for (const read of scene.fetch ?? []) {
    const call = view.session.host.calls().find((c) => c.name === read.tool && JSON.stringify(c.arguments) === JSON.stringify(read.arguments));
    scene = withFetched(scene, read.into, call?.result ? asAnswer(call.result) : failed(call?.error ?? 'not read'));
  }
  return scene;
}

/** What the view shows is what the scene says: words, status, the nodes of each version and what is laid over them, the actions. */
async function expectDrawn(frame: Frame, scene: Scene): Promise<void> {
  expect(await frame.locator('#title').textContent()).toBe(scene.title);
  expect(await frame.locator('#summary').textContent()).toBe(scene.summary);
  const shown = await status(frame);
  if (scene.error) expect(shown).toEqual({ text: scene.error, kind: 'error' });
  // Drawn: nothing to say, or that the action asked for is done.
  else if (scene.workflow) expect(shown === null || (shown.kind === 'info' && shown.text.endsWith(': done.'))).toBe(true);
  const drawn = await drawnNodes(frame);
  const after = drawn.filter((n) => n.version === 'after');
  const ghost = drawn.filter((n) => n.version === 'ghost');
  expect(names(after)).toEqual(names(scene.workflow?.nodes.filter((n) => n.type !== 'n8n-nodes-base.stickyNote') ?? []));
  expect(names(ghost)).toEqual(scene.before && scene.workflow ? names(scene.before.nodes.filter((n) => n.type !== 'n8n-nodes-base.stickyNote')) : []);
  for (const node of after) {
    expect(node.mark, node.name).toBe(scene.marks[node.name] ?? null);
    expect(node.run, node.name).toBe(scene.runs[node.name]?.status ?? null);
    expect(node.findings, node.name).toBe(worst(scene.findings[node.name]));
  }
  for (const node of ghost) {
    expect(node.mark, node.name).toBe(scene.marks[node.name] === 'removed' ? 'removed' : null);
    expect([node.run, node.findings], node.name).toEqual([null, null]);
  }
  expect(await frame.locator('#actions button').evaluateAll((buttons) => buttons.map((b) => b.getAttribute('data-action')))).toEqual(
    scene.actions.map((a) => a.tool),
  );
  expect(await frame.locator('#modes').evaluate((el) => (el as HTMLElement).hidden)).toBe(scene.before === undefined);
}

const recorded = recordedCalls();

describe.skipIf(recorded.length === 0)('each tool’s view, on answers recorded from a real n8n', () => {
  it.each(recorded.map(({ name, call }) => [name, call] as const))('%s', async (name, call) => {
    const reads = readCall(call.tool, call.arguments, call.result).fetch ?? [];
    const frame = await showCall(
      view.session,
      { tool: { name: call.tool }, args: call.arguments, result: call.result, answer: replay(call.view) },
      reads.length,
    );
    // It read, through the host, exactly what the answer lacked.
    expect(calls().sort(byCall)).toEqual(reads.map((r) => ({ name: r.tool, arguments: r.arguments })).sort(byCall));
    expect(view.session.host.calls().filter((c) => c.result?.isError || c.error)).toEqual([]);
    const scene = finalScene(call.tool, call.arguments, call.result);
    expect(scene.error).toBeUndefined();
    expect(scene.workflow?.nodes.length).toBeGreaterThan(0);
    await expectDrawn(frame, scene);
    await view.session.host.screenshot(`view-${name}.png`);
  });
});

describe('actions: a person’s requests, made as tool calls through the host', () => {
  it('validate → "Apply the sure fixes" is autofix_workflow of the same workflow; its answer is drawn before and after', async () => {
    const workflow = brokenOrders();
    const frame = await showCall(view.session, {
      tool: { name: 'validate_workflow' },
      args: { workflow },
      result: validateAnswer(workflow),
      answer: fakeN8nHost({}),
    });
    await view.session.host.screenshot('view-validate_workflow.png');
    await click(frame, 'autofix_workflow');
    await settled(view.session.host, 1);
    expect(calls()).toEqual([{ name: 'autofix_workflow', arguments: { workflow } }]);
    const scene = readCall('autofix_workflow', { workflow }, asAnswer(view.session.host.calls()[0]!.result));
    expect(scene.marks).toMatchObject({ 'Has Lines?': 'changed', 'Media Mail': 'changed' });
    await expectDrawn(frame, scene);
    expect(await pressed(frame)).toBe('overlay');
    expect(await versions(frame)).toEqual(['ghost', 'one']);
    expect(await status(frame)).toEqual({ text: 'Apply the sure fixes: done.', kind: 'info' });
    await view.session.host.screenshot('view-autofix_workflow.png');
  });

  // On the default n8n connection, and on one the call named: validate and autofix act on no n8n, so they take
  // no instance; the save and the reads after it do, and it is the one the chain began on.
  it.each([{ on: {} }, { on: { instance: 'staging' } }])(
    'get_workflow → check it → apply the sure fixes → save them: each step the tool call it says, on the n8n it began on ($on)',
    async ({ on }) => {
      const id = 'wf39';
      const state: N8nState = { workflows: { [id]: brokenOrders() } };
      const read = saved(brokenOrders(), id);
      const frame = await showCall(view.session, { tool: { name: 'get_workflow' }, args: { id, ...on }, result: answered(read), answer: fakeN8nHost(state) });
      await click(frame, 'validate_workflow');
      await settled(view.session.host, 1);
      await click(frame, 'autofix_workflow');
      await settled(view.session.host, 2);
      await click(frame, 'edit_workflow');
      await settled(view.session.host, 5);
      expect(calls().slice(0, 3)).toEqual([
        { name: 'validate_workflow', arguments: { workflow: read } },
        { name: 'autofix_workflow', arguments: { workflow: read } },
        { name: 'edit_workflow', arguments: { id, operations: [], autofix: true, expectedVersionId: read.versionId, ...on } },
      ]);
      expect(calls().slice(3).sort(byCall)).toEqual([
        { name: 'get_workflow', arguments: { id, ...on } },
        { name: 'get_workflow_version', arguments: { id, version: 1, ...on } },
      ]);
      const edit = view.session.host.calls()[2]!;
      const scene = finalScene('edit_workflow', edit.arguments, asAnswer(edit.result));
      expect(scene.workflow!.nodes.find((n) => n.name === 'Has Lines?')!.type).toBe('n8n-nodes-base.if');
      expect(scene.marks).toMatchObject({ 'Has Lines?': 'changed', 'Media Mail': 'changed' });
      await expectDrawn(frame, scene);
      await view.session.host.screenshot('view-edit_workflow.png');
    },
  );

  it('findings no node can carry (the workflow’s own, or naming a node it lacks) are listed over the canvas', async () => {
    const workflow = fixture('05');
    const answer = answered({
      valid: false,
      errors: [
        { node: null, code: 'no_trigger', message: 'The workflow has no trigger' },
        { node: 'Ghost', code: 'unknown_source_node', message: 'connections name "Ghost", which is not a node' },
        { node: workflow.nodes[1].name, code: 'missing_required', message: 'x is required', path: 'parameters.x' },
      ],
      warnings: [],
    });
    const frame = await showCall(view.session, { tool: { name: 'validate_workflow' }, args: { workflow }, result: answer });
    await expect
      .poll(() => frame.locator('#notes li').allTextContents())
      .toEqual(['The workflow has no trigger', '"Ghost": connections name "Ghost", which is not a node']);
    expect(await frame.locator('#notes li.error').count()).toBe(2);
    // The finding on a node is on that node, not in the list.
    expect(await frame.locator(`g.node[data-name="${workflow.nodes[1].name}"][data-findings="error"]`).count()).toBe(1);
    await expectClean(view.session.host);
  });

  it('get_workflow → "Run the saved tests" is run_workflow_tests on the same instance; the failed test’s run is read and drawn', async () => {
    const run = execution('failed');
    const id = run.workflowId as string;
    const tests = {
      id,
      passed: false,
      tests: [{ name: 'needs need', passed: false, failures: ['the run did not succeed: failed: "Check" stopped the run'], execution: '1' }],
    };
    const answer = fakeN8nHost({ workflows: { [id]: run.workflowData }, executions: { '1': run }, tests: { [id]: tests } });
    const args = { id, instance: 'staging' };
    const frame = await showCall(view.session, { tool: { name: 'get_workflow' }, args, result: answered(saved(run.workflowData, id)), answer });
    await view.session.host.screenshot('view-get_workflow.png');
    await click(frame, 'run_workflow_tests');
    await settled(view.session.host, 3);
    expect(calls()[0]).toEqual({ name: 'run_workflow_tests', arguments: { id, instance: 'staging' } });
    expect(calls().slice(1).sort(byCall)).toEqual([
      { name: 'get_execution', arguments: { id: '1', view: 'error', instance: 'staging' } },
      { name: 'get_workflow', arguments: { id, instance: 'staging' } },
    ]);
    const scene = finalScene('run_workflow_tests', args, asAnswer(view.session.host.calls()[0]!.result));
    expect(scene.runs.Check!.status).toBe('error');
    await expectDrawn(frame, scene);
    await view.session.host.screenshot('view-run_workflow_tests.png');
  });

  const before = fixture('39');
  const after = edited(before, [
    { type: 'removeNode', name: 'Freight' },
    { type: 'setParameter', name: 'Media Mail', path: '/assignments/assignments/0/value', value: 'media' },
    { type: 'addNode', node: { name: 'Audit', type: 'n8n-nodes-base.noOp', typeVersion: 1, position: [1620, 500] } },
    { type: 'addConnection', source: 'Accept', target: 'Audit' },
  ]);

  it('update → reads the version it replaced and overlays it: the removed node ghosted and marked; "Undo this change" restores that version', async () => {
    const id = 'wf39';
    const state: N8nState = {
      workflows: { [id]: before },
      versions: { [`${id}@7`]: before, [`${id}@8`]: after },
      restores: { [`${id}@7`]: { restored: true, id, version: 7, active: false, versionId: `v-${id}`, liveVersionId: null, kept: 8 } },
    };
    const args = { id, workflow: after };
    const result = answered({ ...summaryOf(after, id), previousVersion: 7 });
    const frame = await showCall(view.session, { tool: { name: 'update_workflow' }, args, result, answer: fakeN8nHost(state) }, 1);
    expect(calls()).toEqual([{ name: 'get_workflow_version', arguments: { id, version: 7 } }]);
    const scene = finalScene('update_workflow', args, result);
    expect(scene.marks).toMatchObject({ Freight: 'removed', 'Media Mail': 'changed', Audit: 'added' });
    await expectDrawn(frame, scene);
    expect(await pressed(frame)).toBe('overlay');
    const ghostFreight = (await drawnNodes(frame)).filter((n) => n.name === 'Freight');
    expect(ghostFreight).toEqual([expect.objectContaining({ version: 'ghost', mark: 'removed' })]);
    await view.session.host.screenshot('view-update_workflow.png');

    await click(frame, 'restore_workflow_version');
    await settled(view.session.host, 4);
    expect(calls()[1]).toEqual({ name: 'restore_workflow_version', arguments: { id, version: 7 } });
    expect(calls().slice(2).sort(byCall)).toEqual([
      { name: 'get_workflow', arguments: { id } },
      { name: 'get_workflow_version', arguments: { id, version: 8 } },
    ]);
    const restored = finalScene('restore_workflow_version', { id, version: 7 }, asAnswer(view.session.host.calls()[1]!.result));
    // Titled by the workflow's name once it is read.
    expect(restored.title).toBe(`Restored: ${before.name}`);
    expect(restored.marks).toMatchObject({ Freight: 'added', Audit: 'removed' });
    await expectDrawn(frame, restored);
    await view.session.host.screenshot('view-restore_workflow_version.png');
  });

  it('the modes: side by side (the before on the left, only what it lost marked), before alone, after alone, overlay', async () => {
    const id = 'wf39';
    const args = { id, workflow: after };
    const frame = await showCall(
      view.session,
      {
        tool: { name: 'update_workflow' },
        args,
        result: answered({ ...summaryOf(after, id), previousVersion: 7 }),
        answer: fakeN8nHost({ versions: { [`${id}@7`]: before } }),
      },
      1,
    );
    const count = (workflow: Json) => (workflow.nodes as Json[]).filter((n) => n.type !== 'n8n-nodes-base.stickyNote').length;

    await frame.locator('#modes button[data-mode="side"]').click();
    expect(await pressed(frame)).toBe('side');
    expect(await versions(frame)).toEqual(['before', 'after']);
    const side = await drawnNodes(frame);
    expect(side.filter((n) => n.version === 'before').map((n) => n.name)).toEqual((before.nodes as Json[]).map((n) => n.name));
    expect(side.filter((n) => n.version === 'before' && n.mark !== null).map((n) => [n.name, n.mark])).toEqual([['Freight', 'removed']]);
    expect(side.filter((n) => n.version === 'after' && n.mark !== null).length).toBeGreaterThan(1);
    const [left, right] = await frame.evaluate(() =>
      [...document.querySelectorAll('#world > g.version')].map((g) => JSON.parse(JSON.stringify(g.getBoundingClientRect())) as DOMRect),
    );
    expect(right!.x).toBeGreaterThanOrEqual(left!.x + left!.width);
    expect(await frame.locator('#world text.version-label').allTextContents()).toEqual(['Before', 'After']);
    await view.session.host.screenshot('view-update_workflow-side.png');

    await frame.locator('#modes button[data-mode="before"]').click();
    expect(await pressed(frame)).toBe('before');
    expect(await frame.locator('body').getAttribute('data-drawn')).toBe(String(count(before)));
    expect((await drawnNodes(frame)).filter((n) => n.mark !== null).map((n) => n.name)).toEqual(['Freight']);

    await frame.locator('#modes button[data-mode="after"]').click();
    expect(await pressed(frame)).toBe('after');
    expect(await versions(frame)).toEqual(['one']);
    expect(names(await drawnNodes(frame))).toEqual(names((after.nodes as Json[]).filter((n) => n.type !== 'n8n-nodes-base.stickyNote')));

    await frame.locator('#modes button[data-mode="overlay"]').click();
    expect(await versions(frame)).toEqual(['ghost', 'one']);
    // A node clicked in the before-version shows the before's node, and what the change did to it.
    await frame.locator('g.version.ghost g.node[data-name="Freight"]').click({ force: true });
    await expect.poll(() => frame.locator('#panel').getAttribute('data-node')).toBe('Freight');
    expect(await frame.locator('#panel p.mark').textContent()).toBe('This node was removed.');
  });

  it('diff → reads both versions; "Restore version N" restores the older one', async () => {
    const id = 'wf39';
    const args = { id, from: 3 };
    const result = answered(diffAnswer(id, 3, 'current', before, after));
    const state: N8nState = {
      workflows: { [id]: after },
      versions: { [`${id}@3`]: before },
      restores: {
        [`${id}@3`]: { restored: true, id, version: 3, active: false, versionId: `v-${id}`, liveVersionId: null, unchanged: 'n8n already held this version' },
      },
    };
    const frame = await showCall(view.session, { tool: { name: 'diff_workflow_versions' }, args, result, answer: fakeN8nHost(state) }, 2);
    await expectDrawn(frame, finalScene('diff_workflow_versions', args, result));
    await view.session.host.screenshot('view-diff_workflow_versions.png');
    await click(frame, 'restore_workflow_version');
    await settled(view.session.host, 4);
    expect(calls()[2]).toEqual({ name: 'restore_workflow_version', arguments: { id, version: 3 } });
    expect(await frame.locator('#summary').textContent()).toBe('Version 3 restored: n8n already held this version');
  });

  it('an action answered with an error result: its words, and the workflow read again to show them on', async () => {
    const run = execution('failed');
    const id = run.workflowId as string;
    const frame = await showCall(view.session, {
      tool: { name: 'get_workflow' },
      args: { id },
      result: answered(saved(run.workflowData, id)),
      answer: fakeN8nHost({ workflows: { [id]: run.workflowData } }),
    });
    await click(frame, 'run_workflow_tests');
    await settled(view.session.host, 2);
    expect(await status(frame)).toEqual({ text: `Workflow ${id} has no saved tests.`, kind: 'error' });
    expect(await frame.locator('body').getAttribute('data-drawn')).toBe(String(run.workflowData.nodes.length));
  });
});

describe('what the host allows, and what it does not say', () => {
  it('a host that says not which tool was called: the view tells it from the call, and draws it all the same', async () => {
    const workflow = brokenOrders();
    const frame = await showCall(view.session, {
      tool: { name: 'validate_workflow' },
      hostContext: { toolInfo: undefined },
      args: { workflow },
      result: validateAnswer(workflow),
    });
    expect(await frame.locator('#title').textContent()).toMatch(/^Checked/);
    expect(await frame.locator('g.node[data-findings="error"]').count()).toBeGreaterThan(0);
  });

  it('a host that passes no tool call on: no buttons, no reads, and it says so', async () => {
    const run = execution('failed');
    const frame = await showCall(view.session, {
      tool: { name: 'get_execution' },
      hostCapabilities: { openLinks: {}, logging: {} },
      args: { id: run.id },
      result: answered(errorView(run)),
    });
    expect(await frame.locator('#summary').textContent()).toMatch(/this host lets the view make no calls$/);
    expect(await frame.locator('#actions button').count()).toBe(0);
    expect(view.session.host.calls()).toEqual([]);
  });

  it('saves sure fixes only to a workflow it read itself: an autofix call naming a saved workflow’s id previews, and offers no save', async () => {
    const read = saved(brokenOrders(), 'wf39');
    // What an agent could send: another workflow under the saved one's id and versionId.
    const other = { ...fixture('05'), id: read.id, versionId: read.versionId };
    const frame = await showCall(view.session, { tool: { name: 'autofix_workflow' }, args: { workflow: other }, result: answered(autofixValue(other)) });
    expect(await frame.locator('#actions button[data-action="edit_workflow"]').count()).toBe(0);
    // The same preview, reached from the view's own read of that workflow, offers it (the chain test above saves it).
    expect(readCall('autofix_workflow', { workflow: read }, answered(autofixValue(read))).actions.map((a) => a.tool)).toContain('edit_workflow');
  });
});

describe('reads: what an answer names but does not hold', () => {
  it('test_workflow → the workflow is read through the host and the run drawn over it; until then, said', async () => {
    const run = execution('failed');
    const id = run.workflowId as string;
    const args = { id, payload: { n: 2 } };
    const result = answered(testAnswer(run));
    await view.session.host.mount({
      html: view.session.html,
      tool: { name: 'test_workflow' },
      args,
      result,
      answer: fakeN8nHost({ workflows: { [id]: run.workflowData }, delay: { get_workflow: 700 } }),
    });
    const frame = view.session.host.frame();
    await expect.poll(() => status(frame)).toEqual({ text: 'Reading the workflow…', kind: 'info' });
    expect(await frame.locator('body').getAttribute('data-drawn')).toBe('0');
    await settled(view.session.host, 1);
    expect(calls()).toEqual([{ name: 'get_workflow', arguments: { id } }]);
    const scene = finalScene('test_workflow', args, result);
    expect(Object.keys(scene.runs)).toEqual(['Hook', 'Split', 'Check']);
    await expectDrawn(frame, scene);
    await view.session.host.screenshot('view-test_workflow.png');
  });

  it('get_execution: the run’s workflow and its error view are read; n8n’s raw execution needs no read', async () => {
    const run = execution('failed');
    const { data: _data, workflowData: _workflowData, ...record } = run;
    const frame = await showCall(
      view.session,
      {
        tool: { name: 'get_execution' },
        args: { id: '1' },
        result: answered(record),
        answer: fakeN8nHost({ workflows: { [run.workflowId]: run.workflowData }, executions: { '1': run } }),
      },
      2,
    );
    await expectDrawn(frame, finalScene('get_execution', { id: '1' }, answered(record)));
    await view.session.host.screenshot('view-get_execution.png');
    const raw = await showCall(view.session, { tool: { name: 'get_execution' }, args: { id: '1', includeData: true }, result: answered(run) });
    expect(calls()).toEqual([]);
    await expectDrawn(raw, readCall('get_execution', { id: '1', includeData: true }, answered(run)));
  });

  it('try_nodes and create_workflow draw from their arguments, reading nothing', async () => {
    const workflow = fixture('34');
    const created = await showCall(view.session, { tool: { name: 'create_workflow' }, args: { workflow }, result: answered(summaryOf(workflow, 'new1')) });
    expect(calls()).toEqual([]);
    await expectDrawn(created, readCall('create_workflow', { workflow }, answered(summaryOf(workflow, 'new1'))));
    await view.session.host.screenshot('view-create_workflow.png');

    const run = execution('failed');
    const nodes = ['Split', 'Check'].map((name) => {
      const { position: _p, ...node } = run.workflowData.nodes.find((n: Json) => n.name === name);
      return node;
    });
    const report = testAnswer(run).execution;
    const result = answered({ nodes: report.nodes.slice(1), failed: report.failed, cleanUp: { deleted: true, workflow: 'tHrOwAwAy1' } });
    const tried = await showCall(view.session, { tool: { name: 'try_nodes' }, args: { nodes, items: [{ n: 2 }] }, result });
    expect(calls()).toEqual([]);
    await expectDrawn(tried, readCall('try_nodes', { nodes, items: [{ n: 2 }] }, result));
    await view.session.host.screenshot('view-try_nodes.png');
  });

  it('a read the host answers with an error, or fails: said in the status', async () => {
    const run = execution('failed');
    const args = { id: run.workflowId };
    const result = answered(testAnswer(run));
    const frame = await showCall(view.session, { tool: { name: 'test_workflow' }, args, result, answer: fakeN8nHost({}) }, 1);
    expect(await status(frame)).toEqual({ text: `The workflow could not be read: Not found (404): n8n has no workflow ${run.workflowId}.`, kind: 'error' });
    const thrown = await showCall(
      view.session,
      {
        tool: { name: 'test_workflow' },
        args,
        result,
        answer: () => {
          throw new Error('the host has no connection to the server');
        },
      },
      1,
    );
    expect(await status(thrown)).toEqual({ text: 'The workflow could not be read: the host has no connection to the server', kind: 'error' });
  });

  it('a read that comes back after a person’s action replaced the scene is dropped', async () => {
    const run = execution('failed');
    const id = run.workflowId as string;
    const tests = { id, passed: false, tests: [{ name: 'needs need', passed: false, failures: ['failed'], execution: '1' }] };
    const real = fakeN8nHost({ workflows: { [id]: run.workflowData }, executions: { '1': run }, tests: { [id]: tests } });
    let first = true;
    // The first read of the workflow is slow, and answers with another workflow: it must not be drawn.
    const answer = async (call: ToolCall) => {
      if (call.name === 'get_workflow' && first) {
        first = false;
        await new Promise((resolve) => setTimeout(resolve, 1500));
        return answered(saved(fixture('01'), id));
      }
      return real(call);
    };
    await view.session.host.mount({ html: view.session.html, tool: { name: 'test_workflow' }, args: { id }, result: answered(testAnswer(run)), answer });
    const frame = view.session.host.frame();
    await expect.poll(() => frame.locator('#actions button[data-action="run_workflow_tests"]').count()).toBe(1);
    await click(frame, 'run_workflow_tests');
    await settled(view.session.host, 4);
    expect(calls().map((c) => c.name)).toContain('run_workflow_tests');
    expect(await frame.locator('#title').textContent()).toBe(`Saved tests: ${run.workflowData.name}`);
    expect(names(await drawnNodes(frame))).toEqual(names(run.workflowData.nodes as { name: string }[]));
  });
});

it('an unknown tool’s answer holding a workflow is drawn; one holding none says so', async () => {
  const workflow = fixture('03');
  const frame = await showCall(view.session, { tool: { name: 'some_new_tool' }, args: {}, result: answered({ workflow }) });
  expect(await frame.locator('body').getAttribute('data-drawn')).toBe(String(workflow.nodes.length));
  const empty = await showCall(view.session, { tool: { name: 'some_new_tool' }, args: {}, result: answered({ ok: true }) });
  expect(await status(empty)).toEqual({ text: 'This answer holds no workflow to draw.', kind: 'info' });
  expect(failed('x').isError).toBe(true);
});
