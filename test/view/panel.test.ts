import type { Frame } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import {
  answered,
  autofixValue,
  brokenOrders,
  execution,
  fakeN8nHost,
  fixture,
  nodeNamed,
  saved,
  testAnswer,
  validateAnswer,
  validation,
  type Json,
} from './answers';
import { LOOKS, showCall, viewPerFile } from './viewPage';

const view = viewPerFile();

const open = async (frame: Frame, name: string) => {
  // A panel open, closed; the workflow framed again (opening a panel pans its node out from under it).
  if (await frame.locator('#panel').evaluate((el) => !(el as HTMLElement).hidden)) await frame.locator('#panel button.close').click();
  await frame.locator('#fit').click();
  // Overlaid, the before-version is under the after one: the after one is clicked.
  await frame
    .locator(`g.version:not(.ghost) g.node[data-name=${JSON.stringify(name)}]`)
    .first()
    .click();
  await expect.poll(() => frame.locator('#panel').getAttribute('data-node')).toBe(name);
};
const section = (frame: Frame, name: string) => frame.locator(`#panel section[data-section="${name}"]`);
const json = async (frame: Frame, selector: string) => JSON.parse((await frame.locator(selector).textContent())!);
/** The JSON shown under a heading of the run section ("Items it got", "Items it put out"). */
const shownUnder = async (frame: Frame, heading: string) => JSON.parse((await section(frame, 'run').locator(`h4:text-is("${heading}") + pre`).textContent())!);

describe('the node panel', () => {
  it('shows what the node is, its findings (severity, words, where) and its parameters', async () => {
    const workflow = brokenOrders();
    const frame = await showCall(view.session, { tool: { name: 'validate_workflow' }, args: { workflow }, result: validateAnswer(workflow) });
    await open(frame, 'Media Mail');
    const node = nodeNamed(workflow, 'Media Mail');
    expect(await frame.locator('#panel h2').textContent()).toBe('Media Mail');
    expect(await frame.locator('#panel .node-type').textContent()).toBe(`${LOOKS.types[node.type]!.name} · ${node.type} v${node.typeVersion}`);
    const result = validation(workflow);
    const own: Json[] = [
      ...(result.errors as Json[]).map((f): Json => ({ ...f, severity: 'error' })),
      ...(result.warnings as Json[]).map((f): Json => ({ ...f, severity: 'warning' })),
    ].filter((f) => f.node === 'Media Mail');
    expect(own.length).toBeGreaterThan(0);
    expect(await section(frame, 'findings').locator('h3').textContent()).toBe(`Findings (${own.length})`);
    const items = await section(frame, 'findings')
      .locator('li')
      .evaluateAll((lis) =>
        lis.map((li) => ({ severity: li.className, words: li.querySelector('span')!.textContent!.trim(), path: li.querySelector('code')?.textContent })),
      );
    expect(items).toEqual(own.map((f) => ({ severity: f.severity, words: f.message, path: f.path })));
    expect(await section(frame, 'run').count()).toBe(0);
    expect(await json(frame, '#panel section[data-section="parameters"] pre')).toEqual(node.parameters);
    expect(await frame.locator('g.node.selected').getAttribute('data-name')).toBe('Media Mail');
  });

  it('shows what the fixes did to the node: made, or left to the person, and that the call changed it', async () => {
    const workflow = brokenOrders();
    const value = autofixValue(workflow);
    const frame = await showCall(view.session, { tool: { name: 'autofix_workflow' }, args: { workflow }, result: answered(value) });
    await open(frame, 'Has Lines?');
    expect(await frame.locator('#panel p.mark').textContent()).toBe('This node was changed.');
    const fixes = (value.fixes as Json[]).filter((f) => f.node === 'Has Lines?');
    expect(await section(frame, 'findings').locator('li.info p.fix').allTextContents()).toEqual(
      fixes.map((f) => (f.applied ? 'Fix: made' : `Fix: not made (${f.confidence}): check it yourself`)),
    );
  });

  it('shows a node’s run: its place and items per output, what it put out; the failed node’s error', async () => {
    const run = execution('failed');
    const frame = await showCall(view.session, { tool: { name: 'get_execution' }, args: { id: '1', includeData: true }, result: answered(run) });
    const runData = run.data.resultData.runData;
    await open(frame, 'Split');
    expect(await section(frame, 'run').locator('p').first().textContent()).toBe('Step 2 of the run · success · put out 2 items');
    expect(await shownUnder(frame, 'Items it put out')).toEqual(runData.Split[0].data.main[0].map((i: Json) => i.json));
    await open(frame, 'Check');
    expect(await section(frame, 'run').locator('p').first().textContent()).toBe('Step 3 of the run · error · put out no items');
    expect(await section(frame, 'run').locator('p.error').textContent()).toBe(runData.Check[0].error.message);
    // A node that did not run has no run section.
    await open(frame, 'Respond');
    expect(await section(frame, 'run').count()).toBe(0);
  });

  it('shows the items the failed node got, from a test run’s report', async () => {
    const run = execution('failed');
    const answer = testAnswer(run);
    const frame = await showCall(
      view.session,
      {
        tool: { name: 'test_workflow' },
        args: { id: run.workflowId, payload: { n: 2 } },
        result: answered(answer),
        answer: fakeN8nHost({ workflows: { [run.workflowId]: run.workflowData } }),
      },
      1,
    );
    await open(frame, 'Check');
    expect(await shownUnder(frame, 'Items it got')).toEqual(answer.execution.failed.input);
    expect(await section(frame, 'run').locator('p.error').textContent()).toBe(answer.execution.failed.error);
    await open(frame, 'Hook');
    // The trigger's request as the report samples it.
    expect(await shownUnder(frame, 'Items it put out')).toEqual(answer.execution.nodes[0].sample);
  });

  it('a node with no parameters set, a deactivated one, its notes; parameters too long are cut', async () => {
    const workflow = fixture('29');
    nodeNamed(workflow, 'Score Lead').notes = 'Scores 0–100 from the form answers';
    workflow.nodes.push({ name: 'Pass', type: 'n8n-nodes-base.noOp', typeVersion: 1, position: [1100, 320], parameters: {} });
    workflow.nodes.push({
      name: 'Long',
      type: 'n8n-nodes-base.code',
      typeVersion: 2,
      position: [1100, 520],
      parameters: { jsCode: `// ${'x'.repeat(30_000)}` },
    });
    const frame = await showCall(view.session, { tool: { name: 'get_workflow' }, args: { id: 'wf29' }, result: answered(saved(workflow, 'wf29')) });
    await open(frame, 'Pass');
    expect(await section(frame, 'parameters').locator('p').textContent()).toBe('None set: every parameter has its default.');
    await open(frame, 'Push To CRM');
    expect(await frame.locator('#panel .node-type').textContent()).toMatch(/ · deactivated$/);
    await open(frame, 'Score Lead');
    expect(await frame.locator('#panel .notes').textContent()).toBe('Scores 0–100 from the form answers');
    await open(frame, 'Long');
    const shown = (await section(frame, 'parameters').locator('pre').textContent())!;
    expect(shown.length).toBeLessThan(20_100);
    expect(shown).toMatch(/… \(30,0\d\d characters, cut\)$/);
  });

  it('closes with its button or a click on the canvas, and opens from the keyboard', async () => {
    const frame = await showCall(view.session, { tool: { name: 'get_workflow' }, args: { id: 'wf39' }, result: answered(saved(fixture('39'), 'wf39')) });
    const hidden = () => frame.locator('#panel').evaluate((el) => (el as HTMLElement).hidden);
    await open(frame, 'Lines');
    await frame.locator('#panel button.close').click();
    expect(await hidden()).toBe(true);
    expect(await frame.locator('g.node.selected').count()).toBe(0);
    await open(frame, 'Lines');
    await frame.locator('#canvas').click({ position: { x: 5, y: 5 } });
    expect(await hidden()).toBe(true);
    await frame.locator('g.node[data-name="Reject"]').focus();
    await frame.locator('g.node[data-name="Reject"]').press('Enter');
    await expect.poll(() => frame.locator('#panel').getAttribute('data-node')).toBe('Reject');
    expect(await hidden()).toBe(false);
  });
});
