import { describe, expect, it } from 'vitest';
import { EXECUTION_DATA_LIMIT, trimExecution } from '../../../src/tools/n8n/executions';
import { toolsFor } from '../../../src/server/registry';
import { withN8n } from '../../support/hostile';
import { ANSWER_BUDGET_BYTES } from '../../../src/config';
import { answerBytes, bytesInAnswer } from '../../../src/protocol/answerBytes';
import { callDirect, fakeN8n, fakeN8nApi, sentToN8n } from '../../support/tools';
// An execution a real n8n 1.123.81 stored, errors with their stacks and file paths in it (test/tools/n8n/executionReport.test.ts).
import hostDetails from '../../fixtures/executions/hostDetails.json';

/** An execution whose one node put out `items` items of `size` characters each. */
const execution = (items: number, size: number) => ({
  id: '7',
  status: 'success',
  data: {
    resultData: {
      lastNodeExecuted: 'Set',
      runData: { Set: [{ executionTime: 3, data: { main: [Array.from({ length: items }, (_, i) => ({ json: { i, pad: 'x'.repeat(size) } }))] } }] },
    },
  },
});

describe('trimExecution', () => {
  it('answers execution data under the limit as it is', () => {
    const small = execution(2, 10);
    expect(trimExecution(small, false)).toBe(small);
  });

  it('summarises data over the limit per node: runs, items, the first item, and how to get it all', () => {
    const big = execution(100, 1_000);
    expect(JSON.stringify(big.data).length).toBeGreaterThan(EXECUTION_DATA_LIMIT);
    const trimmed = trimExecution(big, false);
    expect(trimmed.data).toEqual({
      resultData: {
        lastNodeExecuted: 'Set',
        nodes: [{ node: 'Set', status: 'success', runs: 1, items: [100], sample: expect.stringMatching(/^\{"i":0,"pad":"x+… \(1016 characters\)$/) }],
      },
    });
    expect(trimmed.dataTrimmed).toMatch(/fullData: true/);
    expect(trimExecution(big, true)).toBe(big);
  });

  it("keeps a node's error in the summary", () => {
    const failed = execution(100, 1_000);
    Object.assign(failed.data.resultData.runData.Set[0]!, { error: { message: 'Bad request' } });
    expect((trimExecution(failed, false).data as any).resultData.nodes[0]).toMatchObject({ node: 'Set', status: 'error', error: 'Bad request' });
  });
});

describe('the execution tools', () => {
  it('list_executions filters by workflow, asking n8n for the data only when asked', async () => {
    const workflowId = `wf${crypto.randomUUID().replaceAll('-', '').slice(0, 12)}`;
    const { id } = await fakeN8n('executions', { workflowId, status: 'error' });
    const { result, sent } = await sentToN8n(() => callDirect('list_executions', { workflowId }));
    expect(sent[0]!.query).toBe(`?workflowId=${workflowId}`);
    expect(result.json.executions.map((e: { id: string }) => e.id)).toEqual([id]);
    expect(result.json.executions[0]).not.toHaveProperty('data');
  });

  it('get_execution reads one with its data, and delete_execution removes it', async () => {
    const { id } = await fakeN8n('executions', { workflowId: 'wfGetDelete1', status: 'success' });
    const read = await callDirect('get_execution', { id, includeData: true });
    expect(read.json).toMatchObject({ id, status: 'success', data: expect.any(Object) });
    expect(await callDirect('delete_execution', { id })).toMatchObject({ json: { deleted: true, id } });
    expect((await callDirect('get_execution', { id })).text).toMatch(/Not found \(404\)/);
  });

  it('answers execution data without the stacks and paths of the n8n host, however it is asked for', async () => {
    const workflowId = 'wfHostDetails1';
    const { id } = await fakeN8n('executions', { workflowId, execution: hostDetails });
    const answers = [
      await callDirect('get_execution', { id, includeData: true }),
      await callDirect('get_execution', { id, includeData: true, fullData: true }),
      await callDirect('get_execution', { id, view: 'error' }),
      await callDirect('list_executions', { workflowId, includeData: true, fullData: true }),
    ];
    for (const answer of answers) {
      expect(answer.isError).toBe(false);
      expect(answer.text).toContain('Command failed: cat <path>');
      expect(answer.text).not.toMatch(/"stack"|node_modules|\\n {4}at /);
    }
  });

  it('get_execution with fullData answers data past the budget a page at a time, and data within it whole', async () => {
    const workflowId = 'wfPaged1';
    const { id } = await fakeN8n('executions', { workflowId, items: 10_000 });
    const seen: number[] = [];
    let cursor: string | undefined;
    let pages = 0;
    do {
      const page = await callDirect('get_execution', { id, includeData: true, fullData: true, ...(cursor ? { cursor } : {}) });
      expect(answerBytes({ content: [{ type: 'text', text: page.text }] })).toBeLessThanOrEqual(ANSWER_BUDGET_BYTES);
      expect(page.json.page).toMatch(new RegExp(`^Execution ${id}'s data is`));
      seen.push(...page.json.data.runData.flatMap((run: any) => run.outputs.flatMap((o: any) => o.items.map((item: any) => item.json.i))));
      cursor = page.json.nextCursor;
      pages++;
    } while (cursor);
    expect(pages).toBeGreaterThan(2);
    expect(seen).toEqual(Array.from({ length: 10_000 }, (_, i) => i));
    const small = await fakeN8n('executions', { workflowId, items: 10 });
    const whole = await callDirect('get_execution', { id: small.id, includeData: true, fullData: true });
    expect(whole.json).toEqual(await fakeN8nApi('GET', `/executions/${small.id}?includeData=true`));
  });

  it('list_executions with data reads each execution on its own, at most ten a page, and summarises what does not fit the answer', async () => {
    const workflowId = `wf${crypto.randomUUID().replaceAll('-', '').slice(0, 12)}`;
    const ids: string[] = [];
    for (let n = 0; n < 4; n++) ids.unshift((await fakeN8n('executions', { workflowId, items: 1_400 })).id);
    const { result, sent } = await sentToN8n(() => callDirect('list_executions', { workflowId, includeData: true, fullData: true, limit: 50 }));
    expect(sent.map((r) => `${r.path}${r.query}`)).toEqual([
      `/executions?workflowId=${workflowId}&limit=10`,
      ...ids.map((id) => `/executions/${id}?includeData=true`),
    ]);
    expect(answerBytes({ content: [{ type: 'text', text: result.text }] })).toBeLessThanOrEqual(ANSWER_BUDGET_BYTES);
    const { executions, note } = result.json;
    expect(executions.map((e: any) => [e.id, e.dataTrimmed === undefined ? 'whole' : 'summarised'])).toEqual([
      [ids[0], 'whole'],
      [ids[1], 'whole'],
      [ids[2], 'summarised'],
      [ids[3], 'summarised'],
    ]);
    expect(executions[2].dataTrimmed).toBe(
      `Its data does not fit what is left of this answer, so it is summarised per node. get_execution with id ${ids[2]}, includeData and fullData reads it a page at a time.`,
    );
    expect(executions[2].data.resultData.nodes).toEqual([expect.objectContaining({ node: 'Start', items: [1_400] })]);
    expect(note).toBe('With includeData a page holds at most 10 executions: nextCursor gives the next ones.');
  });

  it('list_executions lists an execution without its data when even its summary does not fit, and stays within the budget', async () => {
    const workflowId = `wf${crypto.randomUUID().replaceAll('-', '').slice(0, 12)}`;
    // 1,000 nodes, each with an item of 900 characters: its summary (a sample per node) is about a megabyte too.
    const runData = Object.fromEntries(
      Array.from({ length: 1_000 }, (_, n) => [`Node ${n}`, [{ executionIndex: n, data: { main: [[{ json: { text: 't'.repeat(900) } }]] } }]]),
    );
    const execution = {
      status: 'success',
      finished: true,
      mode: 'manual',
      startedAt: '2026-11-28T00:00:00.000Z',
      stoppedAt: '2026-11-28T00:00:01.000Z',
      data: { resultData: { runData } },
    };
    const ids: string[] = [];
    for (let n = 0; n < 3; n++) ids.unshift((await fakeN8n('executions', { workflowId, execution })).id);
    const listed = await callDirect('list_executions', { workflowId, includeData: true });
    expect(listed.isError).toBe(false);
    expect(answerBytes({ content: [{ type: 'text', text: listed.text }] })).toBeLessThanOrEqual(ANSWER_BUDGET_BYTES);
    expect(listed.json.executions.map((e: any) => [e.id, e.data, e.dataTrimmed])).toEqual(
      ids.map((id) => [
        id,
        undefined,
        `Its data does not fit what is left of this answer, even summarised per node. get_execution with id ${id}, includeData and fullData reads it a page at a time.`,
      ]),
    );
  });

  it('list_executions keeps room for every execution it lists: one that would fill the answer alone is summarised', async () => {
    const workflowId = `wf${crypto.randomUUID().replaceAll('-', '').slice(0, 12)}`;
    const execution = (pad: number) => ({
      status: 'success',
      finished: true,
      mode: 'manual',
      data: { resultData: { runData: { Start: [{ executionIndex: 0, data: { main: [[{ json: { pad: 'p'.repeat(pad) } }]] } }] } } },
    });
    // Its size without a pad, then nine small ones, then one padded to the budget less 3,000 bytes: alone it would fit.
    const probe = (await fakeN8n('executions', { workflowId, execution: execution(0) })).id;
    const base = bytesInAnswer(await fakeN8nApi('GET', `/executions/${probe}?includeData=true`));
    for (let n = 0; n < 9; n++) await fakeN8n('executions', { workflowId, execution: execution(10) });
    const { id } = await fakeN8n('executions', { workflowId, execution: execution(ANSWER_BUDGET_BYTES - 3_000 - base) });
    const listed = await callDirect('list_executions', { workflowId, includeData: true, fullData: true });
    expect(listed.isError).toBe(false);
    expect(answerBytes({ content: [{ type: 'text', text: listed.text }] })).toBeLessThanOrEqual(ANSWER_BUDGET_BYTES);
    expect(listed.json.executions.map((e: any) => e.dataTrimmed ?? 'whole')).toEqual([
      expect.stringMatching(/^Its data does not fit what is left of this answer, so it is summarised per node\./),
      ...Array.from({ length: 9 }, () => 'whole'),
    ]);
    expect(listed.json.executions[0].id).toBe(id);
  });

  it('says an execution is larger than this server reads from n8n at once, in get_execution and in a listing', async () => {
    const workflowId = `wf${crypto.randomUUID().replaceAll('-', '').slice(0, 12)}`;
    const { id } = await fakeN8n('executions', { workflowId, items: 80_000 });
    const refused = `n8n's answer to GET /api/v1/executions/${id} is more than the 16 MiB this server reads at once (a Worker has 128 MB of memory): ask for less (a smaller limit, no includeData).`;
    expect(await callDirect('get_execution', { id, includeData: true, fullData: true })).toMatchObject({ isError: true, text: `Error: ${refused}` });
    const listed = await callDirect('list_executions', { workflowId, includeData: true });
    expect(listed.json.executions).toEqual([expect.objectContaining({ id, dataTrimmed: refused })]);
    await fakeN8nApi('DELETE', `/executions/${id}`); // 17 MB the other files' listings need not read
  });

  it('takes only numbers as execution ids: nothing else reaches a URL', () => {
    const getExecution = toolsFor(withN8n()).find((t) => t.name === 'get_execution')!;
    for (const id of ['..', '1/../2', 'abc', '']) expect(getExecution.input.safeParse({ id }).success, id).toBe(false);
  });
});
